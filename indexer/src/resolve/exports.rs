//! Export tables: what each module exports under each name, computed once for the whole
//! program. `export *` cycles are solved per strongly connected component to a fixed point,
//! so a table never depends on the order files were read in; a name two `export *` sources
//! provide differently is ambiguous and exported by neither (as in TypeScript).

use std::collections::HashMap;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::{DeclRef, FileId, ModuleTarget, Program};
use crate::facts::{ExportTarget, ExprId, Name};

/// What an exported name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

pub(super) fn tables<'a>(program: &Program<'a>) -> Vec<HashMap<&'a str, ExportEntry>> {
    let count = program.files.len();
    let mut own: Vec<HashMap<&'a str, ExportEntry>> = Vec::with_capacity(count);
    let mut stars: Vec<Vec<FileId>> = Vec::with_capacity(count);
    for (index, facts) in program.files.iter().enumerate() {
        let file = u32::try_from(index).unwrap_or(u32::MAX);
        let mut table = HashMap::new();
        for export in &facts.exports {
            let entry = match export.target {
                ExportTarget::Local(name) => ExportEntry::Local { file, name },
                ExportTarget::Decl(decl) => ExportEntry::Decl(DeclRef::new(file, decl)),
                ExportTarget::Expr(expr) => ExportEntry::Expr { file, expr },
            };
            table.insert(facts.name(export.exported), entry);
        }
        let mut file_stars = Vec::new();
        for (i, import) in facts.imports.iter().enumerate() {
            if !import.reexport {
                continue;
            }
            let target = program.module(file, i);
            if import.reexport_all {
                if let ModuleTarget::File(target) = target {
                    file_stars.push(*target);
                }
                continue;
            }
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
                table.insert(facts.name(binding.local), entry);
            }
        }
        own.push(table);
        stars.push(file_stars);
    }

    let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(count, 0);
    for _ in 0..count {
        graph.add_node(());
    }
    for (from, targets) in stars.iter().enumerate() {
        for to in targets {
            graph.add_edge(NodeIndex::new(from), NodeIndex::new(*to as usize), ());
        }
    }
    let mut tables = own.clone();
    // Components come dependencies first, so every `export *` source outside the current
    // component is already complete.
    for component in tarjan_scc(&graph) {
        let first = component[0].index();
        let single = component.len() == 1 && !stars[first].contains(&(first as u32));
        loop {
            let mut changed = false;
            for node in &component {
                changed |= merge_stars(node.index(), &own, &stars, &mut tables);
            }
            // One pass completes a component without cycles; a cycle runs to a fixed point.
            if single || !changed {
                break;
            }
        }
    }
    tables
}

/// Adds to `file`'s table what its `export *` sources export; whether anything changed.
fn merge_stars<'a>(
    file: usize,
    own: &[HashMap<&'a str, ExportEntry>],
    stars: &[Vec<FileId>],
    tables: &mut [HashMap<&'a str, ExportEntry>],
) -> bool {
    let mut changed = false;
    for source in &stars[file] {
        let entries: Vec<(&'a str, ExportEntry)> = tables[*source as usize]
            .iter()
            .filter(|(name, _)| **name != "default")
            .map(|(name, entry)| (*name, *entry))
            .collect();
        for (name, entry) in entries {
            // A module's own exports shadow what `export *` brings.
            if own[file].contains_key(name) {
                continue;
            }
            match tables[file].get(name) {
                None => {
                    tables[file].insert(name, entry);
                    changed = true;
                }
                Some(existing) if *existing == entry || *existing == ExportEntry::Ambiguous => {}
                Some(_) => {
                    tables[file].insert(name, ExportEntry::Ambiguous);
                    changed = true;
                }
            }
        }
    }
    changed
}
