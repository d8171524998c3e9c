//! Errors of the TOON decoder: what went wrong and where (1-based line and column).

use thiserror::Error;

/// A decoding failure and its position in the input.
///
/// The `Display` form is `line:column: message`, e.g. `3:5: expected 2 rows, found 3`. Lines and
/// columns are 1-based; columns count characters, not bytes. Errors that concern the whole
/// document rather than a place in it (invalid options, a type mismatch in
/// [`from_str`](super::from_str)) have no position and display only the message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}{kind}", position_prefix(.line, .column))]
#[non_exhaustive]
pub struct DecodeError {
    line: usize,
    column: usize,
    kind: ErrorKind,
}

impl DecodeError {
    /// An error at 1-based `line` and `column`.
    pub(super) fn at(line: usize, column: usize, kind: ErrorKind) -> Self {
        DecodeError { line, column, kind }
    }

    /// An error about the whole document.
    pub(super) fn unpositioned(kind: ErrorKind) -> Self {
        DecodeError {
            line: 0,
            column: 0,
            kind,
        }
    }

    /// The 1-based line, or `None` for an error about the whole document.
    pub fn line(&self) -> Option<usize> {
        (self.line > 0).then_some(self.line)
    }

    /// The 1-based column (in characters), or `None` for an error about the whole document.
    pub fn column(&self) -> Option<usize> {
        (self.line > 0).then_some(self.column)
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

fn position_prefix(line: &usize, column: &usize) -> String {
    if *line == 0 {
        String::new()
    } else {
        format!("{line}:{column}: ")
    }
}

/// The kinds of decoding failure.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input bytes are not UTF-8.
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// The options cannot be used, e.g. an indent of zero.
    #[error("invalid options: {0}")]
    InvalidOptions(&'static str),
    /// Leading spaces are not a multiple of the indent size (strict mode).
    #[error("indentation of {spaces} spaces is not a multiple of {indent}")]
    IndentNotMultiple {
        /// Leading spaces on the line.
        spaces: usize,
        /// The indent size in force.
        indent: usize,
    },
    /// A tab character in the indentation.
    #[error("tab character in indentation")]
    TabIndent,
    /// A line deeper than its context allows (a depth jump, or children under a primitive).
    #[error("unexpected indentation")]
    UnexpectedIndent,
    /// Nesting beyond [`MAX_DEPTH`](super::MAX_DEPTH) levels.
    #[error("nesting deeper than {limit} levels")]
    TooDeep {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// A key (or a line in key position) without its colon.
    #[error("expected ':' after key")]
    MissingColon,
    /// An unquoted key that is empty, as in `: value`.
    #[error("empty key")]
    EmptyKey,
    /// A quoted string without its closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// A backslash escape other than `\\ \" \n \r \t \uXXXX`.
    #[error("invalid escape sequence {0}")]
    InvalidEscape(String),
    /// A `\u` escape naming half of a surrogate pair without the other half.
    #[error("unpaired surrogate in \\u escape")]
    LoneSurrogate,
    /// Characters after the closing quote of a quoted token.
    #[error("unexpected characters after closing quote")]
    TrailingAfterQuote,
    /// An array header that does not follow the grammar.
    #[error("malformed array header: {0}")]
    MalformedHeader(&'static str),
    /// An array, table or keyed object with a different number of items than declared.
    #[error("expected {expected} {what}, found {found}")]
    CountMismatch {
        /// What was counted: `values`, `list items`, `rows` or `entries`.
        what: &'static str,
        /// The length the header declared.
        expected: usize,
        /// The number present.
        found: usize,
    },
    /// A row whose cell count differs from the header's (leaf) field count.
    #[error("expected {expected} cells in row, found {found}")]
    WidthMismatch {
        /// The header's leaf-field count.
        expected: usize,
        /// The cells in the row.
        found: usize,
    },
    /// A key repeated in one object or keyed table (strict mode).
    #[error("duplicate key {0:?}")]
    DuplicateKey(String),
    /// A field name repeated at one brace level of a header (strict mode).
    #[error("duplicate field name {0:?}")]
    DuplicateField(String),
    /// A blank line between the items of an array (strict mode).
    #[error("blank line inside an array")]
    BlankLineInArray,
    /// A `- ` list item where an object field was expected.
    #[error("list item where an object field was expected")]
    UnexpectedListItem,
    /// A line under a list header that is not a `- ` item.
    #[error("expected a list item")]
    ExpectedListItem,
    /// An array header without a key where only keyed headers are allowed.
    #[error("array header without a key is only allowed at the root or as a list item")]
    KeylessHeader,
    /// A list item holding a keyless header with fields (`- [2]{a}:`, `- [2:]{a}:`).
    #[error("a tabular or keyed header in a list item needs a key")]
    KeylessTableItem,
    /// Values on the line of a tabular or keyed header.
    #[error("unexpected values after a tabular header")]
    InlineAfterTabular,
    /// Lines after a root array, a keyed root or a root primitive.
    #[error("unexpected content after the root value")]
    TrailingContent,
    /// A keyed-table entry row with nothing after its key.
    #[error("entry row has no cells after its key")]
    MissingCells,
    /// The decoded value does not fit the requested type (from [`from_str`](super::from_str)).
    #[error("{0}")]
    Deserialize(String),
}

/// An error located by byte offset within one line's text (after its indentation); the parser
/// turns it into a [`DecodeError`] with line and column.
#[derive(Debug)]
pub(super) struct Fault {
    /// Byte offset in the line's text.
    pub(super) at: usize,
    /// What went wrong.
    pub(super) kind: ErrorKind,
}

impl Fault {
    pub(super) fn new(at: usize, kind: ErrorKind) -> Self {
        Fault { at, kind }
    }
}
