//! The type hierarchy of the project: which class extends which, what implements or extends
//! which interface, and from there the implementations an interface or abstract member
//! dispatches to.

use std::collections::{HashMap, HashSet};

use super::ty::{Ty, empty_env};
use super::{DeclRef, FileId, Resolver};
use crate::facts::DeclKind;

/// Direct supertypes and subtypes of every class and interface of the project.
#[derive(Debug, Default)]
pub(crate) struct Hierarchy {
    /// A class's base class.
    bases: HashMap<DeclRef, DeclRef>,
    /// A class's implemented interfaces, an interface's extended interfaces.
    supers: HashMap<DeclRef, Vec<DeclRef>>,
    /// Every direct subtype: classes extending a class, classes implementing an interface,
    /// interfaces extending an interface.
    subtypes: HashMap<DeclRef, Vec<DeclRef>>,
}

impl Hierarchy {
    /// Resolves every `extends` and `implements` clause of the project's files.
    pub(crate) fn build(resolver: &Resolver<'_, '_>, files: usize) -> Hierarchy {
        let mut hierarchy = Hierarchy::default();
        for file in 0..files {
            let file = FileId::try_from(file).unwrap_or(u32::MAX);
            let facts = resolver.program.file(file);
            for (index, decl) in facts.decls.iter().enumerate() {
                let here = DeclRef::new(file, u32::try_from(index).unwrap_or(u32::MAX));
                match decl.kind {
                    DeclKind::Class => {
                        if let Some(Ty::Object(base, _)) = resolver.base_instance(here) {
                            hierarchy.bases.insert(here, base);
                            hierarchy.subtypes.entry(base).or_default().push(here);
                        }
                        for ty in &decl.implements {
                            for target in object_decls(&resolver.eval_type(file, *ty, &empty_env()))
                            {
                                hierarchy.supers.entry(here).or_default().push(target);
                                hierarchy.subtypes.entry(target).or_default().push(here);
                            }
                        }
                    }
                    DeclKind::Interface => {
                        for ty in &decl.extends_types {
                            for target in object_decls(&resolver.eval_type(file, *ty, &empty_env()))
                            {
                                hierarchy.supers.entry(here).or_default().push(target);
                                hierarchy.subtypes.entry(target).or_default().push(here);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        for list in hierarchy
            .subtypes
            .values_mut()
            .chain(hierarchy.supers.values_mut())
        {
            list.sort();
            list.dedup();
        }
        hierarchy
    }

    /// A class's base class.
    pub(crate) fn base(&self, class: DeclRef) -> Option<DeclRef> {
        self.bases.get(&class).copied()
    }

    /// A class's implemented interfaces, or an interface's extended ones.
    pub(crate) fn supers(&self, ty: DeclRef) -> &[DeclRef] {
        self.supers.get(&ty).map(Vec::as_slice).unwrap_or(&[])
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

    /// Every interface a class implements, directly, through its bases, or through the
    /// interfaces those extend.
    pub(crate) fn interfaces_of(&self, class: DeclRef) -> Vec<DeclRef> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<DeclRef> = Vec::new();
        let mut current = Some(class);
        let mut hops = 0;
        while let Some(c) = current {
            stack.extend(self.supers(c).iter().copied());
            current = self.base(c);
            hops += 1;
            if hops > 64 {
                break;
            }
        }
        while let Some(iface) = stack.pop() {
            if seen.insert(iface) {
                out.push(iface);
                stack.extend(self.supers(iface).iter().copied());
            }
        }
        out.sort();
        out
    }
}

/// The declarations behind an evaluated heritage type (each part of an intersection).
fn object_decls(ty: &Ty) -> Vec<DeclRef> {
    match ty {
        Ty::Object(decl, _) => vec![*decl],
        Ty::Intersection(parts) | Ty::Union(parts) => parts.iter().flat_map(object_decls).collect(),
        _ => Vec::new(),
    }
}
