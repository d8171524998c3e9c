//! The error type of the TOON encoder and of the streaming [`Writer`](super::Writer).

use std::{fmt, io};

/// Why encoding TOON failed.
///
/// Serialization errors (`NonStringKey`, `Custom`, `DepthLimit`) are detected before anything
/// is written. `Misuse` and `CountMismatch` come from driving a [`Writer`](super::Writer) in
/// an order that would produce invalid TOON; after any error the writer's output is incomplete
/// and should be discarded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The sink failed.
    #[error("I/O error while writing TOON")]
    Io(#[from] io::Error),
    /// A map key that cannot be turned into a string. Strings, chars, integers, bools and unit
    /// enum variants are accepted (integers and bools are written as their text); the payload
    /// names what was found instead.
    #[error("map key must be a string, char, integer, bool or unit variant, found {0}")]
    NonStringKey(&'static str),
    /// An error raised by a `Serialize` implementation.
    #[error("{0}")]
    Custom(String),
    /// The value nests arrays and objects deeper than `limit` levels.
    #[error("value nests deeper than {limit} levels")]
    DepthLimit {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// A [`Writer`](super::Writer) call that is not allowed where the document is (for
    /// example a cell outside a row, or a value in an object without a key).
    #[error("TOON writer misuse: {0}")]
    Misuse(&'static str),
    /// A [`Writer`](super::Writer) array, table or row got more or fewer entries than its
    /// header declared.
    #[error("{what}: declared {declared}, written {written}")]
    CountMismatch {
        /// What was counted (`"list items"`, `"row cells"`, ...).
        what: &'static str,
        /// The count in the header (or the table's column count, for cells).
        declared: usize,
        /// How many were written (at the point the mismatch was detected).
        written: usize,
    },
    /// The [`Options`](super::Options) cannot produce valid TOON (an indent of zero).
    #[error("invalid TOON options: {0}")]
    InvalidOptions(&'static str),
    /// A bug in the encoder: its intermediate representation was inconsistent.
    #[error("internal TOON encoder error: {0}")]
    Internal(&'static str),
}

impl serde::ser::Error for EncodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        EncodeError::Custom(msg.to_string())
    }
}
