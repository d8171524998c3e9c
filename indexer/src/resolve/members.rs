//! Members of types: own members of classes, interfaces and literals, members reached through
//! `extends` chains (with a generic base's type arguments), static members, module exports,
//! and the members of every part of a union.

use std::rc::Rc;

use super::names::Symbol;
use super::ty::{Env, Ty, empty_env};
use super::{DeclRef, Resolver};
use crate::facts::{DeclKind, FILE_DECL, decl_flags, space};

/// How deep `extends` chains are followed.
pub(super) const MAX_BASES: u32 = 16;

/// A member found on a type: its declaration and the type arguments to read it with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) decl: DeclRef,
    pub(crate) env: Env,
}

impl<'a> Resolver<'_, 'a> {
    /// The members called `name` of a value of type `ty` (several for a union).
    pub(crate) fn members(&self, ty: &Ty, name: &str) -> Vec<Member> {
        let mut out = Vec::new();
        self.collect_members(ty, name, &mut out, 0);
        out
    }

    fn collect_members(&self, ty: &Ty, name: &str, out: &mut Vec<Member>, depth: u32) {
        if depth > MAX_BASES {
            return;
        }
        match ty {
            Ty::Object(owner, env) => {
                if let Some(found) = self.object_member(*owner, env, name, false, depth) {
                    push_unique(out, found);
                }
            }
            Ty::Class(class) => {
                if let Some(found) = self.object_member(*class, &empty_env(), name, true, depth) {
                    push_unique(out, found);
                }
            }
            Ty::Module(file) => {
                match self
                    .program
                    .resolve_export(*file, name, space::VALUE | space::NAMESPACE, 0)
                {
                    Some(Symbol::Decl(decl)) => push_unique(
                        out,
                        Member {
                            decl,
                            env: empty_env(),
                        },
                    ),
                    Some(Symbol::Module(module)) => push_unique(
                        out,
                        Member {
                            decl: DeclRef::new(module, FILE_DECL),
                            env: empty_env(),
                        },
                    ),
                    _ => {}
                }
            }
            Ty::Namespace(namespace) => {
                if let Some(member) = self.own_member(*namespace, name, None) {
                    push_unique(
                        out,
                        Member {
                            decl: member,
                            env: empty_env(),
                        },
                    );
                }
            }
            Ty::Union(parts) => {
                for part in parts.iter() {
                    self.collect_members(part, name, out, depth + 1);
                }
            }
            Ty::Intersection(parts) => {
                for part in parts.iter() {
                    let before = out.len();
                    self.collect_members(part, name, out, depth + 1);
                    if out.len() > before {
                        break;
                    }
                }
            }
            Ty::Prim(prim) => {
                let wrapper = match prim {
                    crate::facts::Prim::String => "String",
                    crate::facts::Prim::Number => "Number",
                    crate::facts::Prim::Boolean => "Boolean",
                    _ => return,
                };
                let object = self.builtin_object(wrapper, Vec::new());
                self.collect_members(&object, name, out, depth + 1);
            }
            Ty::Func(..) | Ty::Unknown => {}
        }
    }

    /// The member `name` of the declaration `owner` (instance side, or static side of a
    /// class), looking through its bases.
    fn object_member(
        &self,
        owner: DeclRef,
        env: &Env,
        name: &str,
        static_side: bool,
        depth: u32,
    ) -> Option<Member> {
        // A class and interfaces of its name (or several interfaces of one name) are one
        // merged declaration: look at every part.
        let parts = self.merged_parts(owner);
        for part in &parts {
            let d = self.program.decl(*part);
            let want_static = (d.kind == DeclKind::Class).then_some(static_side);
            if let Some(found) = self.own_member(*part, name, want_static) {
                return Some(Member {
                    decl: found,
                    env: env.clone(),
                });
            }
        }
        if depth >= MAX_BASES {
            return None;
        }
        for part in &parts {
            if let Some(found) = self.inherited_member(*part, env, name, static_side, depth) {
                return Some(found);
            }
        }
        self.index_member(owner, env)
    }

    /// The declarations merged with `owner` (itself first): the classes and interfaces bound
    /// to its name in its scope.
    fn merged_parts(&self, owner: DeclRef) -> Vec<DeclRef> {
        let d = self.program.decl(owner);
        if !matches!(d.kind, DeclKind::Class | DeclKind::Interface) {
            return vec![owner];
        }
        let mut parts = vec![owner];
        for other in self
            .program
            .bound_in_scope(owner.file, d.scope, d.name, space::TYPE)
        {
            if other != owner
                && matches!(
                    self.program.decl(other).kind,
                    DeclKind::Class | DeclKind::Interface
                )
            {
                parts.push(other);
            }
        }
        parts
    }

    /// A member reached through `owner`'s bases (a class's base class, an interface's
    /// extended interfaces, an object literal's spread sources).
    fn inherited_member(
        &self,
        owner: DeclRef,
        env: &Env,
        name: &str,
        static_side: bool,
        depth: u32,
    ) -> Option<Member> {
        let d = self.program.decl(owner);
        match d.kind {
            DeclKind::Class => {
                let base = self.base_instance_with(owner, env)?;
                match (&base, static_side) {
                    (Ty::Object(base, base_env), false) => {
                        self.object_member(*base, base_env, name, false, depth + 1)
                    }
                    (Ty::Object(base, _), true) => {
                        self.object_member(*base, &empty_env(), name, true, depth + 1)
                    }
                    _ => {
                        let mut found = Vec::new();
                        self.collect_members(&base, name, &mut found, depth + 1);
                        found.into_iter().next()
                    }
                }
            }
            DeclKind::Interface => {
                for base in self.program.file(owner.file).extends_types(owner.decl) {
                    let base = self.eval_type(owner.file, *base, env);
                    let mut found = Vec::new();
                    self.collect_members(&base, name, &mut found, depth + 1);
                    if let Some(member) = found.into_iter().next() {
                        return Some(member);
                    }
                }
                None
            }
            DeclKind::ObjectLiteral
            | DeclKind::Variable
            | DeclKind::ObjectProp
            | DeclKind::Field => {
                // `{ ...base, extra }`: members of spread sources.
                for member in d.members() {
                    let m = self.program.file(owner.file).decl(*member);
                    if self.program.text(owner.file, m.name) != "..." {
                        continue;
                    }
                    let Some(init) = m.init.get() else { continue };
                    let spread = self.type_of_expr(owner.file, init);
                    let mut found = Vec::new();
                    self.collect_members(&spread, name, &mut found, depth + 1);
                    if let Some(member) = found.into_iter().next() {
                        return Some(member);
                    }
                }
                None
            }
            _ => None,
        }
    }

    fn index_member(&self, owner: DeclRef, env: &Env) -> Option<Member> {
        self.own_member(owner, "[]", None).map(|decl| Member {
            decl,
            env: env.clone(),
        })
    }

    /// A member declared by `owner` itself. `want_static` picks the side of a class.
    pub(crate) fn own_member(
        &self,
        owner: DeclRef,
        name: &str,
        want_static: Option<bool>,
    ) -> Option<DeclRef> {
        let d = self.program.decl(owner);
        let facts = self.program.file(owner.file);
        let mut fallback = None;
        for member in d.members() {
            let m = facts.decl(*member);
            if facts.name(m.name) != name {
                continue;
            }
            let is_static = m.node_flags & tsgraph_engine::NodeFlags::STATIC != 0;
            if let Some(want) = want_static
                && want != is_static
            {
                continue;
            }
            // Prefer a declaration with a body over an overload signature.
            if m.flags & decl_flags::AMBIENT == 0 {
                return Some(DeclRef::new(owner.file, *member));
            }
            fallback.get_or_insert(DeclRef::new(owner.file, *member));
        }
        fallback
    }

    /// The instance type of a class's base class.
    pub(crate) fn base_instance(&self, class: DeclRef) -> Option<Ty> {
        self.base_instance_with(class, &empty_env())
    }

    fn base_instance_with(&self, class: DeclRef, env: &Env) -> Option<Ty> {
        let facts = self.program.file(class.file);
        let base = facts.extends_expr(class.decl)?;
        let base_ty = self.type_of_expr(class.file, base);
        match base_ty {
            Ty::Class(base) => {
                let params = self.program.decl(base).type_params();
                let args: Vec<(DeclRef, Ty)> = params
                    .iter()
                    .zip(facts.extends_types(class.decl))
                    .map(|(p, t)| {
                        (
                            DeclRef::new(base.file, *p),
                            self.eval_type(class.file, *t, env),
                        )
                    })
                    .collect();
                Some(Ty::Object(base, Rc::from(args)))
            }
            // `extends mixin(Base)`: whatever the call returns, instances of it.
            Ty::Func(..) | Ty::Object(..) => {
                let made = self.construct_result(&base_ty, class.file, &[]);
                (!made.is_unknown()).then_some(made)
            }
            _ => None,
        }
    }

    /// The type of the value a member holds.
    pub(crate) fn member_value_type(&self, member: &Member) -> Ty {
        self.value_type(member.decl, &member.env)
    }
}

fn push_unique(out: &mut Vec<Member>, member: Member) {
    if !out.iter().any(|m| m.decl == member.decl) {
        out.push(member);
    }
}
