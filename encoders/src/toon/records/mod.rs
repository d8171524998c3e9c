//! Records encoder for prompts: a list of records (RAG chunks such as
//! `{path, content, metadata{…}}`) written as TOON, flattened TOON, a hybrid of a TOON table
//! and a JSON sidecar, or JSON — whichever suits the data's shape ([`choose`],
//! [`encode_auto`]).
//!
//! # Forms
//!
//! - [`Form::Toon`]: `rows` as the TOON encoder writes it: one table when the records share
//!   their keys (nested objects become column groups such as `metadata{source,page}`), a
//!   list otherwise. `flatten` is ignored.
//! - [`Form::FlatToon`]: the records with the [`flatten`](RecordsOptions::flatten) paths
//!   lifted into columns named `parent_child` ([`separator`](RecordsOptions::separator)),
//!   then written as `Toon` is.
//! - [`Form::Hybrid`]: the columns every record has as a primitive (after flattening) as one
//!   TOON table, and what is left of each row as one line of compact JSON in a sidecar
//!   section. The format is specified below.
//! - [`Form::Json`]: a JSON array with one compact record per line. `flatten` is ignored.
//!
//! [`truncate`](RecordsOptions::truncate) rules apply in every form. `Toon` and `Json`
//! accept any values as records; `FlatToon` and `Hybrid` look inside records, so a record
//! that is not a JSON object is [`RecordsError::NotAnObject`] there (and [`choose`] picks
//! `Json` for such input). Records nesting deeper than [`MAX_RECORD_DEPTH`] are
//! [`RecordsError::TooDeep`] in every form.
//!
//! # The hybrid format
//!
//! ```text
//! rows[3]{path,content,metadata_source}:
//!   a.md,Intro text,web
//!   b.md,"Second, chunk",pdf
//!   c.md,Third,web
//! metadata:
//!   0: {"metadata":{"tags":["x","y"],"score":{"bm25":1.5}}}
//!   2: {"metadata":{"author":"Ada"}}
//! ```
//!
//! (the records of [`encode_auto`]'s example with `flatten = ["metadata"]`). The grammar,
//! with `ROWS-KEY` and `SIDECAR-KEY` the [`rows_key`](RecordsOptions::rows_key) and
//! [`sidecar_key`](RecordsOptions::sidecar_key) (default `rows` and `metadata`), `INDENT` the
//! [`Options::indent`](crate::toon::Options) spaces, `D` the delimiter, `LF` a line feed and
//! no newline at the end:
//!
//! ```text
//! document = table [ LF sidecar ]
//! table    = ROWS-KEY "[" N [D] "]{" name *( D name ) "}:" 1*( LF INDENT row )  ; N rows
//!          / ROWS-KEY ": []"                                                    ; no records
//! row      = cell *( D cell )                           ; TOON primitives, one per name
//! sidecar  = SIDECAR-KEY ":" 1*( LF INDENT index ": " json )
//! index    = "0" / %x31-39 *DIGIT                       ; 0-based row, ascending
//! json     = one compact JSON object (serde_json), never "{}", on one line
//! ```
//!
//! - The table is an ordinary TOON table: names and cells are quoted when TOON requires it
//!   (`"Second, chunk"`), as are the two section keys. The columns are the fields that are a
//!   primitive in every record, in the first record's order: top-level keys by name, lifted
//!   fields by their joined path.
//! - Row `i`'s sidecar line holds the record minus its columns, keys in their original order,
//!   nested objects emptied by lifting left out. Rows with nothing left have no line; when no
//!   row has one there is no sidecar section.
//! - The JSON is written bare, not as a TOON string. A consumer without a TOON parser reads
//!   the section as lines: after the `SIDECAR-KEY:` line, each line is the indent, the row
//!   index, `": "` and the JSON text up to the end of the line (compact JSON holds no raw
//!   line breaks). A TOON decoder reads the bare JSON as an unquoted string, so the whole
//!   document decodes with [`to_value`](crate::toon::to_value) to
//!   `{"rows": [...], "metadata": {"0": "<json text>", ...}}`. It is not the canonical form a
//!   TOON encoder would produce (that would quote the JSON and escape every `"`); saving
//!   those escapes is the point of the sidecar.
//!
//! # Flattening and the round trip
//!
//! A [`flatten`](RecordsOptions::flatten) path that leads to a primitive lifts it; one that
//! leads to an object lifts each of the object's direct children that is a primitive.
//! [`decode_hybrid`] reads a column name back as a path: a spec's joined name is the spec's
//! path, a name that starts with a joined name and the separator is a child of that spec
//! (the longest spec wins), any other name a top-level key. Joining is not injective
//! (`meta_data.x` and `meta.data_x` both make `meta_data_x`), so the encoder only makes a
//! column of a field whose name reads back as its own path, and not of a lifted field whose
//! name the record already has as a top-level key; such fields stay where they are (in the
//! sidecar, in the `Hybrid` form). So every document [`encode_auto`] writes in a TOON form
//! decodes with [`decode_hybrid`] and the same options back into the records, except for
//! truncated strings, numbers the table wrote in TOON's canonical form (`1.0` comes back as
//! `1`) and key order (table columns first, then the sidecar's). A TOON form forced with
//! [`encode`] decodes just as exactly unless a top-level key reads back as a flattened path
//! (`metadata_x` with `flatten = ["metadata"]`): `FlatToon` and `Toon` write such a key as it
//! is, and it comes back nested. The `Json` form is plain JSON: read it with serde_json.
//!
//! # How [`choose`] decides
//!
//! The first rule that applies:
//!
//! 1. No records: `Toon` (`rows: []`).
//! 2. A record is not an object, or nests deeper than [`MAX_RECORD_DEPTH`]: `Json` (which
//!    then refuses the too-deep record, as every form does).
//! 3. The `flatten` paths lift a field out of some record, and after flattening every record
//!    has the same field names, all primitives, each reading back as its own path:
//!    `FlatToon`.
//! 4. The `flatten` paths lift nothing, and the records already make a TOON table (same
//!    keys, primitive values, nested objects no deeper than [`MAX_TABLE_DEPTH`], no arrays,
//!    no empty objects) whose keys all read back as themselves: `Toon`. Paths that do lift
//!    something are a request for flat columns, so `Toon` (which would ignore them) is not
//!    chosen then.
//! 5. At least one column is shared (a primitive in every record) and the table holds at
//!    least [`MIN_TABLE_SHARE_PERCENT`]% of all fields (each row's columns, against those
//!    plus its sidecar's top-level fields): `Hybrid`.
//! 6. Otherwise (heterogeneous records): `Json`.
//!
//! # Cost
//!
//! Records are written from the borrowed `Value`s: flattening, pruning and truncation are
//! views applied while writing, and the hybrid table goes through the streaming
//! [`Writer`](crate::toon::Writer). What is allocated is bookkeeping per record (its
//! flattened field list, the names of lifted fields) and the cut strings; values are never
//! copied.

mod decode;
mod error;
mod flat;
mod hybrid;
mod names;
mod options;
mod plain;
mod prune;
mod shape;
mod trie;
mod truncate;

use std::{fmt, io};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::toon::EncodeError;

pub use decode::decode_hybrid;
pub use error::{HybridError, RecordsError};
pub use options::RecordsOptions;
pub use truncate::truncate;

use names::Specs;
use prune::Columns;
use trie::PathTrie;
use truncate::Truncation;

/// The deepest records the `Toon` form is chosen for: a record of primitives has depth 1,
/// one with nested objects of primitives (written as column groups) depth 2. Deeper column
/// groups are hard to read, so such records go to `Hybrid` or `Json`.
pub const MAX_TABLE_DEPTH: usize = 2;

/// The share of fields, in percent, the hybrid table must hold for [`choose`] to pick
/// `Hybrid`: below it most of the data would sit in the sidecar, and plain JSON reads better.
pub const MIN_TABLE_SHARE_PERCENT: usize = 50;

/// The deepest nesting of arrays and objects a record may have (a flat record has depth 1).
/// The TOON forms add a root object and the rows array, so this keeps them within the TOON
/// encoder's [`MAX_DEPTH`](crate::toon::MAX_DEPTH).
pub const MAX_RECORD_DEPTH: usize = crate::toon::MAX_DEPTH - 2;

/// A layout for a list of records; see the [module docs](self) for each form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// The records as TOON: a table when they are uniform, a list otherwise.
    Toon,
    /// The records with the `flatten` paths lifted into columns, as TOON.
    FlatToon,
    /// A TOON table of the shared primitive columns plus a compact-JSON sidecar per row.
    Hybrid,
    /// A JSON array, one compact record per line.
    Json,
}

impl Form {
    /// The form's name: `toon`, `flat-toon`, `hybrid` or `json`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Form::Toon => "toon",
            Form::FlatToon => "flat-toon",
            Form::Hybrid => "hybrid",
            Form::Json => "json",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The options, checked and parsed once per document.
struct Ctx<'o> {
    opts: &'o RecordsOptions,
    specs: Specs,
    rules: Truncation,
}

impl<'o> Ctx<'o> {
    fn new(opts: &'o RecordsOptions) -> Result<Self, RecordsError> {
        opts.check()?;
        Ok(Ctx {
            opts,
            specs: Specs::new(&opts.flatten, &opts.separator)?,
            rules: Truncation::new(&opts.truncate, &opts.marker)?,
        })
    }
}

/// The records as objects, or the index of the first that is not one.
fn objects(records: &[Value]) -> Result<Vec<&Map<String, Value>>, usize> {
    records
        .iter()
        .enumerate()
        .map(|(index, record)| record.as_object().ok_or(index))
        .collect()
}

/// The form that suits `records` best, by the rules in the [module docs](self#how-choose-decides).
///
/// `opts.flatten` and `opts.separator` take part; `flatten` paths that [`encode`] would
/// refuse as invalid are treated as absent here.
pub fn choose(records: &[Value], opts: &RecordsOptions) -> Form {
    if records.is_empty() {
        return Form::Toon;
    }
    let Ok(objects) = objects(records) else {
        return Form::Json;
    };
    if records
        .iter()
        .any(|record| shape::deeper_than(record, MAX_RECORD_DEPTH))
    {
        return Form::Json;
    }
    let specs =
        Specs::new(&opts.flatten, &opts.separator).unwrap_or_else(|_| Specs::none(&opts.separator));
    let flat = shape::flat_shape(&objects, &specs);
    if flat.lifts && flat.uniform {
        return Form::FlatToon;
    }
    if !flat.lifts && shape::is_table(&objects) && shape::keys_read_back(&objects, &specs) {
        return Form::Toon;
    }
    let table = shape::columns(&objects, &specs);
    if table.is_empty() {
        return Form::Json;
    }
    let mut cut = PathTrie::new();
    for column in &table {
        cut.insert(column.path.iter().copied(), ());
    }
    let cells = table.len().saturating_mul(objects.len());
    let rest = shape::sidecar_fields(&objects, Columns(cut.root()));
    let total = cells.saturating_add(rest);
    if cells.saturating_mul(100) >= total.saturating_mul(MIN_TABLE_SHARE_PERCENT) {
        Form::Hybrid
    } else {
        Form::Json
    }
}

/// Encodes `records` in `form` as a `String`.
///
/// See [`encode_to_writer`] for the errors.
pub fn encode(
    records: &[Value],
    form: Form,
    opts: &RecordsOptions,
) -> Result<String, RecordsError> {
    let mut out = Vec::new();
    encode_to_writer(records, form, opts, &mut out)?;
    // Every byte comes from a `&str` or is ASCII.
    String::from_utf8(out)
        .map_err(|_| RecordsError::Encode(EncodeError::Internal("records output is not UTF-8")))
}

/// Encodes `records` in `form` into `out`.
///
/// Invalid options, records that are too deep, records that are not objects (for `FlatToon`
/// and `Hybrid`) and a `Hybrid` table without columns are refused before anything is
/// written; an I/O error may leave a partial document.
pub fn encode_to_writer<W: io::Write>(
    records: &[Value],
    form: Form,
    opts: &RecordsOptions,
    mut out: W,
) -> Result<(), RecordsError> {
    let ctx = Ctx::new(opts)?;
    if let Some(index) = records
        .iter()
        .position(|record| shape::deeper_than(record, MAX_RECORD_DEPTH))
    {
        return Err(RecordsError::TooDeep {
            index,
            limit: MAX_RECORD_DEPTH,
        });
    }
    let as_objects = || objects(records).map_err(|index| RecordsError::NotAnObject { index });
    match form {
        Form::Toon => plain::write_toon(records, &ctx, &mut out),
        Form::FlatToon => plain::write_flat(&as_objects()?, &ctx, &mut out),
        Form::Hybrid => hybrid::write(&as_objects()?, &ctx, &mut out),
        Form::Json => plain::write_json(records, &ctx, &mut out),
    }
}

/// Encodes `records` in the form [`choose`] picks for them, and says which.
///
/// ```
/// use serde_json::json;
/// use tsgraph_encoders::toon::records::{Form, RecordsOptions, decode_hybrid, encode_auto};
///
/// let chunks = [
///     json!({"path": "a.md", "content": "Intro text",
///            "metadata": {"source": "web", "tags": ["x", "y"], "score": {"bm25": 1.5}}}),
///     json!({"path": "b.md", "content": "Second, chunk", "metadata": {"source": "pdf"}}),
///     json!({"path": "c.md", "content": "Third", "metadata": {"source": "web", "author": "Ada"}}),
/// ];
/// let opts = RecordsOptions::default().flattening("metadata");
/// let (form, text) = encode_auto(&chunks, &opts)?;
/// assert_eq!(form, Form::Hybrid);
/// assert_eq!(
///     text,
///     "rows[3]{path,content,metadata_source}:\n  \
///        a.md,Intro text,web\n  \
///        b.md,\"Second, chunk\",pdf\n  \
///        c.md,Third,web\n\
///      metadata:\n  \
///        0: {\"metadata\":{\"tags\":[\"x\",\"y\"],\"score\":{\"bm25\":1.5}}}\n  \
///        2: {\"metadata\":{\"author\":\"Ada\"}}"
/// );
/// assert_eq!(decode_hybrid(&text, &opts)?, chunks);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_auto(
    records: &[Value],
    opts: &RecordsOptions,
) -> Result<(Form, String), RecordsError> {
    let form = choose(records, opts);
    Ok((form, encode(records, form, opts)?))
}

/// [`encode_auto`] into a writer; returns the form it wrote.
pub fn encode_auto_to_writer<W: io::Write>(
    records: &[Value],
    opts: &RecordsOptions,
    out: W,
) -> Result<Form, RecordsError> {
    let form = choose(records, opts);
    encode_to_writer(records, form, opts, out)?;
    Ok(form)
}

/// Converts any serializable items into records (JSON values), for the functions of this
/// module. This copies the data once; records already held as `Value`s need no conversion.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Chunk<'a> {
///     path: &'a str,
///     content: &'a str,
/// }
///
/// let records = tsgraph_encoders::toon::records::to_records(&[Chunk { path: "a.md", content: "Intro" }])?;
/// assert_eq!(records, [serde_json::json!({"path": "a.md", "content": "Intro"})]);
/// # Ok::<(), tsgraph_encoders::toon::records::RecordsError>(())
/// ```
pub fn to_records<T: Serialize>(items: &[T]) -> Result<Vec<Value>, RecordsError> {
    Ok(items
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<_, _>>()?)
}
