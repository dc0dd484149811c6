//! The few calls the club SQL ([`super::club`]) makes, over either
//! database: one copy of that SQL for SQLite and PostgreSQL (issue 21).
//!
//! The club SQL is written once, as SQLite reads it (`?N` parameters,
//! `INTEGER` and `BLOB` columns, `INTEGER PRIMARY KEY` ids); on PostgreSQL
//! [`pg_sql`] rewrites it at this one place: `$N` parameters, `BIGINT`
//! (the ids are 64-bit), `BYTEA`, and identity columns for the ids. Values
//! cross as [`Val`], one of the four kinds the club tables hold, so a
//! function of the club SQL never names either driver.

use super::StorageError;

/// A value bound to a parameter or read from a column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Null,
    Int(i64),
    Text(String),
    Blob(Vec<u8>),
}

impl From<i64> for Val {
    fn from(v: i64) -> Val {
        Val::Int(v)
    }
}

impl From<&str> for Val {
    fn from(v: &str) -> Val {
        Val::Text(v.to_string())
    }
}

impl From<&[u8]> for Val {
    fn from(v: &[u8]) -> Val {
        Val::Blob(v.to_vec())
    }
}

impl From<Option<&str>> for Val {
    fn from(v: Option<&str>) -> Val {
        v.map_or(Val::Null, Val::from)
    }
}

/// One row read back.
#[derive(Debug)]
pub struct Row(Vec<Val>);

fn wrong(i: usize, want: &str, got: &Val) -> StorageError {
    StorageError::Corrupt(format!(
        "a club table's column {i} holds {got:?} where {want} was expected"
    ))
}

impl Row {
    fn at(&self, i: usize) -> Result<&Val, StorageError> {
        self.0
            .get(i)
            .ok_or_else(|| StorageError::Db(format!("a club query has no column {i}")))
    }

    pub fn int(&self, i: usize) -> Result<i64, StorageError> {
        match self.at(i)? {
            Val::Int(v) => Ok(*v),
            other => Err(wrong(i, "a number", other)),
        }
    }

    pub fn text(&self, i: usize) -> Result<String, StorageError> {
        match self.at(i)? {
            Val::Text(v) => Ok(v.clone()),
            other => Err(wrong(i, "text", other)),
        }
    }

    pub fn opt_text(&self, i: usize) -> Result<Option<String>, StorageError> {
        match self.at(i)? {
            Val::Null => Ok(None),
            _ => self.text(i).map(Some),
        }
    }

    pub fn blob(&self, i: usize) -> Result<Vec<u8>, StorageError> {
        match self.at(i)? {
            Val::Blob(v) => Ok(v.clone()),
            other => Err(wrong(i, "bytes", other)),
        }
    }
}

/// A connection inside the storage thread's transaction, either database.
pub trait ClubDb {
    /// Run one statement; the rows it changed.
    fn execute(&mut self, sql: &str, args: &[Val]) -> Result<u64, StorageError>;
    /// Run one statement (a `SELECT`, or a change `RETURNING` rows); its rows.
    fn query(&mut self, sql: &str, args: &[Val]) -> Result<Vec<Row>, StorageError>;
    /// Run statements without parameters (the schema's steps).
    fn batch(&mut self, sql: &str) -> Result<(), StorageError>;

    fn query_opt(&mut self, sql: &str, args: &[Val]) -> Result<Option<Row>, StorageError> {
        Ok(self.query(sql, args)?.into_iter().next())
    }

    fn query_one(&mut self, sql: &str, args: &[Val]) -> Result<Row, StorageError> {
        self.query_opt(sql, args)?
            .ok_or_else(|| StorageError::Db("a club query returned no row".into()))
    }
}

/// SQLite: the storage thread's connection, its transaction begun.
pub struct Lite<'a>(pub &'a rusqlite::Connection);

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Val::Null => ValueRef::Null,
            Val::Int(v) => ValueRef::Integer(*v),
            Val::Text(s) => ValueRef::Text(s.as_bytes()),
            Val::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

impl ClubDb for Lite<'_> {
    fn execute(&mut self, sql: &str, args: &[Val]) -> Result<u64, StorageError> {
        let mut s = self.0.prepare_cached(sql)?;
        Ok(s.execute(rusqlite::params_from_iter(args))? as u64)
    }

    fn query(&mut self, sql: &str, args: &[Val]) -> Result<Vec<Row>, StorageError> {
        use rusqlite::types::ValueRef;
        let mut s = self.0.prepare_cached(sql)?;
        let n = s.column_count();
        let mut rows = s.query(rusqlite::params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let mut row = Vec::with_capacity(n);
            for i in 0..n {
                row.push(match r.get_ref(i)? {
                    ValueRef::Null => Val::Null,
                    ValueRef::Integer(v) => Val::Int(v),
                    ValueRef::Text(t) => {
                        Val::Text(String::from_utf8(t.to_vec()).map_err(|_| {
                            StorageError::Corrupt("a club row's text is not UTF-8".into())
                        })?)
                    }
                    ValueRef::Blob(b) => Val::Blob(b.to_vec()),
                    ValueRef::Real(_) => {
                        return Err(StorageError::Corrupt(
                            "a club row holds a fraction where the club tables keep none".into(),
                        ));
                    }
                });
            }
            out.push(Row(row));
        }
        Ok(out)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StorageError> {
        Ok(self.0.execute_batch(sql)?)
    }
}

/// PostgreSQL: the request's savepoint in the group's transaction. It
/// notes whether any statement failed: PostgreSQL then refuses the rest
/// of the savepoint, which must be rolled back, not released.
pub struct Pg<'a, 'b> {
    tx: &'a mut postgres::Transaction<'b>,
    pub failed: bool,
}

impl<'a, 'b> Pg<'a, 'b> {
    pub fn new(tx: &'a mut postgres::Transaction<'b>) -> Self {
        Pg { tx, failed: false }
    }

    fn noted<T>(&mut self, r: Result<T, postgres::Error>) -> Result<T, StorageError> {
        r.map_err(|e| {
            self.failed = true;
            StorageError::from(e)
        })
    }
}

impl postgres::types::ToSql for Val {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::{IsNull, Type};
        match self {
            Val::Null => Ok(IsNull::Yes),
            Val::Int(v) => match *ty {
                Type::INT8 => v.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::BOOL => (*v != 0).to_sql(ty, out),
                _ => Err(format!("a number given where the database wants {ty}").into()),
            },
            Val::Text(s) => s.as_str().to_sql(ty, out),
            Val::Blob(b) => b.as_slice().to_sql(ty, out),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn pg_args(args: &[Val]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    args.iter()
        .map(|a| a as &(dyn postgres::types::ToSql + Sync))
        .collect()
}

fn pg_row(r: &postgres::Row) -> Result<Row, postgres::Error> {
    use postgres::types::Type;
    let mut row = Vec::with_capacity(r.len());
    for (i, col) in r.columns().iter().enumerate() {
        let v = match *col.type_() {
            Type::INT8 => r.try_get::<_, Option<i64>>(i)?.map(Val::Int),
            Type::INT4 => r.try_get::<_, Option<i32>>(i)?.map(|v| Val::Int(v.into())),
            Type::INT2 => r.try_get::<_, Option<i16>>(i)?.map(|v| Val::Int(v.into())),
            Type::BOOL => r.try_get::<_, Option<bool>>(i)?.map(|v| Val::Int(v.into())),
            Type::BYTEA => r.try_get::<_, Option<Vec<u8>>>(i)?.map(Val::Blob),
            // Text, and any other type as its text (the club tables have
            // none: `Row` refuses it where a number or bytes are wanted).
            _ => r.try_get::<_, Option<String>>(i)?.map(Val::Text),
        };
        row.push(v.unwrap_or(Val::Null));
    }
    Ok(Row(row))
}

impl ClubDb for Pg<'_, '_> {
    fn execute(&mut self, sql: &str, args: &[Val]) -> Result<u64, StorageError> {
        let r = self.tx.execute(pg_sql(sql).as_str(), &pg_args(args));
        self.noted(r)
    }

    fn query(&mut self, sql: &str, args: &[Val]) -> Result<Vec<Row>, StorageError> {
        let r = self
            .tx
            .query(pg_sql(sql).as_str(), &pg_args(args))
            .and_then(|rows| rows.iter().map(pg_row).collect());
        self.noted(r)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StorageError> {
        let r = self.tx.batch_execute(&pg_sql(sql));
        self.noted(r)
    }
}

/// The club SQL as PostgreSQL reads it: `?N` → `$N`; a column `id
/// INTEGER PRIMARY KEY` (SQLite's row number, given to each new row) → a
/// 64-bit identity column; the uppercase type words `INTEGER` → `BIGINT`,
/// `BLOB` → `BYTEA` (a key like `user_id INTEGER PRIMARY KEY`, always
/// given, stays a plain key). The club SQL writes its own names in
/// lowercase and has no `?` inside a string, so nothing else changes.
pub fn pg_sql(sql: &str) -> String {
    const ROW_ID: &str = "id INTEGER PRIMARY KEY";
    const IDENTITY: &str = "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY";
    let mut sql = sql.to_string();
    let mut from = 0;
    while let Some(at) = sql[from..].find(ROW_ID).map(|i| i + from) {
        let own_name = sql[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        if own_name {
            sql.replace_range(at..at + ROW_ID.len(), IDENTITY);
            from = at + IDENTITY.len();
        } else {
            from = at + ROW_ID.len();
        }
    }
    let mut out = String::with_capacity(sql.len() + 16);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "INTEGER" => "BIGINT",
            "BLOB" => "BYTEA",
            w => w,
        });
        word.clear();
    };
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out);
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::pg_sql;

    #[test]
    fn club_sql_reads_as_postgresql() {
        assert_eq!(
            pg_sql("CREATE TABLE a (user_id INTEGER PRIMARY KEY, id INTEGER PRIMARY KEY)"),
            "CREATE TABLE a (user_id BIGINT PRIMARY KEY, \
             id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY)"
        );
        assert_eq!(
            pg_sql(
                "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, b BLOB, integers TEXT)"
            ),
            "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, \
             n BIGINT NOT NULL, b BYTEA, integers TEXT)"
        );
        assert_eq!(
            pg_sql("UPDATE x SET a = ?1, b = ?12 WHERE c = ?2"),
            "UPDATE x SET a = $1, b = $12 WHERE c = $2"
        );
    }
}
