//! Positions in a text as the client counts them, and names on a line. The Language Server
//! Protocol counts columns in the negotiated encoding's code units (UTF-16 unless both sides
//! agree otherwise); the graph records lines, so a column is found by looking for the name
//! on its line.

use lsp_types::{Position, PositionEncodingKind, Range};

/// The unit a column counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

impl Encoding {
    /// The first of the client's offered encodings this server prefers (UTF-8, which costs
    /// nothing to convert, then UTF-32), else UTF-16, which every client must accept.
    pub(crate) fn negotiate(offered: &[PositionEncodingKind]) -> Encoding {
        if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else if offered.contains(&PositionEncodingKind::UTF32) {
            Encoding::Utf32
        } else {
            Encoding::Utf16
        }
    }

    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }

    /// The column of byte `byte` of `line`, in code units.
    pub(crate) fn column(self, line: &str, byte: usize) -> u32 {
        let head = &line[..floor_char_boundary(line, byte)];
        let units: usize = match self {
            Encoding::Utf8 => head.len(),
            _ => head.chars().map(|c| self.units(c)).sum(),
        };
        u32::try_from(units).unwrap_or(u32::MAX)
    }

    /// The byte of `line` at `column` code units; a column past the end of the line is its
    /// end, and one inside a character is that character's start (as the protocol says).
    pub(crate) fn byte(self, line: &str, column: u32) -> usize {
        let mut units = 0usize;
        for (at, c) in line.char_indices() {
            let next = units + self.units(c);
            if next > column as usize {
                return at;
            }
            units = next;
        }
        line.len()
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The byte offset of `position` in `text`; a line past the end is an error (the client and
/// the server disagree about the text).
pub(crate) fn offset(text: &str, position: Position, encoding: Encoding) -> Result<usize, String> {
    let start = line_start(text, position.line).ok_or_else(|| {
        format!(
            "line {} is past the end of the text ({} lines)",
            position.line,
            text.lines().count()
        )
    })?;
    let line = line_at(text, start);
    Ok(start + encoding.byte(line, position.character))
}

/// Where line `line` (zero-based) starts, if the text has it.
fn line_start(text: &str, line: u32) -> Option<usize> {
    let mut start = 0;
    for _ in 0..line {
        start += text[start..].find('\n')? + 1;
    }
    Some(start)
}

/// The line starting at byte `start`, without its line break.
fn line_at(text: &str, start: usize) -> &str {
    let rest = &text[start..];
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    line.strip_suffix('\r').unwrap_or(line)
}

/// Line `line` (zero-based) of `text`, without its line break; empty past the end.
pub(crate) fn line(text: &str, line: u32) -> &str {
    line_start(text, line).map_or("", |start| line_at(text, start))
}

fn is_identifier(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier under (or just before) byte `at` of `line`.
pub(crate) fn word_at(line: &str, at: usize) -> Option<&str> {
    let at = floor_char_boundary(line, at);
    let start = line[..at]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_identifier(*c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = at
        + line[at..]
            .char_indices()
            .find(|(_, c)| !is_identifier(*c))
            .map_or(line.len() - at, |(i, _)| i);
    (start < end).then(|| &line[start..end])
}

/// The byte offsets where `name` stands as a whole identifier in `line`.
pub(crate) fn occurrences(line: &str, name: &str) -> Vec<usize> {
    if name.is_empty() {
        return Vec::new();
    }
    line.match_indices(name)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = line[..at].chars().next_back();
            let after = line[at + name.len()..].chars().next();
            !before.is_some_and(is_identifier) && !after.is_some_and(is_identifier)
        })
        .collect()
}

/// The range of bytes `start..end` of line `line` (zero-based), in code units.
pub(crate) fn range_on(
    text_line: &str,
    line: u32,
    (start, end): (usize, usize),
    encoding: Encoding,
) -> Range {
    Range {
        start: Position {
            line,
            character: encoding.column(text_line, start),
        },
        end: Position {
            line,
            character: encoding.column(text_line, end),
        },
    }
}

/// The range of `line`'s text from its first non-blank character to its end: where a use
/// stands when its name is not on the line (an aliased import, a default export).
pub(crate) fn trimmed_range(text_line: &str, line: u32, encoding: Encoding) -> Range {
    let start = text_line.len() - text_line.trim_start().len();
    let end = text_line.trim_end().len().max(start);
    range_on(text_line, line, (start, end), encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_the_negotiated_units() {
        // "é" is 2 bytes, 1 UTF-16 unit; "😀" is 4 bytes, 2 UTF-16 units, 1 UTF-32 unit.
        let line = "é😀x";
        let x = line.find('x').expect("x");
        assert_eq!(Encoding::Utf8.column(line, x), 6);
        assert_eq!(Encoding::Utf16.column(line, x), 3);
        assert_eq!(Encoding::Utf32.column(line, x), 2);
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let column = encoding.column(line, x);
            assert_eq!(encoding.byte(line, column), x, "{encoding:?}");
        }
        // Inside the surrogate pair: the character's start; past the end: the line's end.
        assert_eq!(Encoding::Utf16.byte(line, 2), 2);
        assert_eq!(Encoding::Utf16.byte(line, 99), line.len());
    }

    #[test]
    fn offsets_find_lines_and_refuse_lines_past_the_end() {
        let text = "ab\r\nçd\nlast";
        let at = |line, character| offset(text, Position { line, character }, Encoding::Utf16);
        assert_eq!(at(1, 1), Ok(text.find('d').expect("d")));
        assert_eq!(at(1, 9), Ok(text.find('\n').expect("nl") + 1 + "çd".len()));
        assert_eq!(at(2, 4), Ok(text.len()));
        assert!(at(3, 0).unwrap_err().contains("line 3"));
        assert_eq!(line(text, 0), "ab");
        assert_eq!(line(text, 5), "");
    }

    #[test]
    fn words_and_occurrences_respect_identifier_bounds() {
        let line = "  const $x = helper(helperTwo, helper);";
        let at = line.find("elper(").expect("helper");
        assert_eq!(word_at(line, at), Some("helper"));
        assert_eq!(word_at(line, line.find('$').expect("$")), Some("$x"));
        // Just after an identifier counts as on it.
        assert_eq!(word_at(line, line.find('(').expect("(")), Some("helper"));
        assert_eq!(word_at("  = ", 3), None);
        let found = occurrences(line, "helper");
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|&at| &line[at..at + 6] == "helper"));
        assert!(occurrences(line, "").is_empty());
    }
}
