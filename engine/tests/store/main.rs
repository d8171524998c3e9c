//! Integration tests of the store through its public API: damaged files, and the errors an
//! open reports for locks and permissions.

#![allow(clippy::unwrap_used)] // A failed setup step is the test failing.

mod corruption;
mod open_errors;
