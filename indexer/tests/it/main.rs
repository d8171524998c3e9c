//! Integration tests of the indexer crate (one binary).

mod incremental;
mod model_fixtures;
mod resume;
mod walk_listing;
