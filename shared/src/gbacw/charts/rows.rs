//! Reading chart rows: a TOML table keyed by names (`line = {...}`,
//! `column = {...}`) into a map keyed by an enum, with every key required,
//! unknown keys refused and each cell parsed, errors pointing at the cell.

use super::source::{Cell, Sourced, checked, error_at};
use crate::gbacw::names::Named;
use crate::gbacw::text::TextError;
use std::collections::BTreeMap;
use toml::Spanned;

/// A row as TOML gives it: names to sourced cells, all with positions.
pub type RawRow = Spanned<BTreeMap<Spanned<String>, Spanned<Sourced<Cell>>>>;

/// Rows keyed by names, e.g. `[movement.terrain.woods]`.
pub type RawTable = Spanned<BTreeMap<Spanned<String>, RawRow>>;

/// A map keyed by the names of `K`, each value read by `read`; every
/// name of `K` must be there and no other.
pub fn keyed<K: Named, R, V>(
    input: &str,
    raw: Spanned<BTreeMap<Spanned<String>, R>>,
    what: &str,
    mut read: impl FnMut(K, R) -> Result<V, TextError>,
) -> Result<BTreeMap<K, V>, TextError> {
    let mut out = BTreeMap::new();
    let span = raw.span();
    for (key, value) in raw.into_inner() {
        let k = K::from_name(key.get_ref()).ok_or_else(|| {
            error_at(
                input,
                &key,
                format!(
                    "unknown {what} `{}` (one of {})",
                    key.get_ref(),
                    K::name_list()
                ),
            )
        })?;
        out.insert(k, read(k, value)?);
    }
    if let Some(missing) = K::all().iter().find(|k| !out.contains_key(k)) {
        let at = Spanned::new(span, ());
        return Err(error_at(
            input,
            &at,
            format!("missing {what} `{}`", missing.name()),
        ));
    }
    Ok(out)
}

/// A row of sourced cells keyed by `K`, each cell parsed by `parse`;
/// `expected` says in an error what a cell should look like.
pub fn row<K: Named, V>(
    input: &str,
    raw: RawRow,
    what: &str,
    expected: &str,
    parse: impl Fn(&Cell) -> Option<V>,
) -> Result<BTreeMap<K, Sourced<V>>, TextError> {
    keyed(input, raw, what, |_, cell: Spanned<Sourced<Cell>>| {
        let value = parse(&cell.get_ref().value)
            .ok_or_else(|| error_at(input, &cell, format!("expected {expected}")))?;
        Ok(checked(input, cell)?.map(|_| value))
    })
}

/// A table of rows keyed by `R`, each row keyed by `K`.
pub fn table<R: Named, K: Named, V>(
    input: &str,
    raw: RawTable,
    row_what: &str,
    what: &str,
    expected: &str,
    parse: impl Fn(&Cell) -> Option<V>,
) -> Result<BTreeMap<R, BTreeMap<K, Sourced<V>>>, TextError> {
    keyed(input, raw, row_what, |_, r| {
        row(input, r, what, expected, &parse)
    })
}
