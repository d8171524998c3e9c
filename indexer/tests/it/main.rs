//! Integration tests of the indexer crate (one binary).

mod model_fixtures;
