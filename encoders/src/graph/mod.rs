//! Encoders of query results: each implements [`tsgraph_query::ResultSink`] over any
//! `io::Write`, reading node records zero-copy as the query lends them and writing straight
//! into the writer — no intermediate tree, no owned copies of records.

mod json;
mod jsonl;
mod node_fields;
mod toon;

pub use json::JsonSink;
pub use jsonl::JsonLinesSink;
pub use toon::ToonSink;
