//! What a file does with its imports, as far as [`crate::reach`] asks: per imported binding,
//! the names it exports the binding as again and how its code uses the binding as a
//! namespace (the members it names, whether it uses it whole). It is computed from a summary
//! and stored in front of it ([`crate::persist`]), so that an update deciding which importers
//! of a changed file are reached reads this, a small part, rather than every importer's
//! whole summary (effect's `Hash.ts` has 45 importers; the synthetic monorepo's most-imported
//! file, thousands).

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::facts::{ExportTarget, Expr, FileFacts, Name};

/// What a file does with its imports, one entry per import of its summary, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ImportUses {
    /// The content hash of the file the summary was made from.
    pub(crate) hash: u64,
    pub(crate) imports: Vec<ImportUse>,
}

/// One import (or `export … from`) of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ImportUse {
    /// The module specifier as written: what an update resolves again when files came or
    /// went, without the whole summary.
    pub(crate) specifier: String,
    /// `export … from` rather than `import`.
    pub(crate) reexport: bool,
    /// `export * from`.
    pub(crate) reexport_all: bool,
    pub(crate) bindings: Vec<BindingUse>,
}

/// One imported name and what the file does with it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BindingUse {
    /// The name as the other module exports it (`*` for the namespace).
    pub(crate) imported: String,
    /// The local name (for a re-export: the name this module exports it as).
    pub(crate) local: String,
    /// The names this module exports the local binding as again (`export { ns as space }`,
    /// `export default ns`), in export order.
    pub(crate) exported_again: Vec<String>,
    pub(crate) namespace: NamespaceUse,
}

/// How a file's code uses a binding as a namespace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct NamespaceUse {
    /// The members a member access names (`ns.member`), in expression order, each once.
    pub(crate) members: Vec<String>,
    /// The binding is used other than as the object of a member access: passed, indexed,
    /// spread, or the value of a declaration (a destructuring's source, a rest element).
    pub(crate) whole: bool,
    /// The qualified type references that start with the binding, in type order, each once:
    /// `None` for the binding alone as a type, else the member after it (`ns.Member`).
    pub(crate) types: Vec<Option<String>>,
}

/// What a use of a namespace's changed members comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MemberUse {
    /// A changed member is named (the first, in code order).
    Names(String),
    /// The namespace is used whole.
    Whole,
}

impl NamespaceUse {
    /// How the code uses the members `changed` (`None`: any member) of the namespace: the
    /// first changed member its member accesses name, else whole when it uses the namespace
    /// whole, else the first qualified type naming a changed member (or the namespace alone).
    pub(crate) fn uses(&self, changed: Option<&BTreeSet<String>>) -> Option<MemberUse> {
        let Some(changed) = changed else {
            return Some(MemberUse::Whole);
        };
        if let Some(member) = self.members.iter().find(|m| changed.contains(*m)) {
            return Some(MemberUse::Names(member.clone()));
        }
        if self.whole {
            return Some(MemberUse::Whole);
        }
        for ty in &self.types {
            match ty {
                None => return Some(MemberUse::Whole),
                Some(member) if changed.contains(member) => {
                    return Some(MemberUse::Names(member.clone()));
                }
                Some(_) => {}
            }
        }
        None
    }
}

/// What the file of `facts` does with its imports.
pub(crate) fn import_uses_of(facts: &FileFacts) -> ImportUses {
    let locals: HashSet<Name> = (facts.imports.iter())
        .flat_map(|import| import.bindings.iter().map(|binding| binding.local))
        .collect();
    let mut uses: HashMap<Name, NamespaceUse> = HashMap::new();
    if !locals.is_empty() {
        namespace_uses(facts, &locals, &mut uses);
    }
    let imports = (facts.imports.iter())
        .map(|import| ImportUse {
            specifier: import.specifier.clone(),
            reexport: import.reexport,
            reexport_all: import.reexport_all,
            bindings: (import.bindings.iter())
                .map(|binding| BindingUse {
                    imported: facts.name(binding.imported).to_owned(),
                    local: facts.name(binding.local).to_owned(),
                    exported_again: (facts.exports.iter())
                        .filter(|e| matches!(e.target, ExportTarget::Local(name) if name == binding.local))
                        .map(|e| facts.name(e.exported).to_owned())
                        .collect(),
                    namespace: uses.get(&binding.local).cloned().unwrap_or_default(),
                })
                .collect(),
        })
        .collect();
    ImportUses {
        hash: facts.hash,
        imports,
    }
}

/// Fills `uses` for every name of `locals` the code uses as a namespace, in one pass over
/// the expressions, declarations and types.
fn namespace_uses(
    facts: &FileFacts,
    locals: &HashSet<Name>,
    uses: &mut HashMap<Name, NamespaceUse>,
) {
    let local_of = |expr: u32| match facts.exprs.get(expr as usize) {
        Some(Expr::Ident { name, .. }) if locals.contains(name) => Some(*name),
        _ => None,
    };
    // Identifiers naming a local that are the object of a member access.
    let mut objects: HashSet<u32> = HashSet::new();
    for expr in &facts.exprs {
        if let Expr::Member { object, name } = expr
            && let Some(local) = local_of(*object)
        {
            let members = &mut uses.entry(local).or_default().members;
            let member = facts.name(*name);
            if !members.iter().any(|m| m == member) {
                members.push(member.to_owned());
            }
            objects.insert(*object);
        }
    }
    let bare = (0..facts.exprs.len())
        .filter_map(|i| u32::try_from(i).ok())
        .filter(|i| !objects.contains(i))
        .filter_map(local_of);
    let values = (facts.decls.iter())
        .filter_map(|decl| decl.init.get())
        .filter_map(local_of);
    for local in bare.chain(values).collect::<Vec<_>>() {
        uses.entry(local).or_default().whole = true;
    }
    for ty in &facts.types {
        let Some((_, path, _)) = ty.reference_parts() else {
            continue;
        };
        let Some(local) = path.first().filter(|first| locals.contains(first)) else {
            continue;
        };
        let member = path.get(1).map(|name| facts.name(*name).to_owned());
        let types = &mut uses.entry(*local).or_default().types;
        if !types.contains(&member) {
            types.push(member);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{MemberUse, import_uses_of};
    use crate::extract::Extractor;

    fn changed(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn members_whole_uses_and_qualified_types_are_recorded_per_binding() {
        let source = "import * as Hash from './Hash';\n\
            import * as Equal from './Equal';\n\
            import { a, b as c, unused } from './x';\n\
            export { Equal as Same };\n\
            export * from './all';\n\
            export function f(x: Hash.Hash, y: Equal.Equal): number { return Hash.hash(x) + Hash.combine(1); }\n\
            export const g = (v: Equal.Kind) => Equal.equals(v, v);\n\
            const passed = [Equal];\n\
            export function h(t: Hash): void { a(); c; }\n";
        let facts = Extractor::new()
            .expect("grammar")
            .extract("a.ts", source.as_bytes(), 1);
        let uses = import_uses_of(&facts);
        assert_eq!(uses.imports.len(), facts.imports.len());
        let binding = |local: &str| {
            (uses.imports.iter())
                .flat_map(|i| &i.bindings)
                .find(|b| b.local == local)
                .unwrap_or_else(|| panic!("no binding {local}"))
        };
        let hash = binding("Hash");
        assert_eq!(hash.imported, "*");
        assert_eq!(hash.namespace.members, ["hash", "combine"]);
        assert!(!hash.namespace.whole);
        assert_eq!(hash.namespace.types, [Some("Hash".to_owned()), None]);
        assert_eq!(
            hash.namespace.uses(Some(&changed(&["combine"]))),
            Some(MemberUse::Names("combine".into()))
        );
        assert_eq!(
            hash.namespace.uses(Some(&changed(&["Hash"]))),
            Some(MemberUse::Names("Hash".into()))
        );
        // `t: Hash` names the namespace alone as a type: any change reaches it.
        assert_eq!(
            hash.namespace.uses(Some(&changed(&["other"]))),
            Some(MemberUse::Whole)
        );
        let equal = binding("Equal");
        assert!(equal.namespace.whole, "passed in an array");
        assert_eq!(equal.exported_again, ["Same"]);
        assert_eq!(
            equal.namespace.uses(Some(&changed(&["equals"]))),
            Some(MemberUse::Names("equals".into())),
            "a named member comes first"
        );
        assert_eq!(
            equal.namespace.uses(Some(&changed(&["nothing"]))),
            Some(MemberUse::Whole)
        );
        assert_eq!(
            binding("unused").namespace.uses(Some(&changed(&["x"]))),
            None
        );
        assert!(
            binding("a").namespace.whole,
            "called: used other than through a member"
        );
        assert_eq!(binding("c").imported, "b");
        assert!(binding("c").namespace.whole);
        assert!(uses.imports.iter().any(|i| i.reexport_all));
        let specifiers: Vec<&str> = uses.imports.iter().map(|i| i.specifier.as_str()).collect();
        assert_eq!(specifiers, ["./Hash", "./Equal", "./x", "./all"]);
        assert_eq!(
            binding("unused").namespace.uses(None),
            Some(MemberUse::Whole)
        );
    }
}
