//! Line scanner: splits the input into content lines on demand, strips comments, blank lines and
//! CRs, and measures each line's depth.
//!
//! The scanner is lazy so that a decode that fails early (e.g. at the depth limit) never touches
//! the rest of a huge input.

use super::MAX_DEPTH;
use super::error::{DecodeError, ErrorKind, Fault};

/// One content line (not blank, not a comment).
#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'a> {
    /// 1-based line number.
    pub(super) number: usize,
    /// Indentation level.
    pub(super) depth: usize,
    /// The text after the indentation, without the line ending.
    pub(super) text: &'a str,
    /// The first blank line between the previous content line and this one, if any.
    pub(super) blank_before: Option<usize>,
    /// Leading spaces (bytes of `raw` before `text`).
    indent: usize,
    /// The whole line without its line ending, for column numbers.
    raw: &'a str,
}

impl Line<'_> {
    /// An error at byte offset `at` of `text`.
    pub(super) fn error(&self, at: usize, kind: ErrorKind) -> DecodeError {
        let byte = self.indent.saturating_add(at);
        // Columns count characters; the offset need not be a char boundary, so count the chars
        // that start before it rather than slicing.
        let column = self
            .raw
            .char_indices()
            .take_while(|(i, _)| *i < byte)
            .count()
            + 1;
        DecodeError::at(self.number, column, kind)
    }

    /// Locates a [`Fault`] on this line.
    pub(super) fn fault(&self, fault: Fault) -> DecodeError {
        self.error(fault.at, fault.kind)
    }
}

/// The lazy scanner with one line of lookahead.
pub(super) struct Lines<'a> {
    rest: Option<&'a str>,
    number: usize,
    indent: usize,
    strict: bool,
    peeked: Option<Line<'a>>,
}

impl<'a> Lines<'a> {
    /// A scanner over `input` with `indent` spaces per level (must be ≥ 1).
    pub(super) fn new(input: &'a str, indent: usize, strict: bool) -> Self {
        Lines {
            rest: Some(input),
            number: 0,
            indent: indent.max(1),
            strict,
            peeked: None,
        }
    }

    /// The next content line, without consuming it.
    pub(super) fn peek(&mut self) -> Result<Option<Line<'a>>, DecodeError> {
        if self.peeked.is_none() {
            self.peeked = self.scan()?;
        }
        Ok(self.peeked)
    }

    /// Consumes the line returned by the last [`peek`](Self::peek).
    pub(super) fn advance(&mut self) {
        self.peeked = None;
    }

    fn scan(&mut self) -> Result<Option<Line<'a>>, DecodeError> {
        let mut blank_before = None;
        while let Some(rest) = self.rest {
            let (raw, next) = match rest.find('\n') {
                Some(end) => (&rest[..end], Some(&rest[end + 1..])),
                None => (rest, None),
            };
            self.rest = next;
            self.number += 1;
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let indent = raw.len() - raw.trim_start_matches(' ').len();
            let text = &raw[indent..];
            if text.bytes().all(|b| b == b' ' || b == b'\t') {
                blank_before.get_or_insert(self.number);
                continue;
            }
            // Comments are `^ *#`: only spaces may precede the hash, so a tab-indented hash
            // line is an indentation error below rather than a comment.
            if text.starts_with('#') {
                continue;
            }
            let line = Line {
                number: self.number,
                depth: 0,
                text,
                blank_before,
                indent,
                raw,
            };
            if text.starts_with('\t') {
                return Err(line.error(0, ErrorKind::TabIndent));
            }
            if self.strict && indent % self.indent != 0 {
                let kind = ErrorKind::IndentNotMultiple {
                    spaces: indent,
                    indent: self.indent,
                };
                return Err(line.error(0, kind));
            }
            let depth = indent / self.indent;
            if depth > MAX_DEPTH {
                return Err(line.error(0, ErrorKind::TooDeep { limit: MAX_DEPTH }));
            }
            return Ok(Some(Line { depth, ..line }));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(
        input: &str,
        indent: usize,
        strict: bool,
    ) -> Result<Vec<(usize, usize, String)>, String> {
        let mut lines = Lines::new(input, indent, strict);
        let mut out = Vec::new();
        loop {
            match lines.peek() {
                Ok(Some(line)) => {
                    out.push((line.number, line.depth, line.text.to_owned()));
                    lines.advance();
                }
                Ok(None) => return Ok(out),
                Err(err) => return Err(err.to_string()),
            }
        }
    }

    #[test]
    fn strips_comments_blanks_and_crs() {
        let got = all("# c\r\na: 1\r\n\r\n   # odd\n  b: 2\r", 2, true);
        assert_eq!(got, Ok(vec![(2, 0, "a: 1".into()), (5, 1, "b: 2".into())]));
    }

    #[test]
    fn reports_indentation_errors_with_positions() {
        assert_eq!(
            all("a:\n   b: 1", 2, true),
            Err("2:4: indentation of 3 spaces is not a multiple of 2".into())
        );
        assert_eq!(
            all("a:\n \tb: 1", 2, true),
            Err("2:2: tab character in indentation".into())
        );
        assert_eq!(
            all("a:\n   b: 1", 2, false),
            Ok(vec![(1, 0, "a:".into()), (2, 1, "b: 1".into())])
        );
    }

    #[test]
    fn records_the_first_blank_line_before_a_line() {
        let mut lines = Lines::new("a\n\n \nb", 2, true);
        assert_eq!(
            lines.peek().ok().flatten().and_then(|l| l.blank_before),
            None
        );
        lines.advance();
        assert_eq!(
            lines.peek().ok().flatten().and_then(|l| l.blank_before),
            Some(2)
        );
    }

    #[test]
    fn columns_count_characters() {
        let line = Line {
            number: 1,
            depth: 0,
            text: "é: \"x",
            blank_before: None,
            indent: 0,
            raw: "é: \"x",
        };
        assert_eq!(
            line.error(4, ErrorKind::UnterminatedString).to_string(),
            "1:4: unterminated string"
        );
    }
}
