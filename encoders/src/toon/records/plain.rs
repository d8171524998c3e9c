//! The forms the generic encoders write: `Toon` and `FlatToon` through the TOON serde
//! encoder (which decides table or list per document), `Json` through serde_json.

use std::io;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value};

use crate::toon;

use super::Ctx;
use super::error::RecordsError;
use super::flat::FlatRows;

/// Output bytes buffered before they are handed to the sink.
const FLUSH_AT: usize = 8 * 1024;

/// The document root of the TOON forms: one field, the rows.
struct Root<'a, T> {
    key: &'a str,
    rows: T,
}

impl<T: Serialize> Serialize for Root<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.key, &self.rows)?;
        map.end()
    }
}

/// The records as they are, truncation applied.
struct PlainRows<'a> {
    records: &'a [Value],
    ctx: &'a Ctx<'a>,
}

impl Serialize for PlainRows<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rules = &self.ctx.rules;
        let mut seq = serializer.serialize_seq(Some(self.records.len()))?;
        for record in self.records {
            seq.serialize_element(&rules.view(record, rules.root()))?;
        }
        seq.end()
    }
}

/// `rows…` with the records as they are.
pub(super) fn write_toon<W: io::Write>(
    records: &[Value],
    ctx: &Ctx<'_>,
    out: &mut W,
) -> Result<(), RecordsError> {
    let root = Root {
        key: &ctx.opts.rows_key,
        rows: PlainRows { records, ctx },
    };
    toon::to_writer(out, &root, &ctx.opts.toon)?;
    Ok(())
}

/// `rows…` with the records flattened.
pub(super) fn write_flat<W: io::Write>(
    records: &[&Map<String, Value>],
    ctx: &Ctx<'_>,
    out: &mut W,
) -> Result<(), RecordsError> {
    let root = Root {
        key: &ctx.opts.rows_key,
        rows: FlatRows { records, ctx },
    };
    toon::to_writer(out, &root, &ctx.opts.toon)?;
    Ok(())
}

/// A JSON array with one compact record per line: `[`, the records joined by `,\n`, `]`
/// (`[]` when there are none).
pub(super) fn write_json<W: io::Write>(
    records: &[Value],
    ctx: &Ctx<'_>,
    out: &mut W,
) -> Result<(), RecordsError> {
    let rules = &ctx.rules;
    let mut buf = Vec::with_capacity(FLUSH_AT + 256);
    buf.push(b'[');
    for (i, record) in records.iter().enumerate() {
        buf.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        serde_json::to_writer(&mut buf, &rules.view(record, rules.root()))?;
        if buf.len() >= FLUSH_AT {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    if !records.is_empty() {
        buf.push(b'\n');
    }
    buf.push(b']');
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}
