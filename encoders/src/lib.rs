//! Output encoders for tsgraph: the TOON v4 library (usable on its own with
//! `default-features = false`) and, behind the default `graph` feature, the encoders
//! that turn query results into TOON, JSON and other formats.

pub mod tokens;
pub mod toon;

#[cfg(feature = "graph")]
pub mod graph;
