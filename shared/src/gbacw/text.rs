//! Shared pieces of the GBACW text formats (maps, orders of battle): a
//! bounded line tokenizer and an error that points at a line and column, so
//! a person editing a file by hand is told exactly where it went wrong.

use std::fmt;

/// Where a text file went wrong: 1-based line and column (in characters).
/// Column 0 means "the whole file" (e.g. it is too large or incomplete).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct TextError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl TextError {
    pub fn at(token: &Token<'_>, message: impl Into<String>) -> Self {
        TextError {
            line: token.line,
            column: token.column,
            message: message.into(),
        }
    }

    pub fn line(line: usize, message: impl Into<String>) -> Self {
        TextError {
            line,
            column: 1,
            message: message.into(),
        }
    }
}

/// One whitespace-separated word of a line, with its position. A word in
/// double quotes may hold spaces (`name="Battery Robinett"`); the quotes are
/// kept out of `text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub line: usize,
    pub column: usize,
}

/// Refuse inputs larger than `limit` bytes before looking at them, so a
/// hostile or mistaken upload cannot make the parser allocate without bound.
pub fn check_size(input: &str, limit: usize, what: &str) -> Result<(), TextError> {
    if input.len() > limit {
        return Err(TextError {
            line: 0,
            column: 0,
            message: format!(
                "{what} is {} bytes; the limit is {limit} bytes",
                input.len()
            ),
        });
    }
    Ok(())
}

/// Split the input into lines of tokens, dropping comments (`#` to the end
/// of the line, outside quotes) and blank lines. Lines are numbered from 1.
pub fn lines(input: &str) -> impl Iterator<Item = Result<Vec<Token<'_>>, TextError>> {
    input
        .lines()
        .enumerate()
        .map(|(i, text)| tokenize(text, i + 1))
        .filter(|r| r.as_ref().map_or(true, |t| !t.is_empty()))
}

fn tokenize(text: &str, line: usize) -> Result<Vec<Token<'_>>, TextError> {
    let mut tokens = Vec::new();
    let mut start: Option<usize> = None;
    let mut in_quotes = false;
    let mut quote_column = 0;
    // Byte offset -> character column, computed as we walk.
    let mut column_of_start = 0;
    for (column0, (byte, ch)) in text.char_indices().enumerate() {
        let column = column0 + 1;
        if in_quotes {
            if ch == '"' {
                in_quotes = false;
            }
            continue;
        }
        match ch {
            '#' => {
                if let Some(s) = start.take() {
                    tokens.push(token(text, s, byte, line, column_of_start));
                }
                return Ok(tokens);
            }
            '"' => {
                if start.is_none() {
                    start = Some(byte);
                    column_of_start = column;
                }
                in_quotes = true;
                quote_column = column;
            }
            c if c.is_whitespace() => {
                if let Some(s) = start.take() {
                    tokens.push(token(text, s, byte, line, column_of_start));
                }
            }
            _ => {
                if start.is_none() {
                    start = Some(byte);
                    column_of_start = column;
                }
            }
        }
    }
    if in_quotes {
        return Err(TextError {
            line,
            column: quote_column,
            message: "unclosed quote".into(),
        });
    }
    if let Some(s) = start {
        tokens.push(token(text, s, text.len(), line, column_of_start));
    }
    Ok(tokens)
}

fn token(text: &str, start: usize, end: usize, line: usize, column: usize) -> Token<'_> {
    Token {
        text: &text[start..end],
        line,
        column,
    }
}

/// `key=value` with the value's quotes removed; `None` when the token has
/// no `=`.
pub fn key_value<'a>(token: &Token<'a>) -> Option<(&'a str, &'a str)> {
    let (key, value) = token.text.split_once('=')?;
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value);
    Some((key, value))
}

/// Parse a small unsigned number, naming the token on failure.
pub fn number<T: std::str::FromStr>(
    token: &Token<'_>,
    text: &str,
    what: &str,
) -> Result<T, TextError> {
    text.parse()
        .map_err(|_| TextError::at(token, format!("{what}: `{text}` is not a valid number")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_line_and_column_and_skip_comments() {
        let input = "# header\n\nhex 0101  woods # trailing\n  name=\"Battery Robinett\" x\n";
        let lines: Vec<_> = lines(input).collect::<Result<_, _>>().unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0][0].text, "hex");
        assert_eq!((lines[0][2].line, lines[0][2].column), (3, 11));
        assert_eq!(lines[1][0].text, "name=\"Battery Robinett\"");
        assert_eq!(key_value(&lines[1][0]), Some(("name", "Battery Robinett")));
        assert_eq!(lines[1][1].column, 27);
    }

    #[test]
    fn unclosed_quote_is_an_error_not_a_panic() {
        let err = lines("a \"b c\n").next().unwrap().unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
    }

    #[test]
    fn oversized_input_is_refused() {
        assert!(check_size("abcd", 3, "map").is_err());
        assert!(check_size("abc", 3, "map").is_ok());
    }
}
