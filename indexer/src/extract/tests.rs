//! Extraction tests: the summary of small sources.
