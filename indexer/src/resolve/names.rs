//! Names: what a name means where it is written, through block scopes, imports, exports and
//! re-exports, and the built-in library's globals.

use super::exports::ExportEntry;
use super::{DeclRef, FileId, ModuleTarget, Program};
use crate::facts::{BindingTarget, ExprId, MODULE_SCOPE, Name, ScopeId};

/// How far import and re-export chains are followed (they can form cycles).
const MAX_CHAIN: u32 = 32;

/// What a name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Symbol {
    Decl(DeclRef),
    /// A module namespace (`import * as ns`).
    Module(FileId),
    /// An anonymous default-exported expression.
    Expr(FileId, ExprId),
    /// Something of a package outside the project.
    External,
}

/// A resolved name, and whether an import was followed to reach it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Named {
    pub(crate) symbol: Symbol,
    pub(crate) imported: bool,
}

impl Named {
    /// How a name names its target: through an import, or declared where it is used.
    pub(crate) fn provenance(&self) -> super::Provenance {
        if self.imported {
            super::Provenance::Import
        } else {
            super::Provenance::Direct
        }
    }
}

impl<'a> Program<'a> {
    /// The binding of `name` visible from `scope` of `file` in one of `space`'s namespaces.
    pub(crate) fn lookup(
        &self,
        file: FileId,
        mut scope: ScopeId,
        name: Name,
        space: u8,
    ) -> Option<BindingTarget> {
        let facts = self.file(file);
        for _ in 0..4096 {
            let current = facts.scopes.get(scope as usize)?;
            let bindings = &current.bindings;
            let start = bindings.partition_point(|b| b.name < name);
            let found = bindings[start..]
                .iter()
                .take_while(|b| b.name == name)
                .find(|b| b.space & space != 0);
            if let Some(binding) = found {
                return Some(binding.target);
            }
            if scope == MODULE_SCOPE {
                return None;
            }
            scope = current.parent;
        }
        None
    }

    /// Every declaration bound to `name` in one scope (overloads, merged declarations).
    pub(crate) fn bound_in_scope(
        &self,
        file: FileId,
        scope: ScopeId,
        name: Name,
        space: u8,
    ) -> impl Iterator<Item = DeclRef> + '_ {
        let bindings = self
            .file(file)
            .scopes
            .get(scope as usize)
            .map(|s| s.bindings.as_slice())
            .unwrap_or(&[]);
        let start = bindings.partition_point(|b| b.name < name);
        bindings[start..]
            .iter()
            .take_while(move |b| b.name == name)
            .filter(move |b| b.space & space != 0)
            .filter_map(move |b| match b.target {
                BindingTarget::Decl(decl) => Some(DeclRef::new(file, decl)),
                BindingTarget::Import(..) => None,
            })
    }

    /// What `name`, written in `scope` of `file`, stands for in `space`.
    pub(crate) fn resolve_name(
        &self,
        file: FileId,
        scope: ScopeId,
        name: Name,
        space: u8,
    ) -> Option<Named> {
        match self.lookup(file, scope, name, space) {
            Some(target) => self.resolve_binding(file, target, space, 0),
            None => {
                let text = self.text(file, name);
                self.global(text, space).map(|decl| Named {
                    symbol: Symbol::Decl(decl),
                    imported: false,
                })
            }
        }
    }

    /// A global of the built-in library.
    pub(crate) fn global(&self, text: &str, space: u8) -> Option<DeclRef> {
        let file = self.builtins;
        let name = self.global_name(text)?;
        match self.lookup(file, MODULE_SCOPE, name, space)? {
            BindingTarget::Decl(decl) => Some(DeclRef::new(file, decl)),
            BindingTarget::Import(..) => None,
        }
    }

    fn resolve_binding(
        &self,
        file: FileId,
        target: BindingTarget,
        space: u8,
        depth: u32,
    ) -> Option<Named> {
        match target {
            BindingTarget::Decl(decl) => Some(Named {
                symbol: Symbol::Decl(DeclRef::new(file, decl)),
                imported: false,
            }),
            BindingTarget::Import(import, binding) => {
                let symbol = self.resolve_import(file, import, binding, space, depth)?;
                Some(Named {
                    symbol,
                    imported: true,
                })
            }
        }
    }

    fn resolve_import(
        &self,
        file: FileId,
        import: u32,
        binding: u32,
        space: u8,
        depth: u32,
    ) -> Option<Symbol> {
        let facts = self.file(file);
        let import_facts = facts.imports.get(import as usize)?;
        let binding = import_facts.bindings.get(binding as usize)?;
        match self.module(file, import as usize) {
            ModuleTarget::File(module) => {
                let imported = facts.name(binding.imported);
                if imported == "*" {
                    Some(Symbol::Module(*module))
                } else {
                    self.resolve_export(*module, imported, space, depth + 1)
                }
            }
            ModuleTarget::External(_) => Some(Symbol::External),
            ModuleTarget::Unresolved => None,
        }
    }

    /// What module `file` exports as `name`, in `space`.
    pub(crate) fn resolve_export(
        &self,
        file: FileId,
        name: &str,
        space: u8,
        depth: u32,
    ) -> Option<Symbol> {
        if depth > MAX_CHAIN {
            return None;
        }
        match *self.export_table(file)?.get(name)? {
            ExportEntry::Local { file, name } => {
                let target = self.lookup(file, MODULE_SCOPE, name, space)?;
                self.resolve_binding(file, target, space, depth + 1)
                    .map(|named| named.symbol)
            }
            ExportEntry::Decl(decl) => Some(Symbol::Decl(decl)),
            ExportEntry::Expr { file, expr } => Some(Symbol::Expr(file, expr)),
            ExportEntry::Reexport {
                file,
                import,
                binding,
            } => self.resolve_import(file, import, binding, space, depth + 1),
            ExportEntry::Namespace(module) => Some(Symbol::Module(module)),
            ExportEntry::Ambiguous => None,
        }
    }
}
