//! Computed member keys by the constant they name, not by their text: `[TypeId]` in one file
//! and `[Message.TypeId]` in another are the same key when both name one constant, and two
//! `[TypeId]` members naming different symbol constants are different keys (as the checker
//! has it: a symbol key is its symbol). A string or number constant keys by its value, which
//! summaries do not keep: two such constants are one key when they are one declaration, and
//! otherwise their text decides, as for plain names.

use super::members::{MAX_BASES, Member};
use super::names::Symbol;
use super::ty::{Ty, empty_env};
use super::{DeclRef, FileId, Resolver};
use crate::facts::{DeclKind, Prim, TypeExpr, TypeId, space};

impl Resolver<'_, '_> {
    /// The members of `ty` (a class instance) that implement `wanted`, an interface member
    /// or an abstract method: by name, or, for a computed key naming a constant, by that
    /// constant. Member IMPLEMENTS and dispatch both find implementations this way.
    pub(crate) fn implementing_members(&self, ty: &Ty, wanted: DeclRef) -> Vec<Member> {
        let name = self.program.decl_name(wanted);
        let by_name = self.members(ty, name);
        let Some(key) = self.computed_key(wanted) else {
            return by_name;
        };
        // The same text names the same key unless both name different symbols.
        let same: Vec<Member> = by_name
            .into_iter()
            .filter(|m| match (self.computed_key(m.decl), key) {
                (Some(Key::Symbol(own)), Key::Symbol(wanted)) => own == wanted,
                _ => true,
            })
            .collect();
        if !same.is_empty() {
            return same;
        }
        let Ty::Object(class, _) = ty else {
            return Vec::new();
        };
        self.member_with_key(*class, key).into_iter().collect()
    }

    /// The first member of `class` or of its bases whose computed key names `key`.
    fn member_with_key(&self, class: DeclRef, key: Key) -> Option<Member> {
        let mut owner = class;
        let mut env = empty_env();
        for _ in 0..MAX_BASES {
            for &member in self.program.decl(owner).members() {
                let member = DeclRef::new(owner.file, member);
                if self.computed_key(member) == Some(key) {
                    return Some(Member { decl: member, env });
                }
            }
            match self.base_instance(owner)? {
                Ty::Object(base, base_env) => (owner, env) = (base, base_env),
                _ => return None,
            }
        }
        None
    }

    /// The constant a computed member key names (`[TypeId]`, `[Message.TypeId]`); `None` for
    /// a plain name or a key that is not a dotted name of the project.
    pub(crate) fn computed_key(&self, member: DeclRef) -> Option<Key> {
        // Most members have plain names: nothing to resolve, nothing to remember.
        let facts = self.program.file(member.file);
        if !facts.name(self.program.decl(member).name).starts_with('[') {
            return None;
        }
        if let Some(known) = self.caches.borrow().keys.get(&member) {
            return *known;
        }
        let key = self.computed_key_uncached(member);
        self.caches.borrow_mut().keys.insert(member, key);
        key
    }

    fn computed_key_uncached(&self, member: DeclRef) -> Option<Key> {
        let d = self.program.decl(member);
        let facts = self.program.file(member.file);
        let inner = facts
            .name(d.name)
            .strip_prefix('[')?
            .strip_suffix(']')?
            .trim();
        let mut segments = inner.split('.').map(str::trim);
        let first = segments.next()?;
        // Names are interned once per file: the key's first segment has one number.
        let (name, _) = facts.names.iter().find(|(_, text)| *text == first)?;
        let named = self.program.resolve_name(
            member.file,
            d.scope,
            name,
            space::VALUE | space::NAMESPACE,
        )?;
        let mut symbol = named.symbol;
        for segment in segments {
            if !self.is_container(symbol) {
                return None;
            }
            symbol = self.container_member(symbol, segment)?;
        }
        let Symbol::Decl(constant) = symbol else {
            return None;
        };
        let by_value = matches!(
            self.value_type(constant, &empty_env()),
            Ty::Prim(Prim::String | Prim::Number | Prim::Boolean | Prim::BigInt)
        );
        Some(if by_value {
            Key::Value(constant)
        } else {
            Key::Symbol(self.unique_symbol_of(constant))
        })
    }

    /// The constant whose unique symbol `constant` holds: one annotated `typeof X`, directly
    /// or through a type alias of it (`const TypeId: Public.TypeId = Symbol.for(…) as …` with
    /// `type TypeId = typeof TypeId` in `Public`), holds X's; any other holds its own.
    fn unique_symbol_of(&self, constant: DeclRef) -> DeclRef {
        let mut current = constant;
        for _ in 0..MAX_HOPS {
            let d = self.program.decl(current);
            if d.kind != DeclKind::Variable {
                break;
            }
            match d
                .ty
                .get()
                .and_then(|ty| self.typeof_target(current.file, ty, 0))
            {
                Some(next) if next != current => current = next,
                _ => break,
            }
        }
        current
    }

    /// The declaration `typeof X` names, when `ty` is one or an alias of one.
    fn typeof_target(&self, file: FileId, ty: TypeId, depth: u32) -> Option<DeclRef> {
        if depth >= MAX_HOPS {
            return None;
        }
        let facts = self.program.file(file);
        match facts.ty(ty) {
            TypeExpr::Query(expr) => self.named_decl(file, *expr),
            expr => {
                let (scope, path, _) = expr.reference_parts()?;
                let alias = self.resolve_type_path(file, scope, path)?;
                let d = self.program.decl(alias);
                if d.kind != DeclKind::TypeAlias {
                    return None;
                }
                self.typeof_target(alias.file, d.ty.get()?, depth + 1)
            }
        }
    }
}

/// What a computed member key names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    /// A symbol constant (after `typeof` annotations): the key is the symbol.
    Symbol(DeclRef),
    /// A string or number constant: the key is its value.
    Value(DeclRef),
}

/// How many constants and aliases a key is followed through.
const MAX_HOPS: u32 = 8;
