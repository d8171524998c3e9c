//! Calls through a key that is not a literal: `renderers[kind](x)`, `steps[i]()`. Any function
//! the table or list holds may be the one called, so the call reaches each of them as a
//! may-call ([`Provenance::Element`]). The checker proves none of them (it names the first
//! member of the element's union at best), which is why they are marked and scored apart.
//!
//! Only values count as tables: object literals (through a variable, a property or a field,
//! whatever type annotates it, as `Record<Kind, Renderer>` does) and lists of functions. A class
//! instance or an interface indexed by a computed key (`this[name]()`) stays unresolved: its
//! members are every method of the class, far more than the call can mean.

use super::calls::{CallTarget, Provenance, Unresolved};
use super::members::Member;
use super::names::Symbol;
use super::ty::{Ty, empty_env};
use super::{DeclRef, FileId, Resolver};
use crate::facts::{DeclKind, Expr, ExprId, space};

impl Resolver<'_, '_> {
    /// The functions `object[key](…)` may call, `key` not a literal.
    pub(crate) fn element_call(
        &self,
        file: FileId,
        object: ExprId,
    ) -> Result<Vec<CallTarget>, Unresolved> {
        let mut targets = Vec::new();
        let receiver = self.type_of_expr(file, object);
        // Lists of functions, and whatever an index signature holds.
        self.push_callables(&self.element_type(&receiver), &mut targets);
        if targets.is_empty() {
            for table in self.tables(file, object, &receiver) {
                let d = self.program.decl(table);
                for member in d.members() {
                    let member = DeclRef::new(table.file, *member);
                    self.push_entry(member, &mut targets);
                }
            }
        }
        if targets.is_empty() {
            return Err(Unresolved::Dynamic);
        }
        Ok(targets)
    }

    /// The value declarations with object-literal members that `object` names: those its type
    /// is an object of, or, when an annotation hides them, the declaration the expression
    /// names itself (`const table: Record<K, F> = { … }`).
    fn tables(&self, file: FileId, object: ExprId, receiver: &Ty) -> Vec<DeclRef> {
        let mut tables: Vec<DeclRef> = super::object_decls(receiver)
            .into_iter()
            .filter(|decl| self.is_table(*decl))
            .collect();
        if tables.is_empty()
            && let Some(named) = self.named_decl(file, object)
            && self.is_table(named)
        {
            tables.push(named);
        }
        tables
    }

    /// An object literal, or a variable, property or field holding one.
    fn is_table(&self, decl: DeclRef) -> bool {
        let d = self.program.decl(decl);
        !self.program.is_builtin(decl.file)
            && !d.members().is_empty()
            && matches!(
                d.kind,
                DeclKind::ObjectLiteral
                    | DeclKind::Variable
                    | DeclKind::ObjectProp
                    | DeclKind::Field
            )
    }

    /// The declaration a name or member expression names.
    pub(super) fn named_decl(&self, file: FileId, expr: ExprId) -> Option<DeclRef> {
        match self.named_symbol(file, expr, 0)? {
            Symbol::Decl(decl) => Some(decl),
            _ => None,
        }
    }

    /// What a name or member expression names: through namespace imports (type-only ones
    /// too, as `typeof ns.key` reads them), namespaces and enums, else the members of the
    /// object's type.
    fn named_symbol(&self, file: FileId, expr: ExprId, depth: u32) -> Option<Symbol> {
        const MAX_SEGMENTS: u32 = 16;
        if depth > MAX_SEGMENTS {
            return None;
        }
        let facts = self.program.file(file);
        match facts.expr(expr) {
            Expr::Ident { name, scope } => Some(
                self.program
                    .resolve_name(file, *scope, *name, space::VALUE | space::NAMESPACE)?
                    .symbol,
            ),
            Expr::Member { object, name } => {
                let text = facts.name(*name);
                match self.named_symbol(file, *object, depth + 1) {
                    Some(container) if self.is_container(container) => {
                        self.container_member(container, text)
                    }
                    _ => {
                        let receiver = self.type_of_expr(file, *object);
                        match self.members(&receiver, text).as_slice() {
                            [only] => Some(Symbol::Decl(only.decl)),
                            _ => None,
                        }
                    }
                }
            }
            _ => None,
        }
    }

    /// Whether `symbol` is a module namespace, a namespace or an enum: what a dotted name
    /// reads members of by name.
    pub(super) fn is_container(&self, symbol: Symbol) -> bool {
        match symbol {
            Symbol::Module(_) => true,
            Symbol::Decl(decl) => matches!(
                self.program.decl(decl).kind,
                DeclKind::Namespace | DeclKind::Enum
            ),
            _ => false,
        }
    }

    /// The member `name` of a container ([`Resolver::is_container`]): a module's export, a
    /// namespace's or enum's own member.
    pub(super) fn container_member(&self, container: Symbol, name: &str) -> Option<Symbol> {
        match container {
            Symbol::Module(module) => {
                self.program
                    .resolve_export(module, name, space::VALUE | space::NAMESPACE, 0)
            }
            Symbol::Decl(decl) => self.own_member(decl, name, None).map(Symbol::Decl),
            _ => None,
        }
    }

    /// A table entry that holds a function: a method of the literal, or a property whose value
    /// is a function (declared elsewhere, or written in place).
    fn push_entry(&self, entry: DeclRef, out: &mut Vec<CallTarget>) {
        let d = self.program.decl(entry);
        match d.kind {
            DeclKind::Method if self.is_concrete_callable(entry) => push_target(out, entry),
            DeclKind::ObjectProp | DeclKind::Field => {
                let member = Member {
                    decl: entry,
                    env: empty_env(),
                };
                if !matches!(self.member_value_type(&member), Ty::Func(..)) {
                    return;
                }
                if let Ok(found) = self.call_of_member(&member, Provenance::Element) {
                    for target in found {
                        push_target(out, target.decl);
                    }
                }
            }
            _ => {}
        }
    }

    /// Every function a value of type `ty` may be (each part of a union).
    fn push_callables(&self, ty: &Ty, out: &mut Vec<CallTarget>) {
        match ty {
            Ty::Func(func, _) if self.is_concrete_callable(*func) => push_target(out, *func),
            Ty::Union(parts) => {
                for part in parts.iter() {
                    self.push_callables(part, out);
                }
            }
            _ => {}
        }
    }
}

fn push_target(out: &mut Vec<CallTarget>, decl: DeclRef) {
    if !out.iter().any(|t| t.decl == decl) {
        out.push(CallTarget {
            decl,
            provenance: Provenance::Element,
            receiver: None,
        });
    }
}
