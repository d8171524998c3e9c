//! Every import of every file resolved through the project model, with the specifiers that
//! resolved to nothing counted by reason.

use std::collections::BTreeMap;

use crate::facts::FileFacts;
use crate::facts_table::FactsTable;
use crate::model::{ProjectModel, Resolution};
use crate::resolve::{FileId, ModuleTarget};
use crate::state::PathIds;

/// A specifier that resolved to no file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnresolvedImport {
    /// The importing file.
    pub file: String,
    /// The line of the import.
    pub line: u32,
    /// The specifier as written.
    pub specifier: String,
    /// Why (`external package`, `missing file`, `unsupported form`, …).
    pub reason: String,
}

/// What resolving the imports found besides the targets.
#[derive(Debug, Default)]
pub(crate) struct ImportStats {
    /// Imports by outcome: `file`, `external package`, and each unresolved reason.
    pub(crate) by_outcome: BTreeMap<String, usize>,
    /// The imports of project paths that resolved to nothing.
    pub(crate) unresolved: Vec<UnresolvedImport>,
}

/// Resolves every import of `files` (indexed by file id), `by_path` giving the id of a file
/// by path (the state's path index).
pub(crate) fn resolve_imports(
    model: &ProjectModel,
    files: &FactsTable,
    by_path: &PathIds,
) -> (Vec<Vec<ModuleTarget>>, ImportStats) {
    let mut stats = ImportStats::default();
    let modules = files
        .iter()
        .map(|facts| resolve_counting(model, by_path, facts, &mut stats))
        .collect();
    (modules, stats)
}

/// Resolves the imports of one file.
pub(crate) fn resolve_file(
    model: &ProjectModel,
    by_path: &PathIds,
    facts: &FileFacts,
) -> Vec<ModuleTarget> {
    resolve_counting(model, by_path, facts, &mut ImportStats::default())
}

/// Resolves the imports of every file of `files` from what each does with its imports (its
/// specifiers), reading no whole summary a resumed state has not read: an update where files
/// came or went. The same targets as [`resolve_imports`], without the counts.
pub(crate) fn resolve_all_specifiers(
    model: &ProjectModel,
    files: &FactsTable,
    by_path: &PathIds,
) -> Vec<Vec<ModuleTarget>> {
    let ids: Vec<FileId> = (0..files.len())
        .map(|id| FileId::try_from(id).unwrap_or(FileId::MAX))
        .collect();
    files.read_uses_ahead(&ids);
    ids.iter()
        .map(|&id| {
            let from = files.path(id);
            (files.import_uses(id).imports.iter())
                .map(|import| target_of(model, by_path, from, &import.specifier).0)
                .collect()
        })
        .collect()
}

/// Resolves `facts`' imports, `by_path` giving the id of a file by path.
fn resolve_counting(
    model: &ProjectModel,
    by_path: &PathIds,
    facts: &FileFacts,
    stats: &mut ImportStats,
) -> Vec<ModuleTarget> {
    let mut unresolved = Vec::new();
    let targets = facts
        .imports
        .iter()
        .map(|import| {
            let (target, outcome) = target_of(model, by_path, &facts.path, &import.specifier);
            *stats.by_outcome.entry(outcome.name()).or_default() += 1;
            if let Outcome::Unresolved(reason) = outcome {
                unresolved.push(UnresolvedImport {
                    file: facts.path.clone(),
                    line: import.line,
                    specifier: import.specifier.clone(),
                    reason,
                });
            }
            target
        })
        .collect();
    stats.unresolved.extend(unresolved);
    targets
}

/// How an import resolved, as the counts name it.
enum Outcome {
    File,
    MissingFile,
    External,
    /// Why not.
    Unresolved(String),
}

impl Outcome {
    fn name(&self) -> String {
        match self {
            Outcome::File => "file".to_owned(),
            Outcome::MissingFile => "missing file".to_owned(),
            Outcome::External => "external package".to_owned(),
            Outcome::Unresolved(reason) => reason.clone(),
        }
    }
}

/// What `specifier`, written in the file at `from`, resolves to.
fn target_of(
    model: &ProjectModel,
    by_path: &PathIds,
    from: &str,
    specifier: &str,
) -> (ModuleTarget, Outcome) {
    match model.resolve(from, specifier) {
        Resolution::File(path) => match by_path.get(path.as_str()).copied() {
            Some(index) => (ModuleTarget::File(index), Outcome::File),
            None => (ModuleTarget::Unresolved, Outcome::MissingFile),
        },
        Resolution::External { package } => (ModuleTarget::External(package), Outcome::External),
        Resolution::Unresolved(reason) => (
            ModuleTarget::Unresolved,
            Outcome::Unresolved(reason.to_string()),
        ),
    }
}
