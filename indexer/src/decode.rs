//! Source text from file bytes. Tree-sitter reads UTF-8, so a file is handed to it as:
//! UTF-8 as it is, its byte order mark (if any) dropped; UTF-16 with a byte order mark
//! (little or big endian) converted to UTF-8; anything else read as Windows-1252, the usual
//! encoding of old Latin-1 sources, with a warning naming the file. Line breaks are kept one
//! for one, so every line number is the file's own. The content hash is taken over the raw
//! bytes, not over this text.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

/// A file's text as tree-sitter reads it, and a warning if the conversion may have changed it.
pub(crate) struct Decoded<'a> {
    /// UTF-8 text.
    pub(crate) text: Cow<'a, [u8]>,
    /// Set when the file was not UTF-8 or UTF-16 (or had malformed UTF-16).
    pub(crate) warning: Option<String>,
}

/// Decodes the bytes of the file at `path` (relative, for the warning).
pub(crate) fn decode<'a>(path: &str, bytes: &'a [u8]) -> Decoded<'a> {
    match Encoding::for_bom(bytes) {
        Some((encoding, bom)) if encoding == UTF_8 => utf8_or_legacy(path, &bytes[bom..]),
        Some((encoding, bom)) => {
            let (text, had_errors) = encoding.decode_without_bom_handling(&bytes[bom..]);
            Decoded {
                text: Cow::Owned(text.into_owned().into_bytes()),
                warning: had_errors.then(|| {
                    format!(
                        "{path}: malformed {} text; the bad units were replaced by U+FFFD",
                        encoding.name()
                    )
                }),
            }
        }
        None => utf8_or_legacy(path, bytes),
    }
}

fn utf8_or_legacy<'a>(path: &str, bytes: &'a [u8]) -> Decoded<'a> {
    if std::str::from_utf8(bytes).is_ok() {
        return Decoded {
            text: Cow::Borrowed(bytes),
            warning: None,
        };
    }
    // Windows-1252 maps every byte to a character, so this never fails; it is a guess, hence
    // the warning.
    let (text, _) = WINDOWS_1252.decode_without_bom_handling(bytes);
    Decoded {
        text: Cow::Owned(text.into_owned().into_bytes()),
        warning: Some(format!(
            "{path}: not UTF-8 or UTF-16; read as Windows-1252 (Latin-1)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::decode;

    fn text(bytes: &[u8]) -> (String, Option<String>) {
        let decoded = decode("a.ts", bytes);
        (
            String::from_utf8(decoded.text.into_owned()).expect("UTF-8"),
            decoded.warning,
        )
    }

    fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
        let mut bytes = if little_endian {
            vec![0xff, 0xfe]
        } else {
            vec![0xfe, 0xff]
        };
        for unit in text.encode_utf16() {
            let pair = if little_endian {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            };
            bytes.extend_from_slice(&pair);
        }
        bytes
    }

    #[test]
    fn utf8_is_kept_and_its_byte_order_mark_dropped() {
        assert_eq!(
            text("const é = 1;\n".as_bytes()),
            ("const é = 1;\n".into(), None)
        );
        assert_eq!(
            text(b"\xef\xbb\xbfconst a = 1;\n"),
            ("const a = 1;\n".into(), None)
        );
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_converted_in_either_byte_order() {
        let source = "// ü\r\nfunction f() {}\n";
        assert_eq!(text(&utf16(source, true)), (source.into(), None));
        assert_eq!(text(&utf16(source, false)), (source.into(), None));
        let (_, warning) = text(&[0xff, 0xfe, 0x00, 0xd8, b'a', 0]);
        assert_eq!(
            warning.as_deref(),
            Some("a.ts: malformed UTF-16LE text; the bad units were replaced by U+FFFD")
        );
    }

    #[test]
    fn other_bytes_are_read_as_windows_1252_with_a_warning() {
        assert_eq!(
            text(b"export function caf\xe9() {} // \x80\n"),
            (
                "export function café() {} // €\n".into(),
                Some("a.ts: not UTF-8 or UTF-16; read as Windows-1252 (Latin-1)".into())
            )
        );
    }
}
