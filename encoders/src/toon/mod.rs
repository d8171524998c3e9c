//! TOON v4.0 (Token-Oriented Object Notation): a streaming encoder, a strict decoder and a
//! records encoder for prompts.
//!
//! Encoding: [`to_string`] / [`to_writer`] take any `Serialize` value (or reuse buffers with an
//! [`Encoder`]); [`Writer`] writes a document call by call without serde. Both produce the
//! canonical form of the spec: minimal quoting, tables for uniform arrays of objects, keyed
//! tables for uniform maps of objects, shortest round-trip numbers.

mod encode;
mod error;
mod number;
mod options;
mod quote;
pub mod records;
mod writer;

pub use encode::{Encoder, MAX_DEPTH, to_string, to_writer};
pub use error::EncodeError;
pub use options::{Delimiter, Options};
pub use writer::{Scalar, Writer};

// decoder re-exports

pub mod decode;
pub use decode::{DecodeError, from_str, to_value};
