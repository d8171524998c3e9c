//! Every import of every file resolved through the project model, with the specifiers that
//! resolved to nothing counted by reason.

use std::collections::{BTreeMap, HashMap};

use crate::facts::FileFacts;
use crate::facts_table::FactsTable;
use crate::model::{ProjectModel, Resolution};
use crate::resolve::{FileId, ModuleTarget};

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
    by_path: &HashMap<String, FileId>,
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
    by_path: &HashMap<String, FileId>,
    facts: &FileFacts,
) -> Vec<ModuleTarget> {
    resolve_counting(model, by_path, facts, &mut ImportStats::default())
}

/// Resolves `facts`' imports, `by_path` giving the id of a file by path.
fn resolve_counting(
    model: &ProjectModel,
    by_path: &HashMap<String, FileId>,
    facts: &FileFacts,
    stats: &mut ImportStats,
) -> Vec<ModuleTarget> {
    let mut count = |outcome: &str| *stats.by_outcome.entry(outcome.to_owned()).or_default() += 1;
    let mut unresolved = Vec::new();
    let targets = facts
        .imports
        .iter()
        .map(
            |import| match model.resolve(&facts.path, &import.specifier) {
                Resolution::File(path) => match by_path.get(path.as_str()).copied() {
                    Some(index) => {
                        count("file");
                        ModuleTarget::File(index)
                    }
                    None => {
                        count("missing file");
                        ModuleTarget::Unresolved
                    }
                },
                Resolution::External { package } => {
                    count("external package");
                    ModuleTarget::External(package)
                }
                Resolution::Unresolved(reason) => {
                    let reason = reason.to_string();
                    count(&reason);
                    unresolved.push(UnresolvedImport {
                        file: facts.path.clone(),
                        line: import.line,
                        specifier: import.specifier.clone(),
                        reason,
                    });
                    ModuleTarget::Unresolved
                }
            },
        )
        .collect();
    stats.unresolved.extend(unresolved);
    targets
}
