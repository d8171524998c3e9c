//! Conformance and property tests of the TOON library against the spec's fixture vectors.

mod fixtures;
mod encode;
mod decode;
mod roundtrip;
