//! Integration tests of the indexer crate (one binary).

mod incremental;
mod kept_model;
mod model_fixtures;
mod resume;
mod walk_listing;
