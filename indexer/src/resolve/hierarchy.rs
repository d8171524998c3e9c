//! The type hierarchy of the project: which class extends which, what implements or extends
//! which interface, and from there the implementations an interface or abstract member
//! dispatches to.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::ty::{Ty, empty_env};
use super::{DeclRef, FileId, Resolver};
use crate::facts::DeclKind;

/// The base class of every class and the direct subtypes of every class and interface of the
/// project.
///
/// It lives as long as the index: an update re-resolves the heritage clauses of the files
/// whose names may resolve differently, and of the files whose clauses named a declaration of
/// a re-extracted file (its declaration ids may have moved).
#[derive(Debug, Default)]
pub(crate) struct Hierarchy {
    /// A class's base class.
    bases: HashMap<DeclRef, DeclRef>,
    /// Every direct subtype: classes extending a class, classes implementing an interface,
    /// interfaces extending an interface.
    subtypes: HashMap<DeclRef, Vec<DeclRef>>,
    /// Per file: what its heritage clauses resolved to.
    clauses: Vec<Vec<Clause>>,
}

/// One resolved heritage clause: `sub extends/implements sup`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Clause {
    sub: DeclRef,
    sup: DeclRef,
    /// `extends` of a class (its base), rather than `implements` or an interface's `extends`.
    base: bool,
}

impl Hierarchy {
    /// Resolves every `extends` and `implements` clause of the project's files.
    pub(crate) fn build(resolver: &Resolver<'_, '_>, files: usize) -> Hierarchy {
        let mut hierarchy = Hierarchy::default();
        let all: Vec<FileId> = (0..files)
            .map(|file| FileId::try_from(file).unwrap_or(u32::MAX))
            .collect();
        hierarchy.update(resolver, files, &all, &[]);
        hierarchy
    }

    /// Re-resolves the clauses of `relinked` files (those whose names may resolve
    /// differently) and of every file with a clause naming a declaration of an `extracted`
    /// one. `files` is the project's file count (it may have grown).
    pub(crate) fn update(
        &mut self,
        resolver: &Resolver<'_, '_>,
        files: usize,
        relinked: &[FileId],
        extracted: &[FileId],
    ) {
        self.clauses.resize_with(files, Vec::new);
        let mut redo: BTreeSet<FileId> = relinked.iter().copied().collect();
        if !extracted.is_empty() {
            let extracted: HashSet<FileId> = extracted.iter().copied().collect();
            redo.extend(extracted.iter().copied());
            for (file, clauses) in self.clauses.iter().enumerate() {
                if clauses.iter().any(|c| extracted.contains(&c.sup.file)) {
                    redo.insert(FileId::try_from(file).unwrap_or(u32::MAX));
                }
            }
        }
        let mut touched: HashSet<DeclRef> = HashSet::new();
        for &file in &redo {
            for clause in std::mem::take(&mut self.clauses[file as usize]) {
                self.bases.remove(&clause.sub);
                if let Some(list) = self.subtypes.get_mut(&clause.sup) {
                    list.retain(|sub| sub.file != file);
                    touched.insert(clause.sup);
                }
            }
        }
        for &file in &redo {
            let clauses = resolve_clauses(resolver, file);
            for clause in &clauses {
                if clause.base {
                    self.bases.insert(clause.sub, clause.sup);
                }
                self.subtypes
                    .entry(clause.sup)
                    .or_default()
                    .push(clause.sub);
                touched.insert(clause.sup);
                touched.insert(clause.sub);
            }
            self.clauses[file as usize] = clauses;
        }
        for decl in touched {
            if let Some(list) = self.subtypes.get_mut(&decl) {
                list.sort();
                list.dedup();
                if list.is_empty() {
                    self.subtypes.remove(&decl);
                }
            }
        }
    }

    /// The hierarchy of heritage clauses resolved before (per file, as
    /// [`Hierarchy::clauses`] gave them): nothing is resolved again.
    pub(crate) fn from_clauses(clauses: Vec<Vec<Clause>>) -> Hierarchy {
        let mut hierarchy = Hierarchy::default();
        for clause in clauses.iter().flatten() {
            if clause.base {
                hierarchy.bases.insert(clause.sub, clause.sup);
            }
            hierarchy
                .subtypes
                .entry(clause.sup)
                .or_default()
                .push(clause.sub);
        }
        for list in hierarchy.subtypes.values_mut() {
            list.sort();
            list.dedup();
        }
        hierarchy.clauses = clauses;
        hierarchy
    }

    /// What each file's heritage clauses resolved to, to keep.
    pub(crate) fn clauses(&self) -> &[Vec<Clause>] {
        &self.clauses
    }

    /// A class's base class.
    pub(crate) fn base(&self, class: DeclRef) -> Option<DeclRef> {
        self.bases.get(&class).copied()
    }

    /// Every type below `ty`, transitively, in a stable order.
    pub(crate) fn below(&self, ty: DeclRef) -> Vec<DeclRef> {
        let mut seen: HashSet<DeclRef> = HashSet::from([ty]);
        let mut out = Vec::new();
        let mut stack = vec![ty];
        while let Some(current) = stack.pop() {
            for sub in self
                .subtypes
                .get(&current)
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                if seen.insert(*sub) {
                    out.push(*sub);
                    stack.push(*sub);
                }
            }
        }
        out.sort();
        out
    }
}

/// What the `extends` and `implements` clauses of `file`'s classes and interfaces name.
fn resolve_clauses(resolver: &Resolver<'_, '_>, file: FileId) -> Vec<Clause> {
    let mut out = Vec::new();
    let facts = resolver.program.file(file);
    for (index, decl) in facts.decls.iter().enumerate() {
        let sub = DeclRef::new(file, u32::try_from(index).unwrap_or(u32::MAX));
        let supers = |types: &[crate::facts::TypeId], out: &mut Vec<Clause>| {
            for ty in types {
                for sup in object_decls(&resolver.eval_type(file, *ty, &empty_env())) {
                    out.push(Clause {
                        sub,
                        sup,
                        base: false,
                    });
                }
            }
        };
        match decl.kind {
            DeclKind::Class => {
                if let Some(Ty::Object(sup, _)) = resolver.base_instance(sub) {
                    out.push(Clause {
                        sub,
                        sup,
                        base: true,
                    });
                }
                supers(facts.implements(sub.decl), &mut out);
            }
            DeclKind::Interface => supers(facts.extends_types(sub.decl), &mut out),
            _ => {}
        }
    }
    out
}

/// The declarations behind an evaluated heritage type (each part of an intersection).
pub(crate) fn object_decls(ty: &Ty) -> Vec<DeclRef> {
    match ty {
        Ty::Object(decl, _) => vec![*decl],
        Ty::Intersection(parts) | Ty::Union(parts) => parts.iter().flat_map(object_decls).collect(),
        _ => Vec::new(),
    }
}
