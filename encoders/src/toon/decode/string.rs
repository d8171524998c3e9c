//! Quoted strings and keys: unescaping `\\ \" \n \r \t \uXXXX`, rejecting everything else.

use super::error::{ErrorKind, Fault};

/// Parses the quoted token whose opening quote is at `open`; returns the unescaped string and
/// the offset just past the closing quote. Scanning stops at the end of `text`, so callers pass
/// `text` cut at the end of the token.
pub(super) fn parse_quoted(text: &str, open: usize) -> Result<(String, usize), Fault> {
    let body = text.get(open + 1..).unwrap_or("");
    // No capacity hint: `body` may run to the end of a long line, far past this token.
    let mut out = String::new();
    let mut chars = body.char_indices().map(|(i, c)| (open + 1 + i, c));
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Ok((out, at + 1)),
            '\\' => out.push(unescape(&mut chars, at)?),
            c => out.push(c),
        }
    }
    Err(Fault::new(open, ErrorKind::UnterminatedString))
}

/// Decodes the escape whose backslash is at `at`; `chars` is positioned after the backslash.
fn unescape(chars: &mut impl Iterator<Item = (usize, char)>, at: usize) -> Result<char, Fault> {
    let Some((_, c)) = chars.next() else {
        return Err(Fault::new(at, ErrorKind::UnterminatedString));
    };
    Ok(match c {
        '\\' => '\\',
        '"' => '"',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'u' => return unicode_escape(chars, at),
        other => {
            return Err(Fault::new(
                at,
                ErrorKind::InvalidEscape(format!("\\{other}")),
            ));
        }
    })
}

/// `\uXXXX`, where a high surrogate must be followed by `\uXXXX` naming a low one.
fn unicode_escape(
    chars: &mut impl Iterator<Item = (usize, char)>,
    at: usize,
) -> Result<char, Fault> {
    let high = hex4(chars, at)?;
    let code = match high {
        0xD800..=0xDBFF => {
            let backslash = chars.next().map(|(_, c)| c);
            let u = chars.next().map(|(_, c)| c);
            if backslash != Some('\\') || u != Some('u') {
                return Err(Fault::new(at, ErrorKind::LoneSurrogate));
            }
            let low = hex4(chars, at)?;
            if !(0xDC00..=0xDFFF).contains(&low) {
                return Err(Fault::new(at, ErrorKind::LoneSurrogate));
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        }
        0xDC00..=0xDFFF => return Err(Fault::new(at, ErrorKind::LoneSurrogate)),
        code => code,
    };
    char::from_u32(code).ok_or_else(|| Fault::new(at, ErrorKind::LoneSurrogate))
}

fn hex4(chars: &mut impl Iterator<Item = (usize, char)>, at: usize) -> Result<u32, Fault> {
    let mut code = 0;
    let mut seen = String::from("\\u");
    for _ in 0..4 {
        let digit = chars.next().map(|(_, c)| c);
        if let Some(c) = digit {
            seen.push(c);
        }
        match digit.and_then(|c| c.to_digit(16)) {
            Some(d) => code = code * 16 + d,
            None => return Err(Fault::new(at, ErrorKind::InvalidEscape(seen))),
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(text: &str) -> Result<(String, usize), String> {
        parse_quoted(text, 0).map_err(|f| format!("{}: {}", f.at, f.kind))
    }

    #[test]
    fn unescapes_the_allowed_escapes() {
        assert_eq!(
            quoted(r#""a\\b\"c\nd\re\tf" x"#),
            Ok(("a\\b\"c\nd\re\tf".into(), 18))
        );
        assert_eq!(
            quoted(r#""\u00E9\u0004\ud83d\ude80""#),
            Ok(("é\u{4}🚀".into(), 26))
        );
        assert_eq!(quoted("\"tab\tinside\""), Ok(("tab\tinside".into(), 12)));
    }

    #[test]
    fn rejects_bad_escapes_and_unterminated_strings() {
        assert_eq!(
            quoted(r#""a\x""#),
            Err(r"2: invalid escape sequence \x".into())
        );
        assert_eq!(
            quoted(r#""a\u00b""#),
            Err(r#"2: invalid escape sequence \u00b""#.into())
        );
        assert_eq!(
            quoted(r#""a\uD800b""#),
            Err("2: unpaired surrogate in \\u escape".into())
        );
        assert_eq!(
            quoted(r#""a\uDC00""#),
            Err("2: unpaired surrogate in \\u escape".into())
        );
        assert_eq!(quoted(r#""abc"#), Err("0: unterminated string".into()));
        assert_eq!(quoted(r#""abc\"#), Err("4: unterminated string".into()));
    }
}
