//! The errors of the records encoder and of the hybrid decoder.

use std::io;

use crate::toon::{DecodeError, EncodeError};

/// Why encoding records failed.
///
/// Everything except `Encode(EncodeError::Io(_))` is detected before any output is written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordsError {
    /// The TOON encoder or the sink failed.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// [`Form::FlatToon`](super::Form::FlatToon) and [`Form::Hybrid`](super::Form::Hybrid)
    /// look inside records, so every record must be a JSON object.
    #[error("record {index} is not a JSON object")]
    NotAnObject {
        /// The 0-based index of the offending record.
        index: usize,
    },
    /// [`Form::Hybrid`](super::Form::Hybrid) was asked for records that share no field
    /// holding a primitive in every one of them, so there is no table to write.
    #[error("no field is a primitive in every record, so the hybrid form has no table")]
    NoCommonColumn,
    /// A record nests arrays and objects deeper than
    /// [`MAX_RECORD_DEPTH`](super::MAX_RECORD_DEPTH).
    #[error("record {index} nests deeper than {limit} levels")]
    TooDeep {
        /// The 0-based index of the offending record.
        index: usize,
        /// The limit that was exceeded.
        limit: usize,
    },
    /// The [`RecordsOptions`](super::RecordsOptions) cannot be honoured (the payload says
    /// which option and why).
    #[error("invalid records options: {0}")]
    InvalidOptions(String),
    /// A value could not be turned into JSON (see [`to_records`](super::to_records)).
    #[error("cannot convert to JSON: {0}")]
    Json(#[from] serde_json::Error),
}

impl From<io::Error> for RecordsError {
    fn from(err: io::Error) -> Self {
        RecordsError::Encode(EncodeError::Io(err))
    }
}

/// Why [`decode_hybrid`](super::decode_hybrid) refused a document.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HybridError {
    /// The text is not valid TOON.
    #[error(transparent)]
    Toon(#[from] DecodeError),
    /// The TOON is valid but not a records document (the payload says what is wrong).
    #[error("not a records document: {0}")]
    NotRecords(String),
    /// A sidecar line's key is not the index of a row (a 0-based decimal without leading
    /// zeros, below the row count).
    #[error("sidecar key {key:?} is not a row index")]
    BadRowKey {
        /// The key as written.
        key: String,
    },
    /// A sidecar value is not the text of a JSON object.
    #[error("sidecar entry of row {row} is not a JSON object: {reason}")]
    BadSidecar {
        /// The row the entry belongs to.
        row: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A field of a row is given twice (by two columns, or by a column and the sidecar), or
    /// a column's path runs into a field that is not an object.
    #[error("row {row}: field {path:?} is given twice")]
    Conflict {
        /// The row.
        row: usize,
        /// The dotted path of the field.
        path: String,
    },
    /// The options cannot be honoured (see [`RecordsError::InvalidOptions`]).
    #[error("invalid records options: {0}")]
    InvalidOptions(String),
}
