//! The hybrid form's writer: the shared primitive columns as one TOON table through the
//! streaming [`Writer`], then each row's remainder as one compact-JSON sidecar line.

use std::io;

use serde_json::{Map, Value};

use crate::toon::{EncodeError, Writer, quote};

use super::Ctx;
use super::error::RecordsError;
use super::prune::{Columns, Pruned, len};
use super::shape::{Column, columns, value_at};
use super::trie::{At, PathTrie};
use super::truncate::Truncation;

/// Sidecar bytes buffered before they are handed to the sink.
const FLUSH_AT: usize = 8 * 1024;

/// Writes `records` in the hybrid form.
pub(super) fn write<W: io::Write>(
    records: &[&Map<String, Value>],
    ctx: &Ctx<'_>,
    out: &mut W,
) -> Result<(), RecordsError> {
    let opts = ctx.opts;
    let table = columns(records, &ctx.specs);
    if !records.is_empty() && table.is_empty() {
        return Err(RecordsError::NoCommonColumn);
    }
    let mut writer = Writer::new(&mut *out, opts.toon);
    writer.key(&opts.rows_key)?;
    if records.is_empty() {
        // `rows: []`: a table needs columns, an empty list does not.
        writer.begin_list(0)?;
        writer.end()?;
        writer.finish()?;
        return Ok(());
    }
    write_table(&mut writer, records, &table, &ctx.rules)?;
    writer.finish()?;

    let mut cut = PathTrie::new();
    for column in &table {
        cut.insert(column.path.iter().copied(), ());
    }
    write_sidecar(out, records, Columns(cut.root()), ctx)
}

fn write_table<W: io::Write>(
    writer: &mut Writer<W>,
    records: &[&Map<String, Value>],
    table: &[Column<'_>],
    rules: &Truncation,
) -> Result<(), RecordsError> {
    let names: Vec<&str> = table.iter().map(|c| c.name.as_str()).collect();
    // Looked up once per column, not once per cell.
    let trims: Vec<Option<At<'_, usize>>> = table.iter().map(|c| rules.at(&c.path)).collect();
    writer.begin_table(records.len(), &names)?;
    for record in records {
        writer.row_begin()?;
        for (column, trim) in table.iter().zip(&trims) {
            let value = value_at(record, &column.path).ok_or(EncodeError::Internal(
                "a hybrid column is missing from a row",
            ))?;
            write_cell(writer, value, *trim, rules)?;
        }
        writer.row_end()?;
    }
    writer.end()?;
    Ok(())
}

fn write_cell<W: io::Write>(
    writer: &mut Writer<W>,
    value: &Value,
    trim: Option<At<'_, usize>>,
    rules: &Truncation,
) -> Result<(), EncodeError> {
    match value {
        Value::Null => writer.cell_null(),
        Value::Bool(b) => writer.cell_bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                writer.cell_i64(i)
            } else if let Some(u) = n.as_u64() {
                writer.cell_u64(u)
            } else {
                // Without serde_json's `arbitrary_precision` every other number is an f64.
                writer.cell_f64(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(text) => writer.cell_str(&rules.apply(text, trim)),
        Value::Array(_) | Value::Object(_) => {
            Err(EncodeError::Internal("a hybrid column holds a container"))
        }
    }
}

/// `\n<key>:` then `\n<indent><row>: <json>` for every row with fields left over.
fn write_sidecar<W: io::Write>(
    out: &mut W,
    records: &[&Map<String, Value>],
    cut: Columns<'_>,
    ctx: &Ctx<'_>,
) -> Result<(), RecordsError> {
    let indent = " ".repeat(ctx.opts.toon.indent);
    let mut buf = Vec::with_capacity(FLUSH_AT + 256);
    let mut index = itoa::Buffer::new();
    let mut opened = false;
    for (row, record) in records.iter().enumerate() {
        if len(record, &cut) == 0 {
            continue;
        }
        if !opened {
            buf.push(b'\n');
            quote::write_key(&mut buf, ctx.opts.sidecar_key.as_bytes());
            buf.push(b':');
            opened = true;
        }
        buf.push(b'\n');
        buf.extend_from_slice(indent.as_bytes());
        buf.extend_from_slice(index.format(row).as_bytes());
        buf.extend_from_slice(b": ");
        let rest = Pruned {
            map: record,
            rule: cut,
            trim: ctx.rules.root(),
            rules: &ctx.rules,
        };
        serde_json::to_writer(&mut buf, &rest)?;
        if buf.len() >= FLUSH_AT {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}
