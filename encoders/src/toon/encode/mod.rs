//! The serde encoder: `Serialize` value → tape → layout pass → [`Writer`].
//!
//! Choosing between TOON's forms needs a look at a whole array (are all elements objects with
//! the same keys?) before its header can be written, so the value is first recorded on a
//! compact byte tape ([`tape`]) by a custom serde `Serializer` ([`serializer`]); a layout pass
//! ([`layout`], [`schema`]) then reads the tape, decides each form and drives the [`Writer`].
//! No `serde_json::Value` or other owned tree is built. While recording, [`uniform`] spots
//! arrays of flat structs with identical fields, so for the commonest table the layout skips
//! its check pass and writes the rows in one walk. An [`Encoder`] keeps its buffers between
//! calls, so encoding in a loop allocates nothing once warmed up.
//!
//! The commonest document of all, a root sequence of flat structs (`Vec<Row>`), skips the tape:
//! [`direct`] serializes the value once to check that it is such a table and once more to
//! write it, straight to the [`Writer`]. Every other value takes the tape.
//!
//! # Memory
//!
//! A root table of flat structs ([`direct`]) needs nothing besides its output and one
//! `&'static str` per column. Every other value is first recorded on the tape, which holds
//! the whole value at roughly its TOON size:
//!
//! - `null`, `true`, `false`, integers `0..64`: 1 byte; other integers: 2–11 bytes (LEB128);
//!   `f64`: 9 bytes; `f32`: 5 bytes; integers beyond 64 bits: their digits + 2;
//! - strings: their bytes + 1 (+ a LEB128 length from 64 bytes on);
//! - struct field names: 1 byte (interned; 2+ bytes past the 64th distinct name); map keys:
//!   their bytes + 1 (+ a length from 32 bytes on);
//! - each array or object: 6 bytes (tag, 4-byte content length, end marker).
//!
//! A row struct of eight short fields takes about as many tape bytes as its TOON row. Besides
//! the tape, the layout pass keeps one entry (~40 bytes) per column of the table being written,
//! and [`to_writer`] buffers ~8 KiB of output; [`to_string`] grows its `String` as it writes.
//!
//! # Depth
//!
//! Serde serializes recursively, so nesting is bounded by [`MAX_DEPTH`] arrays and objects:
//! a deeper value is [`EncodeError::DepthLimit`] (before any output), not a stack overflow.
//! The layout pass recurses along the same bounded nesting.

mod direct;
mod layout;
mod schema;
mod serializer;
mod tape;
mod uniform;

use std::{io, mem};

use serde::Serialize;

use self::direct::Shape;
use self::serializer::TapeSerializer;
use self::tape::Tape;
use self::uniform::Tracker;
use super::writer::{FLUSH_AT, Writer};
use super::{EncodeError, Options};

/// The deepest nesting of arrays and objects the serde encoder accepts.
///
/// Each level costs a few stack frames in `Serialize` and in the layout pass; 128 keeps the
/// worst case far from the 2 MiB stack of a spawned thread. (serde_json's parser uses the same
/// limit.)
pub const MAX_DEPTH: usize = 128;

/// A reusable TOON encoder: keeps its buffers between documents.
///
/// ```
/// use serde::Serialize;
/// use tsgraph_encoders::toon::{Encoder, Options};
///
/// #[derive(Serialize)]
/// struct Node<'a> {
///     id: u32,
///     name: &'a str,
/// }
///
/// let mut encoder = Encoder::new(Options::default());
/// let nodes = [Node { id: 1, name: "parse" }, Node { id: 2, name: "lex, scan" }];
/// let text = encoder.to_string(&nodes)?;
/// assert_eq!(text, "[2]{id,name}:\n  1,parse\n  2,\"lex, scan\"");
/// # Ok::<(), tsgraph_encoders::toon::EncodeError>(())
/// ```
pub struct Encoder {
    opts: Options,
    tape: Tape,
    track: Tracker,
    /// The columns of a root table found by the direct path's probe.
    shape: Shape,
    /// The output buffer of [`to_writer`](Self::to_writer), kept for the next call.
    buf: Vec<u8>,
}

impl Encoder {
    /// An encoder with the given options.
    pub fn new(opts: Options) -> Self {
        Encoder {
            opts,
            tape: Tape::default(),
            track: Tracker::default(),
            shape: Shape::default(),
            buf: Vec::new(),
        }
    }

    /// The options this encoder writes with.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Encodes `value` into `w`. Nothing is written if serialization fails; I/O errors may
    /// leave a partial document, and so may a `Serialize` implementation that serializes a
    /// root sequence of structs differently each time (such a value is serialized twice).
    pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
        &mut self,
        w: &mut W,
        value: &T,
    ) -> Result<(), EncodeError> {
        let direct = self.shape.probe(value);
        if !direct {
            self.record(value)?;
        }
        let mut buf = mem::take(&mut self.buf);
        buf.clear();
        let mut writer = Writer::with_buffer(w, self.opts, buf, FLUSH_AT);
        if direct {
            direct::write_table(value, &self.shape, &mut writer)?;
        } else {
            layout::write_document(&self.tape, &mut writer)?;
        }
        self.buf = writer.finish_keep_buffer()?;
        Ok(())
    }

    /// Encodes `value` and appends the document to `out` (left as it was on error).
    pub fn append_to_vec<T: Serialize + ?Sized>(
        &mut self,
        out: &mut Vec<u8>,
        value: &T,
    ) -> Result<(), EncodeError> {
        let direct = self.shape.probe(value);
        if !direct {
            self.record(value)?;
            // A table's text is about the tape's size (lists repeat their keys and grow past
            // it); reserving a little more up front saves the regrowth copies in the common
            // case.
            out.reserve(self.tape.len() + self.tape.len() / 4);
        }
        let start = out.len();
        let mut writer = Writer::with_buffer(io::sink(), self.opts, mem::take(out), usize::MAX);
        let written = if direct {
            direct::write_table(value, &self.shape, &mut writer)
        } else {
            layout::write_document(&self.tape, &mut writer)
        };
        let result = written.and_then(|()| writer.close_all());
        *out = writer.take_buffer();
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// Encodes `value` as a `String`.
    pub fn to_string<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<String, EncodeError> {
        let mut out = Vec::new();
        self.append_to_vec(&mut out, value)?;
        // Every byte written is ASCII or comes from a `&str`, whole.
        String::from_utf8(out).map_err(|_| EncodeError::Internal("output is not UTF-8"))
    }

    fn record<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.tape.clear();
        value.serialize(&mut TapeSerializer::new(
            &mut self.tape,
            &mut self.track,
            MAX_DEPTH,
        ))
    }
}

/// Encodes `value` as TOON into `w` (see [`Encoder::to_writer`]).
///
/// The serde data model maps to TOON as serde_json maps it to JSON: structs and maps are
/// objects (in field / iteration order), sequences and tuples arrays, `None` and `()` null,
/// unit variants their name, other variants `{variant: value}`. Map keys must be strings;
/// chars, integers, bools and unit variants are accepted as their text, anything else is
/// [`EncodeError::NonStringKey`]. Non-finite floats become `null`.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
    w: &mut W,
    value: &T,
    opts: &Options,
) -> Result<(), EncodeError> {
    Encoder::new(*opts).to_writer(w, value)
}

/// Encodes `value` as a TOON `String` (see [`to_writer`] for the data model).
///
/// ```
/// use tsgraph_encoders::toon::{Options, to_string};
///
/// let value = serde_json::json!({"user": {"id": 7, "tags": ["a", "b"]}, "ok": true});
/// let text = to_string(&value, &Options::default())?;
/// assert_eq!(text, "user:\n  id: 7\n  tags[2]: a,b\nok: true");
/// # Ok::<(), tsgraph_encoders::toon::EncodeError>(())
/// ```
pub fn to_string<T: Serialize + ?Sized>(value: &T, opts: &Options) -> Result<String, EncodeError> {
    Encoder::new(*opts).to_string(value)
}
