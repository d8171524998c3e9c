//! The synthetic monorepo generator behind `gen-monorepo`: a deterministic, type-correct
//! TypeScript monorepo of a requested size (npm workspaces, tsconfig path aliases, packages
//! importing each other by name, subpath and alias, barrels, classes and interfaces,
//! generics, React-style components), plus a manifest of what it holds and of facts a
//! benchmark can check (callers of sampled symbols, long call chains).
//!
//! Determinism: the same seed and line target give a byte-identical tree. Everything is drawn
//! from one seeded SplitMix64 in a fixed order, and no output depends on hash-map order.

mod app;
mod code;
mod config;
mod feature;
mod graph;
mod hubs;
mod library;
mod manifest;
mod names;
mod plan;
mod sink;

#[cfg(test)]
mod tests;

use std::io;

pub use graph::{CallChain, CallFacts, CallerSample};
pub use manifest::{MANIFEST_FILE, Manifest, PackageSummary};
pub use sink::{DirSink, MemorySink, TreeSink};

use crate::rng::SplitMix64;
use code::{SpecKind, TsFile};
use graph::CallGraph;
use hubs::Hubs;
use plan::{Entity, Package};

/// The smallest line target: below it the hub packages alone would overshoot.
pub const MIN_LINES: u64 = 10_000;

/// Share of the line target given to libraries before the apps fill the rest, in percent.
const LIBRARY_SHARE: u64 = 88;

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct GenOptions {
    /// Target number of source lines (`.ts`/`.tsx`, not `.d.ts`); the result lands within a
    /// few percent of it.
    pub lines: u64,
    /// Seed of the generator.
    pub seed: u64,
}

/// The line target of a size preset: `100k`, `1m`, `5m` (also `10k`, `500k`, …).
pub fn parse_size(text: &str) -> Option<u64> {
    let lower = text.to_ascii_lowercase();
    let (digits, factor) = if let Some(d) = lower.strip_suffix('k') {
        (d, 1_000)
    } else if let Some(d) = lower.strip_suffix('m') {
        (d, 1_000_000)
    } else {
        (lower.as_str(), 1)
    };
    digits.parse::<u64>().ok()?.checked_mul(factor)
}

/// Counts of what was written.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Stats {
    pub(crate) files: u64,
    pub(crate) lines: u64,
    pub(crate) bytes: u64,
    pub(crate) source_files: u64,
    pub(crate) source_lines: u64,
    pub(crate) source_bytes: u64,
    pub(crate) max_file_lines: u64,
}

/// Everything the writers share while a tree is generated.
pub(crate) struct Ctx<'s> {
    pub(crate) rng: SplitMix64,
    pub(crate) graph: CallGraph,
    pub(crate) hubs: Hubs,
    pub(crate) packages: Vec<Package>,
    pub(crate) entities: Vec<Entity>,
    pub(crate) stats: Stats,
    sink: &'s mut dyn TreeSink,
}

impl Ctx<'_> {
    /// Writes a finished TypeScript file and records its calls.
    pub(crate) fn emit(&mut self, file: TsFile) -> io::Result<()> {
        let (path, text, calls) = file.finish();
        self.graph.add_calls(&calls);
        self.emit_text(&path, &text)
    }

    /// Writes any file.
    pub(crate) fn emit_text(&mut self, path: &str, text: &str) -> io::Result<()> {
        let lines = text.bytes().filter(|&b| b == b'\n').count() as u64;
        let s = &mut self.stats;
        s.files += 1;
        s.lines += lines;
        s.bytes += text.len() as u64;
        let source = (path.ends_with(".ts") || path.ends_with(".tsx")) && !path.ends_with(".d.ts");
        if source {
            s.source_files += 1;
            s.source_lines += lines;
            s.source_bytes += text.len() as u64;
            s.max_file_lines = s.max_file_lines.max(lines);
        }
        self.sink.write_file(path, text)
    }

    /// A new TypeScript file, with the import style drawn at random.
    pub(crate) fn file(&mut self, path: String, header: &[&str]) -> TsFile {
        let mut file = TsFile::new(path, header);
        file.prefer_alias = self.rng.percent(40);
        file.prefer_subpath = self.rng.percent(35);
        file
    }

    /// Imports `name`, exported by `entity`'s feature module `module` (`model`, `rules`,
    /// `service`, …), into `file`: relatively inside the same package, else through the
    /// package's root or its feature subpath.
    pub(crate) fn import_entity(
        &self,
        file: &mut TsFile,
        entity: usize,
        module: &str,
        name: &str,
        is_type: bool,
    ) {
        let e = &self.entities[entity];
        let package = &self.packages[e.package];
        let (kind, spec) = if file.path.starts_with(&format!("{}/", package.dir)) {
            let target = format!(
                "{}/src/{}/{}.{module}",
                package.dir,
                e.feature(),
                e.names.kebab
            );
            if file.path.strip_suffix(".ts") == Some(target.as_str()) {
                // Its own module: the name is in scope already.
                return;
            }
            (SpecKind::Relative, relative(&file.path, &target))
        } else if file.prefer_subpath && package.dist_exports {
            (
                SpecKind::Package,
                format!("{}/{}", package.name, e.feature()),
            )
        } else {
            (SpecKind::Package, package.name.clone())
        };
        if is_type {
            file.ty(kind, &spec, name);
        } else {
            file.value(kind, &spec, name);
        }
    }
}

/// The specifier of `target` (a path without extension) imported from the file `from`.
pub(crate) fn relative(from: &str, target: &str) -> String {
    let from_dir: Vec<&str> = from.split('/').collect();
    let from_dir = &from_dir[..from_dir.len().saturating_sub(1)];
    let target: Vec<&str> = target.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&target)
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from_dir.len() - common;
    let mut spec = if ups == 0 {
        String::from("./")
    } else {
        "../".repeat(ups)
    };
    spec.push_str(&target[common..].join("/"));
    spec
}

/// Generates a tree into `sink` and returns its manifest (also written into the tree as
/// [`MANIFEST_FILE`]).
pub fn generate(options: &GenOptions, sink: &mut dyn TreeSink) -> io::Result<Manifest> {
    let mut ctx = Ctx {
        rng: SplitMix64::new(options.seed),
        graph: CallGraph::default(),
        hubs: Hubs::default(),
        packages: Vec::new(),
        entities: Vec::new(),
        stats: Stats::default(),
        sink,
    };
    hubs::write(&mut ctx)?;
    let library_lines = options.lines * LIBRARY_SHARE / 100;
    while ctx.stats.source_lines < library_lines {
        library::write(&mut ctx)?;
    }
    let libraries = ctx.packages.len() - 3;
    // About one app per eight libraries keeps each app (and its App.tsx) at a real size.
    let apps = (libraries / 8).clamp(1, 200);
    for k in 0..apps {
        let remaining = options.lines.saturating_sub(ctx.stats.source_lines);
        let budget = remaining / (apps - k) as u64;
        app::write(&mut ctx, k, budget)?;
    }
    config::write_root(&mut ctx)?;
    manifest::write(&mut ctx, options)
}
