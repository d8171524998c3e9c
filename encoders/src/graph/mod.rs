//! Encoders of query results (TOON, hierarchical text, JSON, Mermaid) and of the whole graph
//! for `export` (JSON lines, GraphML, Graphviz DOT, Neo4j admin-import CSV): each
//! implements [`tsgraph_query::ResultSink`] over any
//! `io::Write`, reading node records zero-copy as the query lends them and writing straight
//! into the writer — no intermediate tree, no owned copies of records.

mod budget;
mod dot;
mod graphml;
mod json;
mod jsonl;
mod mermaid;
mod neo4j;
mod node_fields;
mod properties;
mod text;
mod toon;

pub use dot::DotSink;
pub use graphml::GraphMlSink;

pub use json::JsonSink;
pub use jsonl::JsonLinesSink;
pub use mermaid::MermaidSink;
pub use neo4j::Neo4jCsvSink;
pub use text::{SnippetSource, TextSink};
pub use toon::ToonSink;
