//! How far a change to what a file exports reaches: which files use a changed name, and
//! which of those pass the change on to their own importers.
//!
//! A file is reached when it imports a changed name, re-exports one, or imports a namespace
//! (`* as NS` of the module, or a name the module exports as a namespace, as `export * as NS`
//! does) and names a changed member of it or uses the namespace whole. A namespace that only
//! gained or changed members it does not name leaves it alone: its code resolves as before.
//! It passes the change on under the names it re-exports (a namespace's as member changes),
//! and wholly when its own interface exposes the import it was reached through (an export's
//! type, signature or inferred value names it). The graph only depends on what summaries record, so scanning them is enough.

use std::collections::HashMap;

use crate::export_change::{ExportChange, NameChange};
use crate::facts_table::FactsTable;
use crate::import_uses::{ImportUses, MemberUse};
use crate::interface::Interface;
use crate::resolve::{FileId, ModuleTarget};

/// How a change reached a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reach {
    /// The file whose exports changed.
    pub(crate) from: FileId,
    /// The rule.
    pub(crate) rule: ReachRule,
    /// The changed name it uses (a namespace's member as `NS.member`).
    pub(crate) name: String,
}

/// Which rule took a change to an importer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReachRule {
    /// It imports a changed name.
    ImportsName,
    /// It names a changed member of a namespace it imports.
    NamesMember,
    /// It uses a namespace whose members changed other than through a member (passes it,
    /// indexes it, spreads it).
    UsesNamespace,
    /// It re-exports a changed name (or everything).
    Reexports,
}

/// The files `changes` reach (see the module documentation), each with how the change
/// first reached it. `importers` maps each file to the files importing it.
pub(crate) fn dependents<'a>(
    files: &'a FactsTable,
    modules: &'a [Vec<ModuleTarget>],
    interface: &dyn Fn(FileId) -> &'a Interface,
    importers: &HashMap<FileId, Vec<FileId>>,
    changes: &HashMap<FileId, ExportChange>,
) -> HashMap<FileId, Reach> {
    let mut out = HashMap::new();
    let mut known: HashMap<FileId, ExportChange> = changes.clone();
    let mut stack: Vec<(FileId, ExportChange)> =
        changes.iter().map(|(f, c)| (*f, c.clone())).collect();
    while let Some((file, change)) = stack.pop() {
        // Only the importers whose reach key lets the change through are asked what they
        // use: an export nobody names asks none.
        let importing: Vec<FileId> = (importers.get(&file).map(Vec::as_slice).unwrap_or(&[]))
            .iter()
            .copied()
            .filter(|&importer| files.reach_key(importer).may_reach(&change))
            .collect();
        files.read_uses_ahead(&importing);
        for importer in importing {
            let exposed = || interface(importer).exposed_imports.as_slice();
            let reached = Importer {
                uses: files.import_uses(importer),
                modules: &modules[importer as usize],
                exposed: &exposed,
            };
            let Some((passed, (rule, name))) = reached.change_from(file, &change) else {
                continue;
            };
            out.entry(importer).or_insert(Reach {
                from: file,
                rule,
                name,
            });
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
    uses: &'a ImportUses,
    modules: &'a [ModuleTarget],
    /// The imports its interface exposes (ascending), asked only of a file the change
    /// reaches (its interface is computed from its whole summary).
    exposed: &'a dyn Fn() -> &'a [u32],
}

impl Importer<'_> {
    /// How `change` to the exports of `target` reaches this file: `None` when it uses none
    /// of the changed names, else what changes in its own exports, and the first use found.
    fn change_from(
        &self,
        target: FileId,
        change: &ExportChange,
    ) -> Option<(ExportChange, (ReachRule, String))> {
        let mut first: Option<(ReachRule, String)> = None;
        let mut passed = ExportChange::none();
        for (index, import) in self.uses.imports.iter().enumerate() {
            if self.modules.get(index) != Some(&ModuleTarget::File(target)) {
                continue;
            }
            if import.reexport_all {
                // `export *` passes every changed name on.
                first.get_or_insert((ReachRule::Reexports, "*".to_owned()));
                passed.merge(change);
                continue;
            }
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            let mut used = false;
            for binding in &import.bindings {
                let (imported, local) = (binding.imported.as_str(), binding.local.as_str());
                // The members of a namespace that changed: the module's changed names for
                // `* as NS`, a namespace export's changed members for `{ NS }`.
                let members = if imported == "*" {
                    Some(change.as_members())
                } else {
                    match change.get(imported) {
                        None => continue,
                        Some(NameChange::Whole) => None,
                        Some(NameChange::Members(members)) => Some(Some(members.clone())),
                    }
                };
                // A namespace exported again from this module's scope (`export { ns as
                // space }`, `export default ns`): its change passes on under those names.
                let exported_again: &[String] = match &members {
                    Some(_) if !import.reexport => &binding.exported_again,
                    _ => &[],
                };
                let uses = match &members {
                    None => Some((ReachRule::ImportsName, imported.to_owned())),
                    Some(_) if import.reexport || !exported_again.is_empty() => {
                        Some((ReachRule::Reexports, local.to_owned()))
                    }
                    Some(members) => match binding.namespace.uses(members.as_ref()) {
                        None => None,
                        Some(MemberUse::Whole) => {
                            Some((ReachRule::UsesNamespace, local.to_owned()))
                        }
                        Some(MemberUse::Names(member)) => {
                            Some((ReachRule::NamesMember, format!("{local}.{member}")))
                        }
                    },
                };
                let Some(uses) = uses else {
                    continue;
                };
                used = true;
                first.get_or_insert(uses);
                match members {
                    None if import.reexport => {
                        passed.add(local);
                    }
                    None => {}
                    Some(members) if import.reexport => {
                        passed.add_members(local, members);
                    }
                    Some(members) => {
                        for exported in exported_again {
                            passed.add_members(exported, members.clone());
                        }
                    }
                }
            }
            if used && !import.reexport && (self.exposed)().binary_search(&index).is_ok() {
                passed = ExportChange::All;
            }
        }
        first.map(|first| (passed, first))
    }
}
