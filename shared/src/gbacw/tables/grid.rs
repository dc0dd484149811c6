//! Reading a fixed-size grid of text cells (`rows = [[...], ...]`) with
//! each cell's position kept for errors.

use crate::gbacw::charts::source::error_at;
use crate::gbacw::text::TextError;
use toml::Spanned;

pub type RawGrid = Spanned<Vec<Spanned<Vec<Spanned<String>>>>>;

/// Parse a `ROWS` x `COLS` grid, each cell by `parse`; `expected` names
/// the cell syntax in errors.
pub fn grid<T: Copy + Default, const ROWS: usize, const COLS: usize>(
    input: &str,
    raw: RawGrid,
    expected: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<[[T; COLS]; ROWS], TextError> {
    if raw.get_ref().len() != ROWS {
        return Err(error_at(input, &raw, format!("expected {ROWS} rows")));
    }
    let mut out = [[T::default(); COLS]; ROWS];
    for (r, row) in raw.into_inner().into_iter().enumerate() {
        if row.get_ref().len() != COLS {
            return Err(error_at(
                input,
                &row,
                format!("expected {COLS} cells in this row"),
            ));
        }
        for (c, cell) in row.into_inner().into_iter().enumerate() {
            out[r][c] = parse(cell.get_ref()).ok_or_else(|| {
                error_at(
                    input,
                    &cell,
                    format!("expected {expected}, found `{}`", cell.get_ref()),
                )
            })?;
        }
    }
    Ok(out)
}

/// A fixed-length array of numbers, checked for length.
pub fn fixed<T: Copy, const N: usize>(
    input: &str,
    raw: Spanned<Vec<T>>,
    what: &str,
) -> Result<[T; N], TextError> {
    <[T; N]>::try_from(raw.get_ref().as_slice())
        .map_err(|_| error_at(input, &raw, format!("{what}: expected {N} values")))
}
