//! How far a change to what a file exports reaches: which files use a changed name, and
//! which of those pass the change on to their own importers.
//!
//! A file is reached when it imports a changed name, re-exports one, or imports the module
//! as a namespace and names a changed member of it (or uses the namespace whole). It passes
//! the change on under the names it re-exports, and wholly when its own interface exposes
//! the import it was reached through (an export's type, signature or inferred value names
//! it). The graph only depends on what summaries record, so scanning them is enough.

use std::collections::{HashMap, HashSet};

use crate::facts::{Expr, FileFacts, Name};
use crate::interface::{ExportChange, Interface};
use crate::resolve::{FileId, ModuleTarget};

/// The files `changes` reach (see the module documentation). `importers` maps each file to
/// the files importing it.
pub(crate) fn dependents<'a>(
    files: &'a [FileFacts],
    modules: &'a [Vec<ModuleTarget>],
    interface: &dyn Fn(FileId) -> &'a Interface,
    importers: &HashMap<FileId, Vec<FileId>>,
    changes: &HashMap<FileId, ExportChange>,
) -> HashSet<FileId> {
    let mut out = HashSet::new();
    let mut known: HashMap<FileId, ExportChange> = changes.clone();
    let mut stack: Vec<(FileId, ExportChange)> =
        changes.iter().map(|(f, c)| (*f, c.clone())).collect();
    while let Some((file, change)) = stack.pop() {
        for &importer in importers.get(&file).map(Vec::as_slice).unwrap_or(&[]) {
            let reached = Importer {
                facts: &files[importer as usize],
                modules: &modules[importer as usize],
                exposed: &interface(importer).exposed_imports,
            };
            let Some(passed) = reached.change_from(file, &change) else {
                continue;
            };
            out.insert(importer);
            let grew = match known.get_mut(&importer) {
                Some(existing) => existing.merge(&passed),
                None => {
                    let grew = passed != ExportChange::none();
                    known.insert(importer, passed.clone());
                    grew
                }
            };
            if grew {
                stack.push((importer, passed));
            }
        }
    }
    out
}

/// A file importing a changed module.
struct Importer<'a> {
    facts: &'a FileFacts,
    modules: &'a [ModuleTarget],
    /// The imports its interface exposes (ascending).
    exposed: &'a [u32],
}

impl Importer<'_> {
    /// How `change` to the exports of `target` reaches this file: `None` when it uses none
    /// of the changed names, else what changes in its own exports.
    fn change_from(&self, target: FileId, change: &ExportChange) -> Option<ExportChange> {
        let facts = self.facts;
        let mut reached = false;
        let mut passed = ExportChange::none();
        for (index, import) in facts.imports.iter().enumerate() {
            if self.modules.get(index) != Some(&ModuleTarget::File(target)) {
                continue;
            }
            if import.reexport_all {
                // `export *` passes every changed name on.
                reached = true;
                passed.merge(change);
                continue;
            }
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            let exposed = self.exposed.binary_search(&index).is_ok();
            let mut used = false;
            for binding in &import.bindings {
                let imported = facts.name(binding.imported);
                let uses = if imported == "*" {
                    exposed || import.reexport || self.uses_members(binding.local, change)
                } else {
                    change.contains(imported)
                };
                if uses {
                    used = true;
                    if import.reexport {
                        passed.add(facts.name(binding.local));
                    }
                }
            }
            reached |= used;
            if used && !import.reexport && exposed {
                passed = ExportChange::All;
            }
        }
        reached.then_some(passed)
    }

    /// Whether the code uses a changed member of the namespace bound to `local`: a member
    /// access or a qualified type naming one, or the namespace itself other than through a
    /// member (passed, indexed, spread).
    fn uses_members(&self, local: Name, change: &ExportChange) -> bool {
        let ExportChange::Names(changed) = change else {
            return true;
        };
        let facts = self.facts;
        let is_local = |expr: u32| matches!(facts.exprs.get(expr as usize), Some(Expr::Ident { name, .. }) if *name == local);
        // Identifiers naming the namespace that are the object of a member access.
        let mut objects: HashSet<u32> = HashSet::new();
        for expr in &facts.exprs {
            if let Expr::Member { object, name } = expr
                && is_local(*object)
            {
                if changed.contains(facts.name(*name)) {
                    return true;
                }
                objects.insert(*object);
            }
        }
        let bare_expr = (0..facts.exprs.len())
            .filter_map(|i| u32::try_from(i).ok())
            .any(|i| is_local(i) && !objects.contains(&i));
        bare_expr
            || facts.types.iter().any(|ty| match ty.reference_parts() {
                Some((_, path, _)) => {
                    path.first() == Some(&local)
                        && path
                            .get(1)
                            .is_none_or(|member| changed.contains(facts.name(*member)))
                }
                None => false,
            })
    }
}
