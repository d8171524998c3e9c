//! A streaming TOON writer: call by call, straight into an `io::Write`, no serde and no value
//! tree. The serde encoder drives it too, so quoting, indentation and headers live here once.
//!
//! The writer is a small state machine over a stack of open containers. Every call writes its
//! bytes immediately into an internal buffer (flushed to the sink in ~8 KiB chunks), so a row
//! of cells costs no allocation; numbers are formatted on the stack.

use std::{io, mem};

use super::{Delimiter, EncodeError, Options, number, quote};

/// A primitive value for the [`Writer`].
///
/// Conversions exist from `bool`, the integer types, `f32`, `f64`, `&str`, `&String`, `()`
/// (null) and `Option<T>` (`None` is null), so the writer's methods take `impl Into<Scalar>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A signed integer, written exactly.
    I64(i64),
    /// An unsigned integer, written exactly.
    U64(u64),
    /// A double: shortest round-trip digits, `null` when not finite.
    F64(f64),
    /// A single-precision float: shortest digits that round-trip as `f32`.
    F32(f32),
    /// A string, quoted and escaped when TOON requires it.
    Str(&'a str),
}

macro_rules! scalar_from {
    ($($t:ty => $variant:ident as $as:ty),* $(,)?) => {
        $(impl From<$t> for Scalar<'_> {
            fn from(v: $t) -> Self {
                Scalar::$variant(<$as>::from(v))
            }
        })*
    };
}

scalar_from!(
    bool => Bool as bool,
    i8 => I64 as i64, i16 => I64 as i64, i32 => I64 as i64, i64 => I64 as i64,
    u8 => U64 as u64, u16 => U64 as u64, u32 => U64 as u64, u64 => U64 as u64,
    f32 => F32 as f32, f64 => F64 as f64,
);

impl From<isize> for Scalar<'_> {
    fn from(v: isize) -> Self {
        // isize is at most 64 bits on every supported target.
        Scalar::I64(v as i64)
    }
}

impl From<usize> for Scalar<'_> {
    fn from(v: usize) -> Self {
        Scalar::U64(v as u64)
    }
}

impl<'a> From<&'a str> for Scalar<'a> {
    fn from(v: &'a str) -> Self {
        Scalar::Str(v)
    }
}

impl<'a> From<&'a String> for Scalar<'a> {
    fn from(v: &'a String) -> Self {
        Scalar::Str(v)
    }
}

impl From<()> for Scalar<'_> {
    fn from((): ()) -> Self {
        Scalar::Null
    }
}

impl<'a, T: Into<Scalar<'a>>> From<Option<T>> for Scalar<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Scalar::Null, Into::into)
    }
}

/// A primitive as the encoder sees it: [`Scalar`] plus forms only the tape produces (UTF-8
/// bytes, and integers beyond 64 bits already printed).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Atom<'a> {
    Null,
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
    F32(f32),
    /// Canonical number text, written as is.
    Num(&'a [u8]),
    /// UTF-8 string bytes.
    Str(&'a [u8]),
    /// A string cell as [`Writer::encode_str_cell`] made it, written as is.
    Encoded(&'a [u8]),
}

impl<'a> From<Scalar<'a>> for Atom<'a> {
    #[inline]
    fn from(v: Scalar<'a>) -> Self {
        match v {
            Scalar::Null => Atom::Null,
            Scalar::Bool(b) => Atom::Bool(b),
            Scalar::I64(n) => Atom::I64(n),
            Scalar::U64(n) => Atom::U64(n),
            Scalar::F64(n) => Atom::F64(n),
            Scalar::F32(n) => Atom::F32(n),
            Scalar::Str(s) => Atom::Str(s.as_bytes()),
        }
    }
}

/// Buffered bytes past which the writer hands them to the sink (checked at line starts).
pub(crate) const FLUSH_AT: usize = 8 * 1024;

const SPACES: [u8; 64] = [b' '; 64];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The document before (and after) its root value.
    Root,
    /// Fields `key: value`.
    Object,
    /// `- item` lines.
    List,
    /// Values on the header line.
    Inline,
    /// Column names between `{` and `}:`.
    Header,
    /// Rows of cells.
    Table,
    /// Rows `key: cells`.
    Keyed,
}

impl Kind {
    fn counted(self) -> &'static str {
        match self {
            Kind::List => "list items",
            Kind::Inline => "inline values",
            Kind::Table => "table rows",
            Kind::Keyed => "keyed rows",
            Kind::Root | Kind::Object | Kind::Header => "entries",
        }
    }
}

/// One open container.
#[derive(Debug, Clone, Copy)]
struct Frame {
    kind: Kind,
    /// Depth of this container's child lines (fields, items, rows).
    depth: usize,
    /// Declared length (arrays and tables).
    declared: usize,
    /// Items, values or rows written so far; for `Root`, 1 once the root value has begun.
    written: usize,
    /// Tables: leaf columns, i.e. cells per row.
    width: usize,
    /// A list-item object whose first line is still to come: the hyphen's depth.
    hyphen: Option<usize>,
    /// A header that becomes a keyed table.
    keyed: bool,
    /// An empty table: its column names are accepted but not printed (`key: []` already is).
    quiet: bool,
}

impl Frame {
    fn new(kind: Kind, depth: usize) -> Self {
        Frame {
            kind,
            depth,
            declared: 0,
            written: 0,
            width: 0,
            hyphen: None,
            keyed: false,
            quiet: false,
        }
    }
}

/// Builds a misuse error; out of line so hot callers stay small.
#[cold]
#[inline(never)]
fn misuse(what: &'static str) -> EncodeError {
    EncodeError::Misuse(what)
}

/// Builds a count error; out of line so hot callers stay small.
#[cold]
#[inline(never)]
fn count_mismatch(what: &'static str, declared: usize, written: usize) -> EncodeError {
    EncodeError::CountMismatch {
        what,
        declared,
        written,
    }
}

/// Where the next value goes.
enum Slot {
    /// After `key` on a field line at this depth.
    AfterKey(usize),
    /// A list item whose hyphen is at this depth.
    Item(usize),
    /// The document's root.
    Root,
}

/// Writes a TOON document call by call.
///
/// The document starts as an implicit root object: [`key`](Self::key) /
/// [`field`](Self::field) add fields. Alternatively the first call may write a root primitive
/// ([`value`](Self::value)) or a key-less root array (`begin_*`). Containers are opened after
/// a key (in an object), as list items (in a list) or at the root, and closed with
/// [`end`](Self::end). Arrays declare their length up front, as TOON headers do; a length of
/// zero writes the canonical empty form (`key: []`, `[]` at the root, `- [0]:` as a list item)
/// and then accepts no entries. Cells of a row must match the header's columns.
///
/// Output goes through an internal buffer: call [`finish`](Self::finish) to close the open
/// containers and hand the remaining bytes to the sink (dropping the writer loses them).
/// Calls in an order that would make invalid TOON return [`EncodeError::Misuse`] or
/// [`EncodeError::CountMismatch`]; after any error the output is incomplete.
///
/// # Example
///
/// ```
/// use tsgraph_encoders::toon::{Options, Writer};
///
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out, Options::default());
/// w.field("query", "callers of parse")?;
/// w.key("meta")?;
/// w.begin_object()?;
/// w.field("truncated", false)?;
/// w.field("elapsed_ms", 1.5)?;
/// w.end()?;
/// w.key("nodes")?;
/// w.begin_table(2, &["id", "kind", "lines", "name"])?;
/// for (id, kind, lines, name) in [(1, "function", 12, "parse"), (2, "method", 3, "a, b")] {
///     w.row_begin()?;
///     w.cell_u64(id)?;
///     w.cell_str(kind)?;
///     w.cell_u64(lines)?;
///     w.cell_str(name)?;
///     w.row_end()?;
/// }
/// w.end()?;
/// w.key("tags")?;
/// w.begin_inline(2)?;
/// w.value("x")?;
/// w.value("y")?;
/// w.end()?;
/// w.finish()?;
///
/// assert_eq!(
///     String::from_utf8(out)?,
///     "query: callers of parse\n\
///      meta:\n  truncated: false\n  elapsed_ms: 1.5\n\
///      nodes[2]{id,kind,lines,name}:\n  1,function,12,parse\n  2,method,3,\"a, b\"\n\
///      tags[2]: x,y"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "a Writer buffers output: call finish() to write it"]
pub struct Writer<W: io::Write> {
    sink: W,
    buf: Vec<u8>,
    flush_at: usize,
    delim: Delimiter,
    indent: usize,
    cur: Frame,
    stack: Vec<Frame>,
    /// A line has been written, so the next one starts with a newline.
    started: bool,
    /// A key has been written and waits for its value (or, in a keyed table, its row).
    key_open: bool,
    row_open: bool,
    cells: usize,
    /// In a header: the current group already has a column, so the next needs a delimiter.
    header_sep: bool,
    header_groups: usize,
}

impl<W: io::Write> Writer<W> {
    /// A writer of one document into `sink`.
    pub fn new(sink: W, opts: Options) -> Self {
        Self::with_buffer(sink, opts, Vec::with_capacity(FLUSH_AT + 256), FLUSH_AT)
    }

    /// A writer that appends to `buf` and hands bytes to `sink` only once `flush_at` of them
    /// have accumulated (`usize::MAX`: never; the caller takes `buf` back).
    pub(crate) fn with_buffer(sink: W, opts: Options, buf: Vec<u8>, flush_at: usize) -> Self {
        Writer {
            sink,
            buf,
            flush_at,
            delim: opts.delimiter,
            indent: opts.indent,
            cur: Frame::new(Kind::Root, 0),
            stack: Vec::new(),
            started: false,
            key_open: false,
            row_open: false,
            cells: 0,
            header_sep: false,
            header_groups: 0,
        }
    }

    // ---- objects ------------------------------------------------------------------------

    /// Writes a key: in an object, the start of a field whose value comes next (a
    /// [`value`](Self::value) or a `begin_*`); in a keyed table, the entry key of the next row
    /// (then [`row_begin`](Self::row_begin)). At the start of the document it opens the
    /// implicit root object.
    pub fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        self.key_bytes(key.as_bytes())
    }

    /// `key: value` in the current object.
    pub fn field<'a>(
        &mut self,
        key: &str,
        value: impl Into<Scalar<'a>>,
    ) -> Result<(), EncodeError> {
        self.key_bytes(key.as_bytes())?;
        self.atom(value.into().into())
    }

    pub(crate) fn key_bytes(&mut self, key: &[u8]) -> Result<(), EncodeError> {
        if self.key_open {
            return Err(misuse("a key was written without a value"));
        }
        match self.cur.kind {
            Kind::Object => match self.cur.hyphen.take() {
                Some(hyphen) => {
                    self.start_line(hyphen)?;
                    self.buf.extend_from_slice(b"- ");
                }
                None => self.start_line(self.cur.depth)?,
            },
            Kind::Root if self.cur.written == 0 => {
                self.cur.written = 1;
                self.push(Frame::new(Kind::Object, 0));
                self.start_line(0)?;
            }
            Kind::Keyed => {
                if self.row_open {
                    return Err(misuse("the previous row was not ended"));
                }
                self.check_room()?;
                self.start_line(self.cur.depth)?;
            }
            _ => {
                return Err(misuse("a key needs an object or a keyed table"));
            }
        }
        quote::write_key(&mut self.buf, key);
        self.key_open = true;
        Ok(())
    }

    /// Opens an object: after a key (`key:`, fields one level deeper), as a list item (first
    /// field on the hyphen line, a bare `-` if it stays empty) or as the root object.
    pub fn begin_object(&mut self) -> Result<(), EncodeError> {
        let frame = match self.slot()? {
            Slot::AfterKey(depth) => {
                self.buf.push(b':');
                Frame::new(Kind::Object, depth + 1)
            }
            Slot::Item(hyphen) => Frame {
                hyphen: Some(hyphen),
                ..Frame::new(Kind::Object, hyphen + 1)
            },
            Slot::Root => Frame::new(Kind::Object, 0),
        };
        self.push(frame);
        Ok(())
    }

    // ---- primitives -----------------------------------------------------------------------

    /// Writes a primitive where the document is: a field's value after [`key`](Self::key), a
    /// list item (`- v`), the next value of an inline array, a cell of an open row, or the
    /// root primitive.
    pub fn value<'a>(&mut self, value: impl Into<Scalar<'a>>) -> Result<(), EncodeError> {
        self.atom(value.into().into())
    }

    pub(crate) fn atom(&mut self, atom: Atom<'_>) -> Result<(), EncodeError> {
        match self.cur.kind {
            Kind::Table | Kind::Keyed => self.cell_atom(atom),
            Kind::Inline => {
                self.check_room()?;
                if self.cur.written > 0 {
                    self.buf.push(self.delim.as_byte());
                }
                self.cur.written += 1;
                self.write_atom(atom);
                self.maybe_flush()
            }
            _ => {
                match self.slot()? {
                    Slot::AfterKey(_) => self.buf.extend_from_slice(b": "),
                    Slot::Item(hyphen) => {
                        self.start_line(hyphen)?;
                        self.buf.extend_from_slice(b"- ");
                    }
                    Slot::Root => self.start_line(0)?,
                }
                self.write_atom(atom);
                Ok(())
            }
        }
    }

    // ---- arrays -----------------------------------------------------------------------------

    /// Opens an array of `len` primitives written on the header line (`key[N]: a,b,c`); add
    /// them with [`value`](Self::value).
    pub fn begin_inline(&mut self, len: usize) -> Result<(), EncodeError> {
        self.open_array(len, Kind::Inline, false)
    }

    /// Opens an expanded array of `len` items (`key[N]:` then `- …` lines); add primitives
    /// with [`value`](Self::value) and containers with the `begin_*` methods.
    pub fn begin_list(&mut self, len: usize) -> Result<(), EncodeError> {
        self.open_array(len, Kind::List, false)
    }

    /// Opens a table of `len` rows with flat columns (`key[N]{a,b}:`). Tables (plain or keyed)
    /// are allowed after a key and at the root, not directly as list items (a list item can
    /// be an object whose first field is a table).
    pub fn begin_table(&mut self, len: usize, fields: &[&str]) -> Result<(), EncodeError> {
        self.begin_table_header(len)?;
        for field in fields {
            self.column(field)?;
        }
        self.end_header()
    }

    /// Opens a keyed table of `len` entries (`key[N:]{a,b}:`, rows `entry: a,b`); each row is
    /// [`key`](Self::key), [`row_begin`](Self::row_begin), cells, [`row_end`](Self::row_end).
    pub fn begin_keyed_table(&mut self, len: usize, fields: &[&str]) -> Result<(), EncodeError> {
        self.begin_keyed_table_header(len)?;
        for field in fields {
            self.column(field)?;
        }
        self.end_header()
    }

    /// Starts a table header whose columns are then given one by one with
    /// [`column`](Self::column) and, for nested groups such as `customer{name,country}`,
    /// [`begin_group`](Self::begin_group) / [`end_group`](Self::end_group); finish it with
    /// [`end_header`](Self::end_header). Rows have one cell per leaf column, depth first.
    pub fn begin_table_header(&mut self, len: usize) -> Result<(), EncodeError> {
        self.open_array(len, Kind::Header, false)
    }

    /// Like [`begin_table_header`](Self::begin_table_header) for a keyed table (`[N:]`).
    pub fn begin_keyed_table_header(&mut self, len: usize) -> Result<(), EncodeError> {
        self.open_array(len, Kind::Header, true)
    }

    /// Adds a leaf column to the header being written.
    pub fn column(&mut self, name: &str) -> Result<(), EncodeError> {
        self.column_bytes(name.as_bytes())
    }

    pub(crate) fn column_bytes(&mut self, name: &[u8]) -> Result<(), EncodeError> {
        self.header_name(name)?;
        self.cur.width += 1;
        Ok(())
    }

    /// Opens a nested column group `name{…}` in the header being written.
    pub fn begin_group(&mut self, name: &str) -> Result<(), EncodeError> {
        self.begin_group_bytes(name.as_bytes())
    }

    pub(crate) fn begin_group_bytes(&mut self, name: &[u8]) -> Result<(), EncodeError> {
        self.header_name(name)?;
        if !self.cur.quiet {
            self.buf.push(b'{');
        }
        self.header_sep = false;
        self.header_groups += 1;
        Ok(())
    }

    /// Closes the innermost column group.
    pub fn end_group(&mut self) -> Result<(), EncodeError> {
        if self.cur.kind != Kind::Header || self.header_groups == 0 {
            return Err(misuse("no column group to end"));
        }
        if !self.header_sep {
            return Err(misuse("a column group needs at least one column"));
        }
        if !self.cur.quiet {
            self.buf.push(b'}');
        }
        self.header_groups -= 1;
        Ok(())
    }

    /// Finishes the header (`}:`); rows follow.
    pub fn end_header(&mut self) -> Result<(), EncodeError> {
        if self.cur.kind != Kind::Header {
            return Err(misuse("no table header to end"));
        }
        if self.header_groups != 0 {
            return Err(misuse("a column group was not ended"));
        }
        if self.cur.width == 0 {
            return Err(misuse("a table needs at least one column"));
        }
        if !self.cur.quiet {
            self.buf.extend_from_slice(b"}:");
        }
        self.cur.kind = if self.cur.keyed {
            Kind::Keyed
        } else {
            Kind::Table
        };
        Ok(())
    }

    // ---- rows -------------------------------------------------------------------------------

    /// Starts the next row of the current table (in a keyed table, after its entry key).
    pub fn row_begin(&mut self) -> Result<(), EncodeError> {
        if self.row_open {
            return Err(misuse("the previous row was not ended"));
        }
        match self.cur.kind {
            Kind::Table => {
                self.check_room()?;
                self.start_line(self.cur.depth)?;
            }
            Kind::Keyed if self.key_open => {
                self.key_open = false;
                self.buf.extend_from_slice(b": ");
            }
            Kind::Keyed => return Err(misuse("a keyed row needs its key first")),
            _ => return Err(misuse("rows belong to a table")),
        }
        self.row_open = true;
        self.cells = 0;
        Ok(())
    }

    /// Ends the current row; it must have one cell per leaf column.
    pub fn row_end(&mut self) -> Result<(), EncodeError> {
        if !self.row_open {
            return Err(misuse("no row to end"));
        }
        if self.cells != self.cur.width {
            return Err(count_mismatch("row cells", self.cur.width, self.cells));
        }
        self.row_open = false;
        self.cur.written += 1;
        Ok(())
    }

    /// Writes the next cell of the open row.
    pub fn cell<'a>(&mut self, value: impl Into<Scalar<'a>>) -> Result<(), EncodeError> {
        self.cell_atom(value.into().into())
    }

    /// Writes a string cell.
    pub fn cell_str(&mut self, value: &str) -> Result<(), EncodeError> {
        self.cell_atom(Atom::Str(value.as_bytes()))
    }

    /// Appends `value` to `out` as [`cell_str`](Self::cell_str) would write it (quoted
    /// and escaped as this writer's delimiter needs), for a caller that writes the same
    /// string in many rows and keeps the result ([`cell_encoded`](Self::cell_encoded)).
    pub fn encode_str_cell(&self, value: &str, out: &mut Vec<u8>) {
        quote::write_value(out, value.as_bytes(), self.delim);
    }

    /// Writes a string cell that [`encode_str_cell`](Self::encode_str_cell) made for this
    /// writer, copying its bytes.
    pub fn cell_encoded(&mut self, cell: &[u8]) -> Result<(), EncodeError> {
        self.cell_atom(Atom::Encoded(cell))
    }

    /// Writes a signed integer cell.
    pub fn cell_i64(&mut self, value: i64) -> Result<(), EncodeError> {
        self.cell_atom(Atom::I64(value))
    }

    /// Writes an unsigned integer cell.
    pub fn cell_u64(&mut self, value: u64) -> Result<(), EncodeError> {
        self.cell_atom(Atom::U64(value))
    }

    /// Writes a float cell (`null` when not finite).
    pub fn cell_f64(&mut self, value: f64) -> Result<(), EncodeError> {
        self.cell_atom(Atom::F64(value))
    }

    /// Writes a boolean cell.
    pub fn cell_bool(&mut self, value: bool) -> Result<(), EncodeError> {
        self.cell_atom(Atom::Bool(value))
    }

    /// Writes a `null` cell.
    pub fn cell_null(&mut self) -> Result<(), EncodeError> {
        self.cell_atom(Atom::Null)
    }

    /// [`cell_atom`](Self::cell_atom) without its state checks, for rows the serde encoder
    /// has already matched to the header (after [`row_begin`](Self::row_begin));
    /// [`row_end`](Self::row_end) still checks the cell count.
    #[inline]
    pub(crate) fn cell_verified(&mut self, atom: Atom<'_>) {
        if self.cells > 0 {
            self.buf.push(self.delim.as_byte());
        }
        self.cells += 1;
        self.write_atom(atom);
    }

    #[inline]
    pub(crate) fn cell_atom(&mut self, atom: Atom<'_>) -> Result<(), EncodeError> {
        if !self.row_open {
            return Err(misuse("a cell needs an open row"));
        }
        if self.cells == self.cur.width {
            return Err(count_mismatch("row cells", self.cur.width, self.cells + 1));
        }
        if self.cells > 0 {
            self.buf.push(self.delim.as_byte());
        }
        self.cells += 1;
        self.write_atom(atom);
        Ok(())
    }

    // ---- closing ----------------------------------------------------------------------------

    /// Closes the innermost open object, array or table, checking its declared length.
    pub fn end(&mut self) -> Result<(), EncodeError> {
        if self.key_open {
            return Err(misuse("a key was written without a value"));
        }
        if self.row_open {
            return Err(misuse("the last row was not ended"));
        }
        match self.cur.kind {
            Kind::Root => return Err(misuse("nothing to end")),
            Kind::Header => return Err(misuse("the table header was not ended")),
            Kind::Object => {
                if let Some(hyphen) = self.cur.hyphen {
                    // An empty object as a list item is a bare hyphen.
                    self.start_line(hyphen)?;
                    self.buf.push(b'-');
                }
            }
            Kind::List | Kind::Inline | Kind::Table | Kind::Keyed => {
                if self.cur.written != self.cur.declared {
                    return Err(count_mismatch(
                        self.cur.kind.counted(),
                        self.cur.declared,
                        self.cur.written,
                    ));
                }
            }
        }
        if let Some(parent) = self.stack.pop() {
            self.cur = parent;
        }
        Ok(())
    }

    /// Closes every open container, writes the buffered bytes, flushes the sink and returns
    /// it.
    pub fn finish(mut self) -> Result<W, EncodeError> {
        self.close_all()?;
        self.flush_buf()?;
        self.sink.flush()?;
        Ok(self.sink)
    }

    /// [`finish`](Self::finish) for a writer whose buffer the caller reuses: returns the
    /// emptied buffer instead of the sink.
    pub(crate) fn finish_keep_buffer(mut self) -> Result<Vec<u8>, EncodeError> {
        self.close_all()?;
        self.flush_buf()?;
        self.sink.flush()?;
        Ok(self.buf)
    }

    pub(crate) fn close_all(&mut self) -> Result<(), EncodeError> {
        while self.cur.kind != Kind::Root {
            self.end()?;
        }
        Ok(())
    }

    /// The internal buffer, for writers made with `usize::MAX` as `flush_at`.
    pub(crate) fn take_buffer(&mut self) -> Vec<u8> {
        mem::take(&mut self.buf)
    }

    // ---- internals --------------------------------------------------------------------------

    fn push(&mut self, frame: Frame) {
        self.stack.push(mem::replace(&mut self.cur, frame));
    }

    /// Claims the position for the next value, counting list items.
    fn slot(&mut self) -> Result<Slot, EncodeError> {
        match self.cur.kind {
            Kind::Object if self.key_open => {
                self.key_open = false;
                Ok(Slot::AfterKey(self.cur.depth))
            }
            Kind::Object => Err(misuse("a value in an object needs a key first")),
            Kind::List => {
                self.check_room()?;
                self.cur.written += 1;
                Ok(Slot::Item(self.cur.depth))
            }
            Kind::Root if self.cur.written == 0 => {
                self.cur.written = 1;
                Ok(Slot::Root)
            }
            Kind::Root => Err(misuse("the document already has its root value")),
            Kind::Inline | Kind::Header | Kind::Table | Kind::Keyed => {
                Err(misuse("only primitives are allowed here"))
            }
        }
    }

    /// Errors when the current array already has its declared number of entries.
    fn check_room(&self) -> Result<(), EncodeError> {
        if self.cur.written >= self.cur.declared {
            return Err(count_mismatch(
                self.cur.kind.counted(),
                self.cur.declared,
                self.cur.written + 1,
            ));
        }
        Ok(())
    }

    fn open_array(&mut self, len: usize, kind: Kind, keyed: bool) -> Result<(), EncodeError> {
        if kind == Kind::Header && self.cur.kind == Kind::List {
            // A key-less table header is valid only at the root; decoders reject `- [N]{…}:`.
            return Err(misuse("a list item cannot be a table"));
        }
        let depth = match self.slot()? {
            Slot::AfterKey(depth) => {
                if len == 0 {
                    self.buf.extend_from_slice(b": []");
                }
                depth + 1
            }
            Slot::Item(hyphen) => {
                self.start_line(hyphen)?;
                self.buf.extend_from_slice(b"- ");
                if len == 0 {
                    self.bracket(0, false);
                    self.buf.push(b':');
                }
                hyphen + 1
            }
            Slot::Root => {
                self.start_line(0)?;
                if len == 0 {
                    self.buf.extend_from_slice(b"[]");
                }
                1
            }
        };
        if len > 0 {
            self.bracket(len, keyed);
            match kind {
                Kind::Inline => self.buf.extend_from_slice(b": "),
                Kind::Header => self.buf.push(b'{'),
                _ => self.buf.push(b':'),
            }
        }
        if kind == Kind::Header {
            self.header_sep = false;
            self.header_groups = 0;
        }
        self.push(Frame {
            declared: len,
            keyed,
            quiet: len == 0,
            ..Frame::new(kind, depth)
        });
        Ok(())
    }

    /// `[N]`, `[N|]`, `[N:]`, `[N:\t]`, ...
    fn bracket(&mut self, len: usize, keyed: bool) {
        self.buf.push(b'[');
        number::write_int(&mut self.buf, len as u64);
        if keyed {
            self.buf.push(b':');
        }
        match self.delim {
            Delimiter::Comma => {}
            Delimiter::Tab => self.buf.push(b'\t'),
            Delimiter::Pipe => self.buf.push(b'|'),
        }
        self.buf.push(b']');
    }

    fn header_name(&mut self, name: &[u8]) -> Result<(), EncodeError> {
        if self.cur.kind != Kind::Header {
            return Err(misuse("columns belong in a table header"));
        }
        if !self.cur.quiet {
            if self.header_sep {
                self.buf.push(self.delim.as_byte());
            }
            quote::write_key(&mut self.buf, name);
        }
        self.header_sep = true;
        Ok(())
    }

    /// Ends the previous line (if any) and indents the next one.
    fn start_line(&mut self, depth: usize) -> Result<(), EncodeError> {
        if self.started {
            self.buf.push(b'\n');
            self.maybe_flush()?;
        } else {
            if self.indent == 0 {
                return Err(EncodeError::InvalidOptions("indent must be at least 1"));
            }
            self.started = true;
        }
        let mut spaces = depth.saturating_mul(self.indent);
        while spaces > 0 {
            let chunk = spaces.min(SPACES.len());
            self.buf
                .extend_from_slice(SPACES.get(..chunk).unwrap_or_default());
            spaces -= chunk;
        }
        Ok(())
    }

    #[inline]
    fn maybe_flush(&mut self) -> Result<(), EncodeError> {
        if self.buf.len() >= self.flush_at {
            self.flush_buf()?;
        }
        Ok(())
    }

    fn flush_buf(&mut self) -> Result<(), EncodeError> {
        if !self.buf.is_empty() {
            self.sink.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    #[inline]
    fn write_atom(&mut self, atom: Atom<'_>) {
        let buf = &mut self.buf;
        match atom {
            Atom::Null => buf.extend_from_slice(b"null"),
            Atom::Bool(true) => buf.extend_from_slice(b"true"),
            Atom::Bool(false) => buf.extend_from_slice(b"false"),
            Atom::I64(v) => number::write_int(buf, v),
            Atom::U64(v) => number::write_int(buf, v),
            Atom::F64(v) => number::write_f64(buf, v),
            Atom::F32(v) => number::write_f32(buf, v),
            Atom::Num(text) => buf.extend_from_slice(text),
            Atom::Str(s) => quote::write_value(buf, s, self.delim),
            Atom::Encoded(cell) => buf.extend_from_slice(cell),
        }
    }
}
