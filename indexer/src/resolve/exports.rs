//! Export tables: what each module exports under each name. `export *` cycles are solved per
//! strongly connected component to a fixed point, so a table never depends on the order files
//! were read in; a name two `export *` sources provide differently is ambiguous and exported by
//! neither (as in TypeScript).
//!
//! The tables live as long as the index: an update recomputes those of the files it changed
//! and of the files that `export *` from them, directly or through others, and no more (every
//! other table copies nothing from a changed file).

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

use super::kept_exports::{self, CHUNK, KeptExports, TableBytes, chunks_of};
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
#[derive(Debug, Default)]
pub(crate) struct ExportTables {
    /// Per file: its table; a resumed state's is decoded from `kept` when first asked for.
    tables: Vec<OnceLock<ExportTable>>,
    /// Per file: the files it re-exports everything from.
    stars: Vec<Vec<FileId>>,
    /// The tables as the store keeps them (none for tables computed here).
    kept: KeptExports,
    /// Per chunk of `kept`: whether every table in it is still as kept.
    clean: Vec<bool>,
    /// A kept table could not be decoded and stood in as empty.
    failed: AtomicBool,
}

impl ExportTables {
    /// The tables of every file (`modules`: what each import of each file resolved to).
    pub(crate) fn build(files: &FactsTable, modules: &[Vec<ModuleTarget>]) -> ExportTables {
        let mut tables = ExportTables::default();
        let all: Vec<FileId> = (0..files.len()).map(file_id).collect();
        tables.update(files, modules, &all);
        tables
    }

    /// The tables as the store keeps them (`stars`: every file's `export *` sources), each
    /// decoded when first asked for; `None` when the two disagree on the number of files.
    pub(crate) fn resumed(stars: Vec<Vec<FileId>>, kept: KeptExports) -> Option<ExportTables> {
        if kept.files() != stars.len() {
            return None;
        }
        Some(ExportTables {
            tables: (0..stars.len()).map(|_| OnceLock::new()).collect(),
            clean: vec![true; chunks_of(stars.len())],
            stars,
            kept,
            failed: AtomicBool::new(false),
        })
    }

    /// The table of `file` (none for the built-in library).
    pub(crate) fn table(&self, file: FileId) -> Option<&ExportTable> {
        let slot = self.tables.get(file as usize)?;
        Some(slot.get_or_init(|| self.decode_kept(file)))
    }

    /// File `file`'s table as kept; an empty one, and a failure, when it cannot be read.
    fn decode_kept(&self, file: FileId) -> ExportTable {
        self.kept.decode(file as usize).unwrap_or_else(|| {
            self.failed.store(true, Ordering::Relaxed);
            ExportTable::default()
        })
    }

    /// Whether a kept table could not be decoded since the last call: what was linked
    /// meanwhile used an empty table in its place.
    pub(crate) fn take_failure(&self) -> bool {
        self.failed.swap(false, Ordering::Relaxed)
    }

    /// Every file's `export *` sources.
    pub(crate) fn stars(&self) -> &[Vec<FileId>] {
        &self.stars
    }

    /// The tables encoded as a section of kept tables ([`super::kept_exports`]): the chunks
    /// none of whose tables changed since they were read are copied as they were.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let files = self.tables.len();
        kept_exports::encode(
            files,
            |chunk| match self.clean.get(chunk) {
                Some(true) => {
                    (self.kept).block(chunk, files.saturating_sub(chunk * CHUNK).min(CHUNK))
                }
                _ => None,
            },
            |file| match self.tables.get(file).and_then(OnceLock::get) {
                Some(table) => TableBytes::Table(table),
                None => match self.kept.encoded(file) {
                    Some(kept) => TableBytes::Kept(kept),
                    None => TableBytes::Table(self.table(file_id(file)).unwrap_or(&EMPTY)),
                },
            },
        )
    }

    /// Takes `section` (what [`ExportTables::encode`] gave) as the tables' kept form, so
    /// that the next encoding copies what did not change since.
    pub(crate) fn adopt(&mut self, section: &[u8]) {
        if let Some(kept) = KeptExports::parse(section).filter(|k| k.files() == self.tables.len()) {
            self.clean = vec![true; chunks_of(kept.files())];
            self.kept = kept;
        }
    }

    /// Sets `file`'s table.
    fn put_table(&mut self, file: FileId, table: ExportTable) {
        self.changed(file);
        self.tables[file as usize] = OnceLock::from(table);
    }

    /// Takes `file`'s table out, to be put back.
    fn take_table(&mut self, file: FileId) -> ExportTable {
        match self.tables[file as usize].take() {
            Some(table) => table,
            None => self.decode_kept(file),
        }
    }

    /// Notes that `file`'s table no longer is as kept.
    fn changed(&mut self, file: FileId) {
        if let Some(clean) = self.clean.get_mut(file as usize / CHUNK) {
            *clean = false;
        }
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
        for file in self.tables.len()..files.len() {
            // A chunk kept with fewer files is not the chunk it now is.
            self.changed(file_id(file));
        }
        self.tables
            .resize_with(files.len(), || OnceLock::from(ExportTable::default()));
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
            self.put_table(*file, own[from].clone());
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
        let mut table = self.take_table(file);
        let mut changed = false;
        for &source in &self.stars[file as usize] {
            // A file that re-exports everything from itself has all of it already (and its
            // table is out of its slot meanwhile: asking for it would decode a kept one).
            if source == file {
                continue;
            }
            let Some(exported) = self.table(source) else {
                continue;
            };
            let exported = exported
                .iter()
                .filter(|(name, _)| &***name != "default" && !own.contains_key(&***name));
            for (name, entry) in exported {
                match table.get(name) {
                    None => {
                        table.insert(name.clone(), *entry);
                        changed = true;
                    }
                    Some(existing) if existing == entry || *existing == ExportEntry::Ambiguous => {}
                    Some(_) => {
                        table.insert(name.clone(), ExportEntry::Ambiguous);
                        changed = true;
                    }
                }
            }
        }
        self.put_table(file, table);
        changed
    }
}

/// The table of a file without one (a built-in library's id).
static EMPTY: std::sync::LazyLock<ExportTable> = std::sync::LazyLock::new(ExportTable::default);

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

#[cfg(test)]
mod tests {
    use super::*;

    fn table(seed: u32) -> ExportTable {
        (0..seed % 4 + 1)
            .map(|i| (format!("n{seed}_{i}").into(), ExportEntry::Namespace(seed)))
            .collect()
    }

    fn resumed(tables: &[ExportTable]) -> ExportTables {
        let section =
            kept_exports::encode(tables.len(), |_| None, |f| TableBytes::Table(&tables[f]));
        let kept = KeptExports::parse(&section).expect("section");
        ExportTables::resumed(vec![Vec::new(); tables.len()], kept).expect("resumed")
    }

    #[test]
    fn a_resumed_table_decodes_on_first_use_and_writes_back_what_did_not_change() {
        let files = CHUNK * 2 + 5;
        let tables: Vec<ExportTable> = (0..files as u32).map(table).collect();
        let mut resumed = resumed(&tables);
        assert!(resumed.tables.iter().all(|slot| slot.get().is_none()));
        assert_eq!(resumed.table(3), Some(&tables[3]));
        assert_eq!(
            resumed.tables.iter().filter(|s| s.get().is_some()).count(),
            1
        );
        let before = KeptExports::parse(&resumed.encode()).expect("section");
        // One table of the second chunk changes.
        let changed = CHUNK as u32 + 1;
        resumed.put_table(changed, table(99));
        let after = KeptExports::parse(&resumed.encode()).expect("section");
        // The changed chunk's other tables were written back as kept, not decoded.
        let decoded: Vec<usize> = (resumed.tables.iter().enumerate())
            .filter(|(_, slot)| slot.get().is_some())
            .map(|(file, _)| file)
            .collect();
        assert_eq!(decoded, [3, changed as usize]);
        assert_eq!(after.block(0, CHUNK), before.block(0, CHUNK));
        assert_eq!(after.block(2, 5), before.block(2, 5));
        assert_ne!(after.block(1, CHUNK), before.block(1, CHUNK));
        for (file, kept) in tables.iter().enumerate() {
            let expected = if file == changed as usize {
                table(99)
            } else {
                kept.clone()
            };
            assert_eq!(after.decode(file), Some(expected), "file {file}");
        }
        // Adopted, the section is what the next encoding starts from: nothing is re-encoded.
        let section = resumed.encode();
        resumed.adopt(&section);
        assert!(resumed.clean.iter().all(|clean| *clean));
        assert_eq!(resumed.encode(), section);
        assert!(!resumed.take_failure());
    }

    #[test]
    fn a_kept_table_that_cannot_be_decoded_is_a_failure() {
        let tables: Vec<ExportTable> = (0..3).map(table).collect();
        let mut section = kept_exports::encode(3, |_| None, |f| TableBytes::Table(&tables[f]));
        let last = section.len() - 1;
        section[last] ^= 0xff;
        section[last - 1] ^= 0xff;
        let kept = KeptExports::parse(&section).expect("the directory holds");
        let resumed = ExportTables::resumed(vec![Vec::new(); 3], kept).expect("resumed");
        assert_eq!(resumed.table(2), Some(&ExportTable::default()));
        assert!(resumed.take_failure());
        assert!(!resumed.take_failure(), "taken");
        assert!(ExportTables::resumed(vec![Vec::new(); 2], KeptExports::default()).is_none());
    }
}
