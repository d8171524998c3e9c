//! Measuring an answer against a token budget: the query runs a candidate listing into a
//! sink of the same format writing into a [`TokenMeter`], which stops it as soon as the
//! estimate passes the limit the query measures against (the aim, or a multiple of it for
//! a page the query wants to know the size of even past the aim).

use std::io::BufWriter;

use tsgraph_query::{Answer, QueryError, ResultSink};

use crate::tokens::{OverBudget, TokenMeter};

/// Runs `answer` into the sink `make` builds over a meter of `limit` tokens: its estimate,
/// or `None` when the answer passed the limit. The meter is fed through a buffer, as the
/// estimate was fitted on whole answers: a word split between two small writes would count
/// twice.
pub(super) fn measure<S: ResultSink>(
    limit: usize,
    make: impl FnOnce(BufWriter<TokenMeter>) -> S,
    answer: &mut Answer<'_>,
) -> Result<Option<usize>, QueryError> {
    let meter = TokenMeter::new(limit);
    let mut sink = make(BufWriter::with_capacity(8 * 1024, meter.clone()));
    match answer(&mut sink) {
        Ok(()) => Ok(Some(meter.tokens())),
        Err(QueryError::Output(err)) if err.io().is_some_and(OverBudget::is) => Ok(None),
        Err(err) => Err(err),
    }
}
