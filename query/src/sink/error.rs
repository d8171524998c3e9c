//! Why a sink could not take a result.

use std::fmt::Display;
use std::io;

/// A sink's failure, which aborts the query (the query returns it as
/// [`crate::QueryError::Output`]). Like ripgrep's `SinkError`, it is made from an I/O error
/// or from a message, so that an encoder's own errors reach the caller as what they are
/// rather than dressed as I/O.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SinkError {
    /// Writing the output failed (a closed pipe, a full disk).
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The sink refused what it was given (an encoder's own rule was broken).
    #[error("{0}")]
    Message(String),
}

impl SinkError {
    /// An error saying `message`.
    pub fn message(message: impl Display) -> SinkError {
        SinkError::Message(message.to_string())
    }

    /// The I/O error underneath, if writing failed.
    pub fn io(&self) -> Option<&io::Error> {
        match self {
            SinkError::Io(err) => Some(err),
            SinkError::Message(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_error_stays_visible_and_a_message_reads_as_given() {
        let closed = SinkError::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(
            closed.io().map(io::Error::kind),
            Some(io::ErrorKind::BrokenPipe)
        );
        let refused = SinkError::message("a table row with 3 cells, 4 expected");
        assert!(refused.io().is_none());
        assert_eq!(refused.to_string(), "a table row with 3 cells, 4 expected");
    }
}
