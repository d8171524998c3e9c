//! The synthetic data set of `toon-bench`: deterministic rows of eight fields, and the same
//! rows written by hand through the streaming TOON [`Writer`].

use std::io;

use anyhow::Result;
use serde::Serialize;
use tsgraph_encoders::toon::{Options, Writer};

use crate::rng::SplitMix64;

/// One row: integers, a float, a bool, short strings and one string that always needs
/// quoting in TOON (it contains `:` and `,`).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Sequential, from 1.
    pub id: u64,
    /// Signed, ±1 000 000.
    pub account: i64,
    /// Cents as a decimal, 0.00 to 99 999.99 (shortest round-trip form).
    pub amount: f64,
    /// A coin flip.
    pub active: bool,
    /// A pronounceable short name (`kavori`).
    pub name: String,
    /// One of a dozen city names.
    pub city: String,
    /// A short code (`t42`).
    pub tag: String,
    /// `ref: N, batch M`: needs quotes because of the colon and the comma.
    pub note: String,
}

/// The field names, in declaration order (the TOON table header).
pub const FIELDS: [&str; 8] = [
    "id", "account", "amount", "active", "name", "city", "tag", "note",
];

const SYLLABLES: [&str; 16] = [
    "ka", "vo", "ri", "lu", "me", "sa", "no", "ti", "be", "da", "fi", "go", "ze", "pa", "ho", "wy",
];
const CITIES: [&str; 12] = [
    "Berlin", "Lisbon", "Osaka", "Lima", "Oslo", "Quito", "Accra", "Hanoi", "Perth", "Tunis",
    "Zagreb", "Denver",
];

/// `count` rows generated from `seed`; the same arguments always give the same rows.
pub fn generate(count: usize, seed: u64) -> Vec<Row> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|i| {
            let mut name = String::with_capacity(8);
            for _ in 0..2 + rng.below(3) {
                name.push_str(SYLLABLES[rng.below(16) as usize]);
            }
            Row {
                id: i as u64 + 1,
                account: rng.below(2_000_001) as i64 - 1_000_000,
                amount: rng.below(10_000_000) as f64 / 100.0,
                active: rng.below(2) == 1,
                name,
                city: CITIES[rng.below(12) as usize].to_owned(),
                tag: format!("t{}", rng.below(100)),
                note: format!("ref: {}, batch {}", rng.below(100_000), rng.below(50)),
            }
        })
        .collect()
}

/// Writes `rows` as a root table through the streaming [`Writer`], cell by cell: the output
/// equals the serde encoder's. Returns the sink.
pub fn write_by_hand<W: io::Write>(sink: W, rows: &[Row], opts: Options) -> Result<W> {
    let mut w = Writer::new(sink, opts);
    w.begin_table(rows.len(), &FIELDS)?;
    for row in rows {
        w.row_begin()?;
        w.cell_u64(row.id)?;
        w.cell_i64(row.account)?;
        w.cell_f64(row.amount)?;
        w.cell_bool(row.active)?;
        w.cell_str(&row.name)?;
        w.cell_str(&row.city)?;
        w.cell_str(&row.tag)?;
        w.cell_str(&row.note)?;
        w.row_end()?;
    }
    w.end()?;
    Ok(w.finish()?)
}

/// The records encoder's auto-mode output for `rows`, with the form it chose.
pub fn records_auto(rows: &[Row]) -> Result<(String, String)> {
    use tsgraph_encoders::toon::records;
    let records = records::to_records(rows)?;
    let (form, text) = records::encode_auto(&records, &records::RecordsOptions::default())?;
    Ok((form.to_string(), text))
}
