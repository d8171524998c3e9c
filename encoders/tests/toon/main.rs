//! Conformance and property tests of the TOON library against the spec's fixture vectors.

mod decode;
mod encode;
mod fixtures;
mod records;
mod roundtrip;
