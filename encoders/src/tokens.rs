//! A calibrated estimate of how many o200k tokens a text costs, without the tokenizer's
//! vocabulary (several megabytes, loaded per process): the text is split the way o200k's
//! pre-tokenizer splits it (words at case changes, digits in threes, punctuation runs,
//! whitespace), and each piece costs what pieces of its class and length cost on average in
//! tsgraph's own answers. The table was fitted against tiktoken's o200k_base on about 2,000
//! answers (callers, callees, impact, neighbors, file symbols and search, whole and
//! budgeted) of eight real packages in every format; on the half held out, 95 % of the
//! estimates fell within 6 % of the real count. The tests in `tests/tests/e2e/budget.rs` hold
//! it to ±10 % on the seeds' cases and on large answers.
//!
//! ```
//! use tsgraph_encoders::tokens::estimate;
//! let tokens = estimate(b"callers: \"src/utils.ts:formatDate\"\n");
//! assert!((8..=14).contains(&tokens));
//! ```

use std::cell::Cell;
use std::io::{self, Write};
use std::rc::Rc;

/// What a piece of text is, as o200k's pre-tokenizer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Lower-case letters (`offset`, `create`).
    Lower,
    /// An upper-case run then lower-case letters (`User`, `HTTPServer`).
    Capital,
    /// Upper-case letters only (`CALLS`).
    Upper,
    /// A word tsgraph writes itself, or a TypeScript keyword or common type: one token.
    Known,
    /// Punctuation, possibly after one space.
    Punct,
    /// Up to three digits: one token.
    Digits,
    /// A run of whitespace: one token.
    Space,
    /// `_` and a digit: the start of a Mermaid escape in a node id (`_2f`).
    Escape,
    /// Letters right after an escape's digit (`fdb` of `_2fdb`): the escape's hex letter
    /// glued to the word after it, which splits into odd pieces.
    Glued,
}

/// Words of tsgraph's own answers and of TypeScript signatures, each a single o200k token
/// (alone or after a space); sorted by bytes, so that the words of one first letter are one
/// range of [`KNOWN_BY_FIRST`].
const KNOWN: &[&str] = &[
    "Array",
    "CALLS",
    "CONTAINS",
    "Class",
    "EXTENDS",
    "File",
    "Function",
    "IMPLEMENTS",
    "IMPORTS",
    "INCLUDES",
    "Interface",
    "Map",
    "Method",
    "Partial",
    "Promise",
    "Property",
    "REFERENCES",
    "Readonly",
    "Record",
    "Set",
    "TYPE",
    "Type",
    "USES",
    "Variable",
    "add",
    "and",
    "any",
    "args",
    "async",
    "at",
    "be",
    "boolean",
    "by",
    "call",
    "callee",
    "callees",
    "caller",
    "callers",
    "calls",
    "cjs",
    "class",
    "classDef",
    "classes",
    "config",
    "const",
    "could",
    "create",
    "data",
    "delete",
    "dependents",
    "depth",
    "direct",
    "dist",
    "edges",
    "error",
    "export",
    "exported",
    "false",
    "file",
    "files",
    "fill",
    "flowchart",
    "fn",
    "from",
    "function",
    "functions",
    "get",
    "has",
    "id",
    "in",
    "index",
    "interface",
    "interfaces",
    "is",
    "it",
    "js",
    "kind",
    "lib",
    "limit",
    "lines",
    "may",
    "method",
    "methods",
    "mjs",
    "module",
    "name",
    "never",
    "new",
    "nodes",
    "not",
    "null",
    "number",
    "of",
    "offset",
    "on",
    "options",
    "or",
    "package",
    "properties",
    "property",
    "props",
    "queried",
    "reach",
    "readonly",
    "relationship",
    "remove",
    "resolved",
    "result",
    "return",
    "set",
    "sig",
    "sites",
    "source",
    "src",
    "state",
    "static",
    "string",
    "stroke",
    "target",
    "test",
    "this",
    "through",
    "to",
    "transitive",
    "true",
    "ts",
    "tsx",
    "type",
    "types",
    "undefined",
    "unknown",
    "unresolved",
    "update",
    "use",
    "value",
    "variable",
    "variables",
    "via",
    "void",
    "width",
    "with",
];

/// For each first byte, the range of [`KNOWN`] whose words start with it: a word is looked
/// up among the few of its first letter, length first, since this runs for every word of
/// every answer measured against a budget (several times per answer while a cut is sought).
static KNOWN_BY_FIRST: [(u8, u8); 128] = {
    let mut ranges = [(0u8, 0u8); 128];
    let mut i = 0;
    while i < KNOWN.len() {
        let first = KNOWN[i].as_bytes()[0] as usize;
        if ranges[first].1 == 0 {
            ranges[first].0 = i as u8;
        }
        ranges[first].1 = i as u8 + 1;
        i += 1;
    }
    ranges
};

/// Whether `word` is one of [`KNOWN`].
fn is_known(word: &[u8]) -> bool {
    let Some(&first) = word.first() else {
        return false;
    };
    let Some(&(start, end)) = KNOWN_BY_FIRST.get(usize::from(first)) else {
        return false;
    };
    KNOWN[usize::from(start)..usize::from(end)]
        .iter()
        .any(|known| known.len() == word.len() && known.as_bytes() == word)
}

/// Tokens of a piece by class, by whether one character joins it from the left (a space or a
/// punctuation mark before a word, a space before punctuation), and by length 0..=16; longer
/// pieces add a quarter token a character. Fitted by least squares on the relative error
/// over answers of every format, pulled towards a smooth prior (ridge) so that rare pieces
/// keep sensible costs; the weights absorb what the pieces around them cost, so some are
/// below one.
#[rustfmt::skip]
const COST: [[[f32; 17]; 2]; 5] = [
    // Lower
    [
        [1.00, 1.26, 0.53, 1.55, 1.05, 1.05, 1.92, 1.92, 1.06, 1.06, 0.30, 0.30, 0.30, 1.85, 1.85, 1.85, 1.85],
        [1.00, 1.54, 1.21, 1.43, 1.59, 1.59, 1.81, 1.81, 0.99, 0.99, 2.67, 2.67, 2.67, 0.30, 0.30, 0.30, 0.30],
    ],
    // Capital
    [
        [1.00, 1.00, 1.97, 1.15, 0.88, 0.88, 0.87, 0.87, 1.41, 1.41, 2.26, 2.26, 2.26, 2.80, 2.80, 2.80, 2.80],
        [1.00, 1.00, 2.27, 1.66, 1.80, 1.80, 1.11, 1.11, 3.36, 3.36, 2.73, 2.73, 2.73, 0.72, 0.72, 0.72, 0.72],
    ],
    // Upper
    [
        [1.00, 0.71, 2.39, 0.50, 2.73, 2.73, 1.67, 1.67, 1.89, 1.89, 2.22, 2.22, 2.22, 2.49, 2.49, 2.49, 2.49],
        [1.00, 0.46, 2.35, 0.92, 1.22, 1.22, 1.70, 1.70, 1.62, 1.62, 2.31, 2.31, 2.31, 2.38, 2.38, 2.38, 2.38],
    ],
    // Known
    [
        [1.00, 1.00, 2.54, 1.08, 1.38, 1.38, 1.77, 1.77, 1.96, 1.96, 4.04, 4.04, 4.04, 4.04, 4.04, 4.04, 4.04],
        [1.00, 1.00, 0.79, 1.36, 1.99, 1.99, 1.09, 1.09, 1.00, 1.00, 1.79, 1.79, 1.79, 1.79, 1.79, 1.79, 1.79],
    ],
    // Punct
    [
        [1.00, 0.57, 0.70, 0.78, 0.75, 0.75, 2.02, 2.02, 2.15, 2.15, 2.15, 2.15, 2.15, 2.50, 2.50, 2.50, 2.50],
        [1.00, 0.30, 0.30, 0.89, 2.66, 2.66, 1.60, 1.60, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90],
    ],
];

/// Tokens of a run of one, two or three digits (fitted with [`COST`]).
const DIGITS: [f64; 3] = [1.39, 1.43, 1.05];

/// Tokens of a run of whitespace (fitted with [`COST`]).
const SPACE: f64 = 0.75;

/// Tokens of a Mermaid escape (`_2f`; fitted with [`COST`]).
const ESCAPE: f64 = 1.34;

/// Tokens of the letters glued to an escape, by length (fitted with [`COST`]).
const GLUED: [f64; 9] = [1.00, 1.27, 0.30, 2.24, 2.78, 2.26, 2.62, 2.65, 3.19];

/// The cost of one piece.
fn cost(class: Class, joined: bool, len: usize) -> f64 {
    match class {
        Class::Digits => return DIGITS[len.clamp(1, 3) - 1],
        Class::Space => return SPACE,
        Class::Escape => return ESCAPE,
        Class::Glued => return GLUED[len.min(GLUED.len() - 1)],
        _ => {}
    }
    let row = &COST[class as usize][usize::from(joined)];
    let capped = len.min(row.len() - 1);
    f64::from(row[capped]) + (len - capped) as f64 * 0.25
}

/// Estimated o200k tokens of `text` (see the module comment).
pub fn estimate(text: &[u8]) -> usize {
    let mut meter = Estimate::default();
    meter.feed(text);
    meter.tokens()
}

/// A running estimate over text fed in pieces. A piece split across two feeds is counted as
/// two, which over-counts by at most a token per feed.
#[derive(Debug, Default, Clone)]
pub struct Estimate {
    pub(crate) tokens: f64,
}

impl Estimate {
    /// Adds the pieces of `text`.
    pub fn feed(&mut self, text: &[u8]) {
        self.tokens += pieces_cost(text);
    }

    /// The estimate so far, rounded up.
    pub fn tokens(&self) -> usize {
        self.tokens.ceil() as usize
    }
}

fn is_letter(b: u8) -> bool {
    b.is_ascii_alphabetic() || b >= 0x80
}

fn is_lower(b: u8) -> bool {
    b.is_ascii_lowercase() || b >= 0x80
}

fn is_newline(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn is_punct(b: u8) -> bool {
    !is_letter(b) && !b.is_ascii_digit() && !is_space(b) && !is_newline(b)
}

/// The summed cost of the pieces of `text`.
fn pieces_cost(text: &[u8]) -> f64 {
    let mut total = 0.0;
    for_each_piece(text, |class, joined, len| total += cost(class, joined, len));
    total
}

/// Calls `f` with each piece of `text`: its class, whether a character joins it from the
/// left, and its length (for words, without that character).
fn for_each_piece(text: &[u8], mut f: impl FnMut(Class, bool, usize)) {
    let mut i = 0;
    while i < text.len() {
        let (len, piece) = piece_at(text, i);
        if let Some((class, joined, piece_len)) = piece {
            f(class, joined, piece_len);
        }
        i += len.max(1);
    }
}

/// The piece starting at `i`: its length in bytes, and its class, joining and length
/// (`None` for whitespace and digits, which cost one token each).
fn piece_at(text: &[u8], i: usize) -> (usize, Option<(Class, bool, usize)>) {
    let b = text[i];
    let next = text.get(i + 1).copied();
    let escape = b == b'_'
        && next.is_some_and(|d| d.is_ascii_digit())
        && text.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
    if escape {
        return (2, Some((Class::Escape, false, 2)));
    }
    let glued = i >= 2 && text[i - 2] == b'_' && text[i - 1].is_ascii_digit() && is_letter(b);
    if glued {
        let (len, _) = word_at(text, i);
        return (len, Some((Class::Glued, false, len)));
    }
    // One non-letter, non-digit character joins the word after it (` foo`, `.ts`, `"src`).
    let joined =
        !is_letter(b) && !b.is_ascii_digit() && !is_newline(b) && next.is_some_and(is_letter);
    if is_letter(b) || joined {
        let start = i + usize::from(joined);
        let (len, class) = word_at(text, start);
        let word = &text[start..start + len];
        let class = if is_known(word) { Class::Known } else { class };
        return (start + len - i, Some((class, joined, len)));
    }
    if b.is_ascii_digit() {
        let len = text[i..]
            .iter()
            .take(3)
            .take_while(|b| b.is_ascii_digit())
            .count();
        return (len, Some((Class::Digits, false, len)));
    }
    if is_space(b) || is_newline(b) {
        return (whitespace_len(text, i), Some((Class::Space, false, 1)));
    }
    // A punctuation run, with the newlines and slashes right after it; a single space before
    // it is taken by the whitespace rule below, which leaves it here.
    let mut end = i;
    while end < text.len() && is_punct(text[end]) {
        end += 1;
    }
    while end < text.len() && (is_newline(text[end]) || text[end] == b'/') {
        end += 1;
    }
    let joined = i > 0 && text[i - 1] == b' ';
    (end - i, Some((Class::Punct, joined, end - i)))
}

/// A word from `start`: upper-case letters then lower-case ones.
fn word_at(text: &[u8], start: usize) -> (usize, Class) {
    let mut end = start;
    while end < text.len() && text[end].is_ascii_uppercase() {
        end += 1;
    }
    let upper = end - start;
    while end < text.len() && is_lower(text[end]) {
        end += 1;
    }
    if end == start {
        return (1, Class::Lower);
    }
    let class = match (upper, end - start - upper) {
        (_, 0) => Class::Upper,
        (0, _) => Class::Lower,
        _ => Class::Capital,
    };
    (end - start, class)
}

/// Whitespace from `i`: up to and including a newline run, or spaces up to (not including)
/// the last one before a word or punctuation, which joins what follows.
fn whitespace_len(text: &[u8], i: usize) -> usize {
    let mut end = i;
    while end < text.len() && is_space(text[end]) {
        end += 1;
    }
    if end < text.len() && is_newline(text[end]) {
        while end < text.len() && is_newline(text[end]) {
            end += 1;
        }
        return end - i;
    }
    let joins_next = end < text.len() && !text[end].is_ascii_digit() && end - i > 1;
    if joins_next { end - i - 1 } else { end - i }
}

/// A writer that discards what it is given and estimates its tokens, failing with
/// [`OverBudget`] as soon as the estimate passes `limit`, so that an answer too large for
/// a budget stops being encoded at once. Clones share one count, so the count can be read
/// after a sink that owned the meter is gone.
#[derive(Debug, Clone)]
pub struct TokenMeter {
    estimate: Estimate,
    limit: usize,
    shared: Rc<Cell<usize>>,
}

/// The error a [`TokenMeter`] fails with past its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverBudget;

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the answer passes its token budget")
    }
}

impl std::error::Error for OverBudget {}

impl OverBudget {
    /// Whether `err` is a meter's refusal.
    pub fn is(err: &io::Error) -> bool {
        err.get_ref().is_some_and(|e| e.is::<OverBudget>())
    }
}

impl TokenMeter {
    /// A meter that fails past `limit` tokens.
    pub fn new(limit: usize) -> TokenMeter {
        TokenMeter {
            estimate: Estimate::default(),
            limit,
            shared: Rc::new(Cell::new(0)),
        }
    }

    /// The estimate so far (over every clone).
    pub fn tokens(&self) -> usize {
        self.shared.get()
    }
}

impl Write for TokenMeter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.estimate.feed(buf);
        let tokens = self.estimate.tokens();
        self.shared.set(tokens);
        if tokens > self.limit {
            return Err(io::Error::other(OverBudget));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Calibration: the feature name of each piece (class, joining, length), for fitting the
/// cost table against a real tokenizer.
#[doc(hidden)]
pub fn features(text: &[u8], mut f: impl FnMut(String)) {
    for_each_piece(text, |class, joined, len| {
        f(format!("{class:?}-{}-{}", u8::from(joined), len.min(16)));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_at_case_changes() {
        let mut words = Vec::new();
        for_each_piece(b"buildUserStore HTTPServer", |class, joined, len| {
            words.push((class, joined, len));
        });
        assert_eq!(
            words,
            vec![
                (Class::Lower, false, 5),
                (Class::Capital, false, 4),
                (Class::Capital, false, 5),
                (Class::Capital, true, 10),
            ]
        );
        assert!((1..=2).contains(&estimate(b"offset")));
    }

    #[test]
    fn the_known_words_are_sorted_so_that_each_first_letter_is_one_range() {
        assert!(KNOWN.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
        assert!(KNOWN.len() < usize::from(u8::MAX));
        assert!(KNOWN.iter().all(|k| !k.is_empty() && k.is_ascii()));
    }

    #[test]
    fn every_known_word_and_nothing_else_is_known() {
        for known in KNOWN {
            assert!(is_known(known.as_bytes()), "{known}");
            let longer = format!("{known}s");
            assert_eq!(
                is_known(longer.as_bytes()),
                KNOWN.contains(&longer.as_str())
            );
            assert!(
                !is_known(&known.as_bytes()[..known.len() - 1])
                    || KNOWN.contains(&&known[..known.len() - 1])
            );
        }
        for other in ["", "zzz", "Arra", "é", "\u{80}"] {
            assert!(!is_known(other.as_bytes()), "{other}");
        }
    }

    #[test]
    fn digits_go_in_threes() {
        let mut pieces = 0;
        for_each_piece(b"1234567", |class, _, _| {
            assert_eq!(class, Class::Digits);
            pieces += 1;
        });
        assert_eq!(pieces, 3);
    }

    #[test]
    fn longer_text_costs_more() {
        let short = estimate(b"callers: \"src/a.ts:f\"\n");
        let long = estimate(b"callers: \"src/a.ts:f\"\nfunctions[2]{id,lines}:\n  g,1-3\n  h,4\n");
        assert!(long > short + 10, "{short} {long}");
    }

    #[test]
    fn the_meter_fails_past_its_limit_and_not_before() {
        let mut meter = TokenMeter::new(5);
        let reader = meter.clone();
        meter.write_all(b"one two").unwrap();
        assert!((2..=4).contains(&reader.tokens()));
        let err = meter
            .write_all(b" three four five six seven eight")
            .unwrap_err();
        assert!(OverBudget::is(&err));
    }
}
