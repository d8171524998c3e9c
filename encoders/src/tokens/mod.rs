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

mod cost;
mod known;
mod pieces;

use std::cell::Cell;
use std::io::{self, Write};
use std::rc::Rc;

use cost::cost;
use pieces::for_each_piece;

/// The summed cost of the pieces of `text`.
fn pieces_cost(text: &[u8]) -> f64 {
    let mut total = 0.0;
    for_each_piece(text, |class, joined, len| total += cost(class, joined, len));
    total
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
    use super::pieces::Class;
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
