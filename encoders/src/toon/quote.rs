//! TOON string and key quoting: when a value or key must be quoted, and escaping inside quotes.
//!
//! A string value is quoted when it is empty; has a leading or trailing space; is exactly
//! `true`, `false` or `null`; looks numeric (`^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$`, any case);
//! contains `:` `"` `\` `[` `]` `{` `}`, a control character (U+0000–U+001F) or the active
//! delimiter; or starts with `-` or `#`. A key is bare only when it matches
//! `^[A-Za-z_][A-Za-z0-9_.]*$`. Inside quotes `\\ \" \n \r \t` are escaped, other control
//! characters as `\u00xx`, nothing else. One pass over the bytes, sixteen at a time, says
//! both whether a value is quoted and whether anything in it is escaped: multi-byte UTF-8
//! never needs either, so the scan can work on bytes.

use super::Delimiter;

/// Bytes allowed in a bare key after its first byte: `[A-Za-z0-9_.]`.
static KEY_REST: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
        b += 1;
    }
    table
};

/// The escape for each byte inside quotes: 0 = copy as is, `u` = `\u00xx`, else `\<byte>`.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[b'\n' as usize] = b'n';
    table[b'\r' as usize] = b'r';
    table[b'\t' as usize] = b't';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// A byte's flags for one delimiter: it forces quoting ([`QUOTE`]), and inside quotes it
/// is escaped ([`ESCAPED`]; such a byte forces quoting too).
const QUOTE: u8 = 1;
const ESCAPED: u8 = 2;

/// The flags of every byte of `s` together, in one pass: sixteen bytes at a time by
/// comparisons the compiler turns into vector instructions (no branch, no table load per
/// byte); the tail is the last sixteen bytes, or padded with a byte that has no flag.
fn byte_flags(s: &[u8], delim: Delimiter) -> u8 {
    let delim = delim.as_byte();
    let mut chunks = s.chunks_exact(16);
    let mut flags = 0;
    for chunk in &mut chunks {
        if let Ok(chunk) = chunk.try_into() {
            flags |= chunk_flags(chunk, delim);
        }
    }
    let tail = chunks.remainder();
    if tail.is_empty() {
        return flags;
    }
    // A value of sixteen bytes or more ends with its last sixteen (overlapping bytes
    // already seen changes nothing); a shorter one is padded.
    let last = match s.len().checked_sub(16) {
        Some(start) => s[start..].try_into().ok(),
        None => None,
    };
    match last {
        Some(last) => flags | chunk_flags(last, delim),
        None => {
            let mut padded = [b'a'; 16];
            padded[..tail.len()].copy_from_slice(tail);
            flags | chunk_flags(&padded, delim)
        }
    }
}

/// [`byte_flags`] of one chunk, by the rules the flag tables hold (a unit test checks the
/// two agree on every byte). Written without branches over a fixed length, so that each
/// comparison covers the whole chunk at once.
fn chunk_flags(chunk: &[u8; 16], delim: u8) -> u8 {
    let (mut quote, mut escape) = (0u8, 0u8);
    for &b in chunk {
        let escaped = u8::from(b < 0x20) | u8::from(b == b'"') | u8::from(b == b'\\');
        let special = u8::from(b == b':')
            | u8::from(b == b'[')
            | u8::from(b == b']')
            | u8::from(b == b'{')
            | u8::from(b == b'}')
            | u8::from(b == delim);
        escape |= escaped;
        quote |= escaped | special;
    }
    (quote * QUOTE) | (escape * ESCAPED)
}

/// Whether a value must be quoted for its shape rather than for a byte in it: empty, a
/// space at either end, a leading `-` or `#`, a literal or a number.
fn shape_needs_quotes(s: &[u8]) -> bool {
    let (Some(&first), Some(&last)) = (s.first(), s.last()) else {
        return true;
    };
    if matches!(first, b' ' | b'-' | b'#') || last == b' ' {
        return true;
    }
    match first {
        b't' => s == b"true",
        b'f' => s == b"false",
        b'n' => s == b"null",
        b'0'..=b'9' | b'+' => looks_numeric(s),
        _ => false,
    }
}

/// `^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$`, case-insensitive.
fn looks_numeric(s: &[u8]) -> bool {
    let mut i = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while s.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return false;
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == s.len()
}

/// Whether a key (object key, field name, keyed-row key) must be quoted.
#[inline]
pub(crate) fn key_needs_quotes(s: &[u8]) -> bool {
    match s.split_first() {
        Some((&first, rest)) if first.is_ascii_alphabetic() || first == b'_' => {
            !rest.iter().all(|&b| KEY_REST[usize::from(b)])
        }
        _ => true,
    }
}

/// Appends a string value, quoted and escaped only when needed. `s` must be UTF-8. One pass
/// over the bytes tells both whether it is quoted and whether anything inside is escaped.
#[inline]
pub(crate) fn write_value(out: &mut Vec<u8>, s: &[u8], delim: Delimiter) {
    let flags = byte_flags(s, delim);
    if flags & ESCAPED != 0 {
        write_quoted(out, s);
    } else if flags & QUOTE != 0 || shape_needs_quotes(s) {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s);
        out.push(b'"');
    } else {
        out.extend_from_slice(s);
    }
}

/// Appends a key, quoted and escaped only when needed. `s` must be UTF-8.
#[inline]
pub(crate) fn write_key(out: &mut Vec<u8>, s: &[u8]) {
    if key_needs_quotes(s) {
        write_quoted(out, s);
    } else {
        out.extend_from_slice(s);
    }
}

/// Appends `"s"` with TOON escapes, copying unescaped runs in one go. Only values with a
/// byte to escape and keys that need quotes come here, so a byte at a time is enough.
fn write_quoted(out: &mut Vec<u8>, s: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut run = 0;
    for (i, &b) in s.iter().enumerate() {
        let escape = ESCAPE[usize::from(b)];
        if escape == 0 {
            continue;
        }
        out.extend_from_slice(s.get(run..i).unwrap_or_default());
        run = i + 1;
        if escape == b'u' {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.push(b'\\');
            out.push(escape);
        }
    }
    out.extend_from_slice(s.get(run..).unwrap_or_default());
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &str, delim: Delimiter) -> String {
        let mut out = Vec::new();
        write_value(&mut out, s.as_bytes(), delim);
        String::from_utf8(out).expect("utf-8 in, utf-8 out")
    }

    fn key(s: &str) -> String {
        let mut out = Vec::new();
        write_key(&mut out, s.as_bytes());
        String::from_utf8(out).expect("utf-8 in, utf-8 out")
    }

    // The rule as the module's documentation states it, byte by byte: the oracle the
    // vectorised chunk rule is checked against.

    /// Bytes that force quoting wherever they appear in a value, for one delimiter.
    const fn value_table(delim: u8) -> [bool; 256] {
        let mut table = [false; 256];
        let mut b = 0;
        while b < 0x20 {
            table[b] = true;
            b += 1;
        }
        let specials = *b":\"\\[]{}";
        let mut i = 0;
        while i < specials.len() {
            table[specials[i] as usize] = true;
            i += 1;
        }
        table[delim as usize] = true;
        table
    }

    const fn flag_table(delim: u8) -> [u8; 256] {
        let quote = value_table(delim);
        let mut table = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            let quoted = if quote[b] { QUOTE } else { 0 };
            let escaped = if ESCAPE[b] != 0 { ESCAPED } else { 0 };
            table[b] = quoted | escaped;
            b += 1;
        }
        table
    }

    static FLAGS_COMMA: [u8; 256] = flag_table(b',');
    static FLAGS_PIPE: [u8; 256] = flag_table(b'|');
    static FLAGS_TAB: [u8; 256] = flag_table(b'\t');

    #[test]
    fn the_chunk_rule_is_the_tables_rule_for_every_byte() {
        for delim in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
            let table = match delim {
                Delimiter::Comma => &FLAGS_COMMA,
                Delimiter::Tab => &FLAGS_TAB,
                Delimiter::Pipe => &FLAGS_PIPE,
            };
            for byte in 0..=255u8 {
                let mut chunk = [b'a'; 16];
                chunk[7] = byte;
                let chunk = &chunk;
                assert_eq!(
                    chunk_flags(chunk, delim.as_byte()),
                    table[usize::from(byte)],
                    "{byte:#x} under {delim:?}"
                );
            }
        }
    }

    #[test]
    fn a_special_byte_anywhere_in_a_long_value_is_found() {
        // In a whole sixteen-byte chunk and in the overlapping tail alike.
        for place in 0..20 {
            let mut text = vec![b'a'; 20];
            text[place] = b':';
            let colon = String::from_utf8(text.clone()).expect("ascii");
            assert_eq!(value(&colon, Delimiter::Comma), format!("\"{colon}\""));
            text[place] = b'"';
            let quote = String::from_utf8(text).expect("ascii");
            let escaped = quote.replace('"', "\\\"");
            assert_eq!(value(&quote, Delimiter::Comma), format!("\"{escaped}\""));
        }
    }

    #[test]
    fn bare_values_stay_bare() {
        for s in [
            "hello",
            "Ada_99",
            "café",
            "你好",
            "🚀",
            "hello 👋 world",
            "a b",
            "+a",
            "1.",
            ".5",
            "1e",
            "1.2.3",
            "0x10",
            "Infinity",
            "NaN",
            "True",
            "nul",
            "trueish",
            "a-b",
            "a#",
            "a,b|c",
        ] {
            let delim = if s.contains(',') {
                Delimiter::Tab
            } else {
                Delimiter::Comma
            };
            assert_eq!(value(s, delim), s, "{s:?} should stay bare");
        }
    }

    #[test]
    fn ambiguous_values_are_quoted() {
        for s in [
            "",
            " ",
            " a",
            "a ",
            "true",
            "false",
            "null",
            "42",
            "-3.14",
            "+1",
            "1e-6",
            "1E+9",
            "05",
            "3.0e5",
            "-",
            "- item",
            "-lead",
            "#",
            "#x",
            "a:b",
            "say \"hi\"",
            "C:\\x",
            "[5]",
            "{key}",
            "a]",
            "x}",
        ] {
            let got = value(s, Delimiter::Comma);
            assert!(
                got.starts_with('"') && got.ends_with('"'),
                "{s:?} gave {got}"
            );
        }
    }

    #[test]
    fn only_the_active_delimiter_forces_quotes() {
        assert_eq!(value("a,b", Delimiter::Comma), "\"a,b\"");
        assert_eq!(value("a,b", Delimiter::Pipe), "a,b");
        assert_eq!(value("a|b", Delimiter::Pipe), "\"a|b\"");
        assert_eq!(value("a|b", Delimiter::Comma), "a|b");
        assert_eq!(value("a\tb", Delimiter::Tab), "\"a\\tb\"");
        // Tabs are control characters, so they are quoted under every delimiter.
        assert_eq!(value("a\tb", Delimiter::Comma), "\"a\\tb\"");
    }

    #[test]
    fn escapes() {
        assert_eq!(value("line1\nline2", Delimiter::Comma), r#""line1\nline2""#);
        assert_eq!(value("a\rb", Delimiter::Comma), r#""a\rb""#);
        assert_eq!(value("C:\\Users", Delimiter::Comma), r#""C:\\Users""#);
        assert_eq!(value("say \"x\"", Delimiter::Comma), r#""say \"x\"""#);
        assert_eq!(value("a\u{4}b", Delimiter::Comma), r#""a\u0004b""#);
        assert_eq!(value("x\u{1f}y", Delimiter::Comma), r#""x\u001fy""#);
        assert_eq!(value("\u{0}", Delimiter::Comma), r#""\u0000""#);
        // DEL and non-ASCII are not escaped.
        assert_eq!(value("é:\u{7f}", Delimiter::Comma), "\"é:\u{7f}\"");
    }

    #[test]
    fn keys() {
        for s in ["a", "_x", "user.name", "A1_b.c", "__proto__"] {
            assert_eq!(key(s), s);
        }
        assert_eq!(key(""), "\"\"");
        assert_eq!(key("123"), "\"123\"");
        assert_eq!(key("1a"), "\"1a\"");
        assert_eq!(key("full name"), "\"full name\"");
        assert_eq!(key("order:id"), "\"order:id\"");
        assert_eq!(key("-lead"), "\"-lead\"");
        assert_eq!(key("a-b"), "\"a-b\"");
        assert_eq!(key(".a"), "\".a\"");
        assert_eq!(key("tab\there"), r#""tab\there""#);
        assert_eq!(key("é"), "\"é\"");
    }
}
