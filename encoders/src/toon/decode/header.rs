//! Key lines and array headers: `key: value`, `key:`, `key[N]:`, `key[N|]{a|b}:`,
//! `key[N:]{f}:`, keyless `[N]:`, and the `entrykey:` prefix of keyed-table rows.

use super::error::{ErrorKind, Fault};
use super::fields::{self, Fields};
use super::scan::{find_unquoted, skip_spaces};
use super::string;

/// A parsed array header.
#[derive(Debug)]
pub(super) struct Header {
    /// The declared length `N`.
    pub(super) length: usize,
    /// `[N:]`: a keyed table whose rows are `entrykey: cells`.
    pub(super) keyed: bool,
    /// The active delimiter byte (`,` when the bracket declares none).
    pub(super) delimiter: u8,
    /// The fields segment, if any.
    pub(super) fields: Option<Fields>,
    /// Offset of the `[`.
    pub(super) bracket_at: usize,
    /// Offset just after the header's colon, where inline values start.
    pub(super) rest_at: usize,
}

/// What a line in key position holds.
#[derive(Debug)]
pub(super) enum KeyLine {
    /// `key: value` or `key:`; the value text starts at `value_at`.
    Value {
        key: String,
        key_at: usize,
        value_at: usize,
    },
    /// An array header; `key` is `None` when the header has no key.
    Header {
        key: Option<String>,
        key_at: usize,
        header: Header,
    },
}

/// Parses the key (and header, if any) of the line `text`, starting at `start`.
///
/// In non-strict mode a malformed bracket segment after an unquoted key (`foo[bar]: 1`,
/// `key[]: 1`, `foo[2]extra: 1`) makes the whole text before the colon a literal key; strict
/// mode rejects it.
pub(super) fn parse_key_line(text: &str, start: usize, strict: bool) -> Result<KeyLine, Fault> {
    let bytes = text.as_bytes();
    match bytes.get(start) {
        Some(b'"') => {
            let (key, end) = string::parse_quoted(text, start)?;
            if bytes.get(end) == Some(&b'[') {
                let header = parse_header(text, end, strict)?;
                return Ok(KeyLine::Header {
                    key: Some(key),
                    key_at: start,
                    header,
                });
            }
            let colon = skip_spaces(text, end);
            if bytes.get(colon) != Some(&b':') {
                return Err(Fault::new(end, ErrorKind::MissingColon));
            }
            Ok(KeyLine::Value {
                key,
                key_at: start,
                value_at: colon + 1,
            })
        }
        Some(b'[') => Ok(KeyLine::Header {
            key: None,
            key_at: start,
            header: parse_header(text, start, strict)?,
        }),
        _ => {
            let Some(stop) = find_unquoted(text, start, |b| b == b':' || b == b'[') else {
                return Err(Fault::new(text.len(), ErrorKind::MissingColon));
            };
            let key = unquoted_key(text, start, stop)?;
            if bytes.get(stop) == Some(&b':') {
                return Ok(KeyLine::Value {
                    key,
                    key_at: start,
                    value_at: stop + 1,
                });
            }
            match parse_bracket(text, stop) {
                Ok(bracket) => {
                    let header = finish_header(text, stop, bracket, strict)?;
                    Ok(KeyLine::Header {
                        key: Some(key),
                        key_at: start,
                        header,
                    })
                }
                Err(fault) if !strict => match find_unquoted(text, start, |b| b == b':') {
                    Some(colon) => Ok(KeyLine::Value {
                        key: unquoted_key(text, start, colon)?,
                        key_at: start,
                        value_at: colon + 1,
                    }),
                    None => Err(fault),
                },
                Err(fault) => Err(fault),
            }
        }
    }
}

/// Parses the `entrykey:` prefix of a keyed-table row: the key and the offset of the cells.
/// The key ends at the first unquoted colon, so `k[2]: 5` has the literal key `k[2]`.
pub(super) fn parse_entry_key(text: &str) -> Result<(String, usize), Fault> {
    if text.starts_with('"') {
        let (key, end) = string::parse_quoted(text, 0)?;
        let colon = skip_spaces(text, end);
        if text.as_bytes().get(colon) != Some(&b':') {
            return Err(Fault::new(end, ErrorKind::MissingColon));
        }
        return Ok((key, colon + 1));
    }
    let colon = find_unquoted(text, 0, |b| b == b':')
        .ok_or_else(|| Fault::new(text.len(), ErrorKind::MissingColon))?;
    Ok((unquoted_key(text, 0, colon)?, colon + 1))
}

/// Parses the header whose `[` is at `open`.
pub(super) fn parse_header(text: &str, open: usize, strict: bool) -> Result<Header, Fault> {
    let bracket = parse_bracket(text, open)?;
    finish_header(text, open, bracket, strict)
}

fn unquoted_key(text: &str, start: usize, end: usize) -> Result<String, Fault> {
    let key = text.get(start..end).unwrap_or("").trim_end_matches(' ');
    if key.is_empty() {
        return Err(Fault::new(start, ErrorKind::EmptyKey));
    }
    Ok(key.to_owned())
}

/// The bracket segment: `[` digits, an optional keyed marker `:`, an optional tab or pipe, `]`.
struct Bracket {
    length: usize,
    keyed: bool,
    delimiter: u8,
    /// Offset after the `]`; it holds `{` or `:`.
    end: usize,
}

fn parse_bracket(text: &str, open: usize) -> Result<Bracket, Fault> {
    let bytes = text.as_bytes();
    let digits_start = open + 1;
    let mut i = digits_start;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let digits = text.get(digits_start..i).unwrap_or("");
    if digits.is_empty() {
        return Err(Fault::new(
            digits_start,
            ErrorKind::MalformedHeader("expected a length"),
        ));
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return Err(Fault::new(
            digits_start,
            ErrorKind::MalformedHeader("length has leading zeros"),
        ));
    }
    let length = digits
        .parse()
        .map_err(|_| Fault::new(digits_start, ErrorKind::MalformedHeader("length too large")))?;
    let keyed = bytes.get(i) == Some(&b':');
    if keyed {
        i += 1;
    }
    let delimiter = match bytes.get(i) {
        Some(&b @ (b'\t' | b'|')) => {
            i += 1;
            b
        }
        _ => b',',
    };
    if bytes.get(i) != Some(&b']') {
        return Err(Fault::new(
            i,
            ErrorKind::MalformedHeader("expected ']' after the length"),
        ));
    }
    i += 1;
    if !matches!(bytes.get(i), Some(b'{' | b':')) {
        return Err(Fault::new(
            i,
            ErrorKind::MalformedHeader("unexpected text between ']' and ':'"),
        ));
    }
    Ok(Bracket {
        length,
        keyed,
        delimiter,
        end: i,
    })
}

fn finish_header(text: &str, open: usize, bracket: Bracket, strict: bool) -> Result<Header, Fault> {
    let mut i = bracket.end;
    let fields = if text.as_bytes().get(i) == Some(&b'{') {
        let (fields, end) = fields::parse(text, i, bracket.delimiter, strict)?;
        i = end;
        Some(fields)
    } else {
        None
    };
    if text.as_bytes().get(i) != Some(&b':') {
        return Err(Fault::new(i, ErrorKind::MissingColon));
    }
    if bracket.keyed && fields.is_none() {
        return Err(Fault::new(
            open,
            ErrorKind::MalformedHeader("a keyed header needs a fields segment"),
        ));
    }
    Ok(Header {
        length: bracket.length,
        keyed: bracket.keyed,
        delimiter: bracket.delimiter,
        fields,
        bracket_at: open,
        rest_at: i + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_line(text: &str, strict: bool) -> String {
        match parse_key_line(text, 0, strict) {
            Ok(KeyLine::Value { key, value_at, .. }) => format!("value {key:?} @{value_at}"),
            Ok(KeyLine::Header { key, header, .. }) => format!(
                "header {key:?} n={} keyed={} delim={:?} fields={} rest@{}",
                header.length,
                header.keyed,
                header.delimiter as char,
                header.fields.map_or(0, |f| f.width()),
                header.rest_at
            ),
            Err(fault) => format!("error @{}: {}", fault.at, fault.kind),
        }
    }

    #[test]
    fn parses_keys_and_headers() {
        assert_eq!(key_line("a: 1", true), "value \"a\" @2");
        assert_eq!(key_line("key: foo [2]: bar", true), "value \"key\" @4");
        assert_eq!(
            key_line("\"a:b\"[2]: 1,2", true),
            "header Some(\"a:b\") n=2 keyed=false delim=',' fields=0 rest@9"
        );
        assert_eq!(
            key_line("m[2:|]{a|b}:", true),
            "header Some(\"m\") n=2 keyed=true delim='|' fields=2 rest@12"
        );
        assert_eq!(
            key_line("[3\t]: a", true),
            "header None n=3 keyed=false delim='\\t' fields=0 rest@5"
        );
    }

    #[test]
    fn rejects_malformed_brackets_in_strict_mode() {
        let cases = [
            (
                "items[03]: a",
                "error @6: malformed array header: length has leading zeros",
            ),
            (
                "items[-1]: a",
                "error @6: malformed array header: expected a length",
            ),
            (
                "x[3.7]: a",
                "error @3: malformed array header: expected ']' after the length",
            ),
            (
                "foo[1][bar]: 10",
                "error @6: malformed array header: unexpected text between ']' and ':'",
            ),
            (
                "items[2] :",
                "error @8: malformed array header: unexpected text between ']' and ':'",
            ),
            (
                "m[2|:]{v}:",
                "error @4: malformed array header: expected ']' after the length",
            ),
            (
                "m[2:]:",
                "error @1: malformed array header: a keyed header needs a fields segment",
            ),
            ("items[2]{id,name}", "error @17: expected ':' after key"),
            ("no colon here", "error @13: expected ':' after key"),
            (": x", "error @0: empty key"),
        ];
        for (text, want) in cases {
            assert_eq!(key_line(text, true), want, "{text}");
        }
    }

    #[test]
    fn falls_back_to_literal_keys_in_non_strict_mode() {
        assert_eq!(
            key_line("foo[1][bar]: 10", false),
            "value \"foo[1][bar]\" @12"
        );
        assert_eq!(key_line("key[]: 1,2", false), "value \"key[]\" @6");
    }

    #[test]
    fn splits_entry_keys_at_the_first_unquoted_colon() {
        let entry = |text: &str| parse_entry_key(text).map_err(|f| f.kind.to_string());
        assert_eq!(entry("k[2]: 5"), Ok(("k[2]".into(), 5)));
        assert_eq!(entry("\"a:b\": 1"), Ok(("a:b".into(), 6)));
        assert_eq!(entry("5"), Err("expected ':' after key".into()));
    }
}
