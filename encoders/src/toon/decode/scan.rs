//! Quote-aware scanning within one line: finding the first unquoted structural character and
//! splitting cells on the active delimiter.
//!
//! A `"` toggles quoting and a backslash inside quotes skips the next byte, so a delimiter or
//! colon inside a quoted token never counts. All structural characters are ASCII, so scanning
//! bytes is safe on UTF-8 text: continuation bytes never match them.

use std::ops::Range;

/// The offset of the first byte at or after `from` outside quotes for which `hit` is true.
pub(super) fn find_unquoted(text: &str, from: usize, hit: impl Fn(u8) -> bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut in_quotes = false;
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        if in_quotes {
            match b {
                b'\\' => i += 1,
                b'"' => in_quotes = false,
                _ => {}
            }
        } else if b == b'"' {
            in_quotes = true;
        } else if hit(b) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Whether `text` has a colon outside quotes.
pub(super) fn has_unquoted_colon(text: &str) -> bool {
    find_unquoted(text, 0, |b| b == b':').is_some()
}

/// Splits `text[from..]` on unquoted `delimiter`s into trimmed spans (offsets into `text`).
/// Empty tokens are kept: `a,,c` has three cells.
pub(super) fn split_cells(text: &str, from: usize, delimiter: u8) -> Vec<Range<usize>> {
    let mut cells = Vec::new();
    let mut start = from;
    while let Some(end) = find_unquoted(text, start, |b| b == delimiter) {
        cells.push(trim(text, start..end));
        start = end + 1;
    }
    cells.push(trim(text, start..text.len()));
    cells
}

/// `range` without surrounding ASCII spaces and tabs. Other whitespace (e.g. NBSP) is data.
pub(super) fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let bytes = text.as_bytes();
    let (mut start, mut end) = (range.start, range.end);
    while start < end && matches!(bytes.get(start), Some(b' ' | b'\t')) {
        start += 1;
    }
    while end > start && matches!(bytes.get(end - 1), Some(b' ' | b'\t')) {
        end -= 1;
    }
    start..end
}

/// The offset of the first byte at or after `from` that is not an ASCII space.
pub(super) fn skip_spaces(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    while bytes.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// Whether the line is a list item: `- ` followed by content, or a bare `-`.
pub(super) fn is_list_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str, delimiter: u8) -> Vec<&str> {
        split_cells(text, 0, delimiter)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn splits_outside_quotes_only() {
        assert_eq!(
            cells(r#"a , "b,c" ,,"d\",e""#, b','),
            vec!["a", r#""b,c""#, "", r#""d\",e""#]
        );
        assert_eq!(cells("a,b\tc", b'\t'), vec!["a,b", "c"]);
        assert_eq!(cells("", b','), vec![""]);
    }

    #[test]
    fn finds_unquoted_colons() {
        assert_eq!(find_unquoted(r#""a:b": c"#, 0, |b| b == b':'), Some(5));
        assert!(!has_unquoted_colon(r#""a:b""#));
        assert!(!has_unquoted_colon(r#""unterminated:"#));
    }

    #[test]
    fn trims_ascii_blanks_but_not_nbsp() {
        let text = " \u{a0}x\t";
        assert_eq!(&text[trim(text, 0..text.len())], "\u{a0}x");
    }
}
