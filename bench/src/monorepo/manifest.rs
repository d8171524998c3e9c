//! `tsgraph-gen.json`: what a generated tree holds (files, lines, bytes, packages) and facts
//! a benchmark can query and check (direct callers of sampled symbols, long call chains).

use std::io;

use serde::Serialize;

use super::graph::CallFacts;
use super::{Ctx, GenOptions};

/// The manifest's file name, at the root of the tree.
pub const MANIFEST_FILE: &str = "tsgraph-gen.json";

/// Sampled symbols and call chains in the manifest.
const SAMPLES: usize = 20;
const CHAINS: usize = 5;

/// One package of the tree.
#[derive(Debug, Clone, Serialize)]
pub struct PackageSummary {
    /// Package name (`@gen/billing-3`).
    pub name: String,
    /// Folder from the root.
    pub dir: String,
    /// `hub`, `library` or `app`.
    pub kind: &'static str,
    /// Names of the workspace packages it depends on.
    pub deps: Vec<String>,
}

/// What was generated.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    /// Format of this file; bumped when a field changes meaning.
    pub format: u32,
    /// The seed.
    pub seed: u64,
    /// The requested source lines.
    pub target_lines: u64,
    /// Every file written, this manifest excluded.
    pub files: u64,
    /// Lines of those files.
    pub lines: u64,
    /// Bytes of those files.
    pub bytes: u64,
    /// `.ts`/`.tsx` files other than `.d.ts`: what an indexer parses.
    pub source_files: u64,
    /// Lines of the source files.
    pub source_lines: u64,
    /// Bytes of the source files.
    pub source_bytes: u64,
    /// The longest source file, in lines.
    pub max_file_lines: u64,
    /// Packages: hubs, libraries and apps.
    pub package_count: usize,
    /// Domain entities (each a feature folder in a library).
    pub entities: usize,
    /// What the generator knows about calls.
    pub calls: CallFacts,
    /// Every package with its dependencies (a DAG).
    pub packages: Vec<PackageSummary>,
}

/// Builds the manifest and writes it into the tree.
pub(crate) fn write(ctx: &mut Ctx<'_>, options: &GenOptions) -> io::Result<Manifest> {
    let s = ctx.stats;
    let packages = ctx
        .packages
        .iter()
        .map(|p| PackageSummary {
            name: p.name.clone(),
            dir: p.dir.clone(),
            kind: p.kind.name(),
            deps: p
                .deps
                .iter()
                .map(|&d| ctx.packages[d].name.clone())
                .collect(),
        })
        .collect();
    let manifest = Manifest {
        format: 1,
        seed: options.seed,
        target_lines: options.lines,
        files: s.files,
        lines: s.lines,
        bytes: s.bytes,
        source_files: s.source_files,
        source_lines: s.source_lines,
        source_bytes: s.source_bytes,
        max_file_lines: s.max_file_lines,
        package_count: ctx.packages.len(),
        entities: ctx.entities.len(),
        calls: ctx.graph.facts(SAMPLES, CHAINS),
        packages,
    };
    let mut text = serde_json::to_string_pretty(&manifest).map_err(io::Error::other)?;
    text.push('\n');
    ctx.sink.write_file(MANIFEST_FILE, &text)?;
    Ok(manifest)
}
