//! End-to-end tests: the library facade and the CLI against the fixture projects.

mod cli;
mod facade;
mod layering;
mod monorepo;
mod tools;
