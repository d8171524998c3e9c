//! Export tables: what each module exports under each name. `export *` cycles are solved per
//! strongly connected component to a fixed point, so a table never depends on the order files
//! were read in; a name two `export *` sources provide differently is ambiguous and exported by
//! neither (as in TypeScript).
//!
//! The tables live as long as the index: an update recomputes those of the files it changed
//! and of the files that `export *` from them, directly or through others, and no more (every
//! other table copies nothing from a changed file).

use std::collections::HashMap;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

use super::{DeclRef, FileId, ModuleTarget};
use crate::facts::{ExportTarget, ExprId, FileFacts, Name};
use crate::facts_table::FactsTable;

/// What an exported name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum ExportEntry {
    /// A name of `file`'s module scope (a value, a type, or both).
    Local { file: FileId, name: Name },
    /// A declaration (an exported declaration, an anonymous default export).
    Decl(DeclRef),
    /// `export default <expression>`.
    Expr { file: FileId, expr: ExprId },
    /// `export { a as b } from "./x"`: binding `binding` of import `import` of `file`.
    Reexport {
        file: FileId,
        import: u32,
        binding: u32,
    },
    /// `export * as ns from "./x"`: the module itself.
    Namespace(FileId),
    /// Provided differently by two `export *` sources: not exported.
    Ambiguous,
}

/// One module's exports: exported name → what it stands for.
pub(crate) type ExportTable = FxHashMap<Box<str>, ExportEntry>;

/// Every file's export table, and the `export *` edges they were computed from.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct ExportTables {
    tables: Vec<ExportTable>,
    /// Per file: the files it re-exports everything from.
    stars: Vec<Vec<FileId>>,
}

impl ExportTables {
    /// The tables of every file (`modules`: what each import of each file resolved to).
    pub(crate) fn build(files: &FactsTable, modules: &[Vec<ModuleTarget>]) -> ExportTables {
        let mut tables = ExportTables::default();
        let all: Vec<FileId> = (0..files.len()).map(file_id).collect();
        tables.update(files, modules, &all);
        tables
    }

    /// How many files have a table.
    pub(crate) fn len(&self) -> usize {
        self.tables.len()
    }

    /// The table of `file` (none for the built-in library).
    pub(crate) fn table(&self, file: FileId) -> Option<&ExportTable> {
        self.tables.get(file as usize)
    }

    /// Recomputes the tables of the `changed` files (their summaries or what their imports
    /// resolve to changed) and of every file that re-exports everything from one of them,
    /// transitively. `files` may have grown since the last update; a removed file is an
    /// empty summary.
    pub(crate) fn update(
        &mut self,
        files: &FactsTable,
        modules: &[Vec<ModuleTarget>],
        changed: &[FileId],
    ) {
        self.tables.resize_with(files.len(), Default::default);
        self.stars.resize_with(files.len(), Vec::new);
        for &file in changed {
            self.stars[file as usize] = star_sources(file, files.get(file), modules);
        }
        let dirty = self.star_dependents(changed);
        // The dirty files as a graph of their own: `export *` sources outside it are complete.
        let position: HashMap<FileId, usize> =
            dirty.iter().enumerate().map(|(i, f)| (*f, i)).collect();
        let own: Vec<ExportTable> = dirty
            .iter()
            .map(|&file| own_exports(file, files.get(file), modules))
            .collect();
        let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(dirty.len(), 0);
        for _ in &dirty {
            graph.add_node(());
        }
        for (from, file) in dirty.iter().enumerate() {
            for to in &self.stars[*file as usize] {
                if let Some(to) = position.get(to) {
                    graph.add_edge(NodeIndex::new(from), NodeIndex::new(*to), ());
                }
            }
            self.tables[*file as usize] = own[from].clone();
        }
        // Components come dependencies first, so every `export *` source outside the current
        // component is already complete.
        for component in tarjan_scc(&graph) {
            let first = dirty[component[0].index()];
            let single = component.len() == 1 && !self.stars[first as usize].contains(&first);
            loop {
                let mut changed = false;
                for node in &component {
                    changed |= self.merge_stars(dirty[node.index()], &own[node.index()]);
                }
                // One pass completes a component without cycles; a cycle runs to a fixed
                // point.
                if single || !changed {
                    break;
                }
            }
        }
    }

    /// `changed` and every file that re-exports everything from one of them, directly or
    /// through others, in file order.
    fn star_dependents(&self, changed: &[FileId]) -> Vec<FileId> {
        let mut starred_by: HashMap<FileId, Vec<FileId>> = HashMap::new();
        for (file, sources) in self.stars.iter().enumerate() {
            for source in sources {
                starred_by.entry(*source).or_default().push(file_id(file));
            }
        }
        let mut seen: std::collections::HashSet<FileId> = changed.iter().copied().collect();
        let mut stack: Vec<FileId> = changed.to_vec();
        while let Some(file) = stack.pop() {
            for dependent in starred_by.get(&file).map(Vec::as_slice).unwrap_or(&[]) {
                if seen.insert(*dependent) {
                    stack.push(*dependent);
                }
            }
        }
        let mut out: Vec<FileId> = seen.into_iter().collect();
        out.sort_unstable();
        out
    }

    /// Adds to `file`'s table what its `export *` sources export (`own`: its own exports,
    /// which shadow them); whether anything changed.
    fn merge_stars(&mut self, file: FileId, own: &ExportTable) -> bool {
        let mut changed = false;
        for source in self.stars[file as usize].clone() {
            let entries: Vec<(Box<str>, ExportEntry)> = self.tables[source as usize]
                .iter()
                .filter(|(name, _)| &***name != "default" && !own.contains_key(&***name))
                .map(|(name, entry)| (name.clone(), *entry))
                .collect();
            let table = &mut self.tables[file as usize];
            for (name, entry) in entries {
                match table.get(&name) {
                    None => {
                        table.insert(name, entry);
                        changed = true;
                    }
                    Some(existing) if *existing == entry || *existing == ExportEntry::Ambiguous => {
                    }
                    Some(_) => {
                        table.insert(name, ExportEntry::Ambiguous);
                        changed = true;
                    }
                }
            }
        }
        changed
    }
}

fn file_id(index: usize) -> FileId {
    FileId::try_from(index).unwrap_or(u32::MAX)
}

/// What `file` exports itself: its own exports and its named re-exports (not `export *`).
fn own_exports(file: FileId, facts: &FileFacts, modules: &[Vec<ModuleTarget>]) -> ExportTable {
    let mut table = ExportTable::default();
    for export in &facts.exports {
        let exported = facts.name(export.exported);
        let entry = match export.target {
            ExportTarget::Local(name) => ExportEntry::Local { file, name },
            ExportTarget::Decl(decl) => {
                let name = facts.decl(decl).name;
                // Two exported declarations of one name (an interface and a const, a class
                // and a namespace): the name stands for both, each in its space.
                let shared = match table.get(exported) {
                    Some(ExportEntry::Decl(other)) => facts.decl(other.decl).name == name,
                    Some(ExportEntry::Local { name: other, .. }) => *other == name,
                    _ => false,
                };
                if shared {
                    ExportEntry::Local { file, name }
                } else {
                    ExportEntry::Decl(DeclRef::new(file, decl))
                }
            }
            ExportTarget::Expr(expr) => ExportEntry::Expr { file, expr },
        };
        table.insert(exported.into(), entry);
    }
    for (i, import) in facts.imports.iter().enumerate() {
        if !import.reexport || import.reexport_all {
            continue;
        }
        let target = module_of(modules, file, i);
        for (j, binding) in import.bindings.iter().enumerate() {
            let entry = if facts.name(binding.imported) == "*" {
                match target {
                    ModuleTarget::File(target) => ExportEntry::Namespace(*target),
                    _ => continue,
                }
            } else {
                ExportEntry::Reexport {
                    file,
                    import: u32::try_from(i).unwrap_or(u32::MAX),
                    binding: u32::try_from(j).unwrap_or(u32::MAX),
                }
            };
            table.insert(facts.name(binding.local).into(), entry);
        }
    }
    table
}

/// The files `file` re-exports everything from (`export * from`).
fn star_sources(file: FileId, facts: &FileFacts, modules: &[Vec<ModuleTarget>]) -> Vec<FileId> {
    facts
        .imports
        .iter()
        .enumerate()
        .filter(|(_, import)| import.reexport && import.reexport_all)
        .filter_map(|(i, _)| match module_of(modules, file, i) {
            ModuleTarget::File(target) => Some(*target),
            _ => None,
        })
        .collect()
}

pub(super) fn module_of(
    modules: &[Vec<ModuleTarget>],
    file: FileId,
    import: usize,
) -> &ModuleTarget {
    modules
        .get(file as usize)
        .and_then(|targets| targets.get(import))
        .unwrap_or(&ModuleTarget::Unresolved)
}
