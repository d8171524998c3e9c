//! End-to-end tests: the library facade and the CLI against the fixture projects.

mod budget;
mod change;
mod cli;
mod concurrency;
mod confinement;
mod crash;
mod dependencies;
mod deps;
mod encodings;
mod facade;
mod function_values;
mod graph_file;
mod layering;
mod live;
mod lsp;
mod mcp;
mod monorepo;
mod process;
mod resolution_shapes;
mod store_errors;
mod store_size;
mod tools;
mod topic_docs;
mod type_positions;
mod unresolved;
mod watch;
