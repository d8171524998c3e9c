//! Encoders of query results (TOON, hierarchical text, JSON, JSON lines, Mermaid): each
//! implements [`tsgraph_query::ResultSink`] over any
//! `io::Write`, reading node records zero-copy as the query lends them and writing straight
//! into the writer — no intermediate tree, no owned copies of records.

mod json;
mod jsonl;
mod mermaid;
mod node_fields;
mod text;
mod toon;

pub use json::JsonSink;
pub use jsonl::JsonLinesSink;
pub use mermaid::MermaidSink;
pub use text::{SnippetSource, TextSink};
pub use toon::ToonSink;
