//! The TOON v4.0 decoder: TOON text to `serde_json::Value` (order-preserving) or to any
//! `Deserialize` type, strict by default.
//!
//! Strict mode enforces everything the spec lists: declared counts and row widths, header
//! syntax, indentation in multiples of the indent size, no tabs in indentation, no blank lines
//! inside arrays, no duplicate keys or field names, valid escapes, and the root form. Non-strict
//! mode relaxes counts, indentation multiples (depth is `spaces / indent`), blank lines inside
//! arrays (skipped), duplicates (the last one wins) and malformed bracket segments after a key
//! (the text before the colon becomes a literal key). Tabs in indentation and rows of the wrong
//! width are errors in both modes.
//!
//! Numbers (the spec asks each implementation to document its policy): integers stay exact as
//! `i64`/`u64` and larger ones become the nearest `f64`; tokens with a fraction or exponent
//! become `f64`, except whole values below 2^53 in magnitude, which become integers (`2.5e2` is
//! `250`, `-0.0` is `0`); a token too large for `f64` (`1e400`) stays a string. Leading zeros
//! (`05`), a leading `+`, `.5`, `1.`, `NaN` and `Infinity` are strings.
//!
//! Every error in the input carries a 1-based line and column. The decoder never panics on
//! input and keeps its open containers on the heap, not the call stack; nesting deeper than
//! [`MAX_DEPTH`] levels is an error, which also keeps the resulting `Value` shallow enough for
//! its recursive `Drop`.

mod arrays;
mod error;
mod fields;
mod header;
mod lines;
mod number;
mod parser;
mod primitive;
mod scan;
mod string;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use error::{DecodeError, ErrorKind};

/// The deepest indentation level (and field-group nesting) the decoder accepts.
///
/// Deeper input is refused with [`ErrorKind::TooDeep`] rather than risking the stack, both in
/// the decoder and in the recursive `Drop` of the resulting `Value`.
pub const MAX_DEPTH: usize = 256;

/// Decoder options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Spaces per indentation level (default 2; must be at least 1).
    pub indent: usize,
    /// Enforce the spec's strict-mode rules (default `true`).
    pub strict: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            indent: 2,
            strict: true,
        }
    }
}

/// Decodes a TOON document into a JSON value, in strict mode with an indent of 2.
///
/// Object keys keep their document order.
///
/// ```
/// use serde_json::json;
///
/// let text = "users[2]{id,name}:\n  1,Ada\n  2,Bob\ncount: 2";
/// let value = tsgraph_encoders::toon::to_value(text)?;
/// assert_eq!(value, json!({"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}], "count": 2}));
///
/// let err = tsgraph_encoders::toon::to_value("tags[3]: a,b").unwrap_err();
/// assert_eq!(err.to_string(), "1:5: expected 3 values, found 2");
/// # Ok::<(), tsgraph_encoders::toon::DecodeError>(())
/// ```
pub fn to_value(input: &str) -> Result<Value, DecodeError> {
    to_value_with(input, &DecodeOptions::default())
}

/// Decodes a TOON document into a JSON value with the given options.
pub fn to_value_with(input: &str, options: &DecodeOptions) -> Result<Value, DecodeError> {
    if options.indent == 0 {
        return Err(DecodeError::unpositioned(ErrorKind::InvalidOptions(
            "indent must be at least 1",
        )));
    }
    parser::Parser::new(input, options).parse_document()
}

/// Decodes a TOON document into any deserializable type, in strict mode with an indent of 2.
///
/// The document is decoded to a [`Value`] first, so type mismatches are reported without a
/// position ([`ErrorKind::Deserialize`]).
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Server {
///     host: String,
///     port: u16,
/// }
///
/// let servers: Vec<Server> = tsgraph_encoders::toon::from_str("[2]{host,port}:\n  a,80\n  b,443")?;
/// assert_eq!(servers[1], Server { host: "b".into(), port: 443 });
/// # Ok::<(), tsgraph_encoders::toon::DecodeError>(())
/// ```
pub fn from_str<T: DeserializeOwned>(input: &str) -> Result<T, DecodeError> {
    from_str_with(input, &DecodeOptions::default())
}

/// Decodes a TOON document into any deserializable type with the given options.
pub fn from_str_with<T: DeserializeOwned>(
    input: &str,
    options: &DecodeOptions,
) -> Result<T, DecodeError> {
    let value = to_value_with(input, options)?;
    serde_json::from_value(value)
        .map_err(|err| DecodeError::unpositioned(ErrorKind::Deserialize(err.to_string())))
}

/// Decodes TOON bytes into a JSON value; invalid UTF-8 is an error at the line and column of
/// the first bad byte.
///
/// ```
/// let err = tsgraph_encoders::toon::decode::from_slice(b"a: 1\nb: \xff").unwrap_err();
/// assert_eq!(err.to_string(), "2:4: invalid UTF-8");
/// ```
pub fn from_slice(bytes: &[u8]) -> Result<Value, DecodeError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => to_value(text),
        Err(err) => {
            let valid = bytes.get(..err.valid_up_to()).unwrap_or_default();
            let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
            let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            // The prefix up to `valid_up_to` is valid UTF-8 by definition.
            let column = 1 + std::str::from_utf8(valid.get(line_start..).unwrap_or_default())
                .map_or(0, |s| s.chars().count());
            Err(DecodeError::at(line, column, ErrorKind::InvalidUtf8))
        }
    }
}

#[cfg(test)]
mod tests;
