//! Module syntax: imports, re-exports and exports.

use tree_sitter::Node;
use tsgraph_engine::NodeKind;

use super::lower::{Ctx, Lower, is_expression};
use super::signature::string_value;
use crate::facts::{
    BindingTarget, DeclKind, Export, ExportTarget, Expr, Import, ImportBinding, List, Name, space,
};
use crate::syntax::{K, field};

impl<'t> Lower<'t, '_, '_> {
    pub(super) fn import_statement(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let Some(source) = field(node, f.source) else {
            // `import x = require("y")` carries its source inside the require clause.
            for child in Self::named_children(node) {
                if self.k(child) == K::ImportRequireClause {
                    self.import_require(node, child, ctx);
                }
            }
            return;
        };
        let specifier = string_value(source, self.src);
        let type_only = Self::has_token(node, "type");
        let mut bindings = Vec::new();
        for clause in Self::named_children(node) {
            match self.k(clause) {
                K::ImportClause => self.import_clause(clause, &mut bindings),
                K::ImportRequireClause => {
                    self.import_require(node, clause, ctx);
                    return;
                }
                _ => {}
            }
        }
        self.push_import(
            Import {
                specifier,
                bindings,
                type_only,
                reexport: false,
                reexport_all: false,
                line: Self::line(node),
            },
            ctx,
            type_only,
        );
    }

    fn import_clause(&mut self, clause: Node<'t>, bindings: &mut Vec<ImportBinding>) {
        let f = self.f;
        for part in Self::named_children(clause) {
            match self.k(part) {
                K::Identifier => {
                    let local = self.name_of(part);
                    let imported = self.intern_static("default");
                    bindings.push(ImportBinding { imported, local });
                }
                K::NamespaceImport => {
                    if let Some(local) = Self::named_children(part)
                        .into_iter()
                        .find(|c| self.k(*c) == K::Identifier)
                    {
                        let local = self.name_of(local);
                        let imported = self.intern_static("*");
                        bindings.push(ImportBinding { imported, local });
                    }
                }
                K::NamedImports => {
                    for spec in Self::named_children(part) {
                        if self.k(spec) != K::ImportSpecifier {
                            continue;
                        }
                        let Some(name) = field(spec, f.name) else {
                            continue;
                        };
                        let imported = self.property_name(name);
                        let local = match field(spec, f.alias) {
                            Some(alias) => self.name_of(alias),
                            None => imported,
                        };
                        bindings.push(ImportBinding { imported, local });
                    }
                }
                _ => {}
            }
        }
    }

    /// `import x = require("m")`: `x` is the module itself.
    fn import_require(&mut self, node: Node<'t>, clause: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let Some(source) = field(clause, f.source) else {
            return;
        };
        let local = Self::named_children(clause)
            .into_iter()
            .find(|c| self.k(*c) == K::Identifier);
        let Some(local) = local else { return };
        let local = self.name_of(local);
        let imported = self.intern_static("*");
        let specifier = string_value(source, self.src);
        self.push_import(
            Import {
                specifier,
                bindings: vec![ImportBinding { imported, local }],
                type_only: false,
                reexport: false,
                reexport_all: false,
                line: Self::line(node),
            },
            ctx,
            false,
        );
    }

    fn push_import(&mut self, import: Import, ctx: &Ctx, type_only: bool) {
        let index = u32::try_from(self.out.imports.len()).unwrap_or(u32::MAX);
        if !import.reexport {
            // `import type` binds the type and the namespace meanings (`import type * as
            // core` then `core.Def`; `import type { Chat }` then `Chat.Message`), never the
            // value.
            let spaces = if type_only {
                space::TYPE | space::NAMESPACE
            } else {
                space::ALL
            };
            for (j, binding) in import.bindings.iter().enumerate() {
                let j = u32::try_from(j).unwrap_or(u32::MAX);
                self.bind_target(
                    ctx.scope,
                    binding.local,
                    spaces,
                    BindingTarget::Import(index, j),
                );
            }
        }
        self.out.imports.push(import);
    }

    /// `import A = B.C;`: a local alias of a qualified name.
    pub(super) fn import_alias(&mut self, node: Node<'t>, ctx: &Ctx) {
        let children = Self::named_children(node);
        let (Some(name_node), Some(value)) = (children.first(), children.get(1)) else {
            return;
        };
        let name = self.name_of(*name_node);
        let decl = self.declare(DeclKind::Variable, name, node, ctx, None);
        let init = self.alias_target(*value, ctx);
        self.decl_mut(decl).init = Some(init).into();
        self.bind(ctx.scope, name, space::ALL, decl);
        self.export_own(ctx, name, decl);
    }

    fn alias_target(&mut self, node: Node<'t>, ctx: &Ctx) -> crate::facts::ExprId {
        let f = self.f;
        match self.k(node) {
            K::NestedIdentifier | K::MemberExpression => {
                let object = field(node, f.object).map(|o| self.alias_target(o, ctx));
                let property = field(node, f.property).map(|p| self.name_of(p));
                match (object, property) {
                    (Some(object), Some(name)) => self.push_expr(Expr::Member { object, name }),
                    _ => self.push_expr(Expr::Unknown),
                }
            }
            _ => self.expr(node, ctx),
        }
    }

    pub(super) fn export_statement(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let is_default = Self::has_token(node, "default") || Self::has_token(node, "=");
        if let Some(declaration) = field(node, f.declaration) {
            let inner = Ctx {
                exported: true,
                default_export: is_default,
                ..*ctx
            };
            let range = self.range.replace(node);
            self.statement(declaration, &inner);
            self.range = range;
            return;
        }
        if let Some(source) = field(node, f.source) {
            self.reexport(node, source, ctx);
            return;
        }
        if let Some(value) = field(node, f.value) {
            self.export_default_value(node, value, ctx);
            return;
        }
        for child in Self::named_children(node) {
            match self.k(child) {
                K::ExportClause => {
                    for (local, exported) in self.export_specifiers(child) {
                        self.push_export(ctx, exported, ExportTarget::Local(local));
                    }
                }
                kind if is_expression(kind) && is_default => {
                    self.export_default_value(node, child, ctx);
                }
                _ => {}
            }
        }
    }

    fn push_export(&mut self, ctx: &Ctx, exported: Name, target: ExportTarget) {
        if let (Some(namespace), ExportTarget::Local(local)) = (ctx.namespace, target) {
            // `export { a }` inside a namespace: the member is the local declaration.
            let scope = ctx.scope;
            let found = self.out.scopes[scope as usize]
                .bindings
                .iter()
                .find_map(|b| match b.target {
                    BindingTarget::Decl(d) if b.name == local => Some(d),
                    _ => None,
                });
            if let Some(decl) = found {
                self.decl_mut(namespace).lists.push(List::Members, decl);
            }
            let _ = exported;
            return;
        }
        self.out.exports.push(Export { exported, target });
    }

    fn export_default_value(&mut self, node: Node<'t>, value: Node<'t>, ctx: &Ctx) {
        let default = self.intern_static("default");
        let unwrapped = self.unwrap_outer(value);
        let range = self.range.replace(node);
        let inner = Ctx {
            exported: false,
            default_export: false,
            ..*ctx
        };
        match self.k(unwrapped) {
            K::Identifier => {
                let local = self.name_of(unwrapped);
                self.push_export(ctx, default, ExportTarget::Local(local));
            }
            K::ArrowFunction | K::FunctionExpression | K::GeneratorFunction => {
                let decl = self.declare(
                    DeclKind::Function,
                    default,
                    node,
                    &inner,
                    Some(NodeKind::Function),
                );
                self.mark_default(decl);
                self.function_value(unwrapped, &inner, Some(decl));
                self.push_export(ctx, default, ExportTarget::Decl(decl));
            }
            K::Class => {
                let decl = self.declare(
                    DeclKind::Class,
                    default,
                    node,
                    &inner,
                    Some(NodeKind::Class),
                );
                self.mark_default(decl);
                self.class_body_of(unwrapped, decl, &inner);
                self.push_export(ctx, default, ExportTarget::Decl(decl));
            }
            K::Object => {
                let decl = self.declare(
                    DeclKind::Variable,
                    default,
                    node,
                    &inner,
                    Some(NodeKind::Variable),
                );
                self.mark_default(decl);
                let init_ctx = Ctx {
                    wrapper: Some(decl),
                    ..inner
                };
                let object = self.object_value(unwrapped, &init_ctx, Some(decl));
                // `export default { … } satisfies Config`.
                let object = self.wrap_outer(value, unwrapped, object, &inner);
                self.decl_mut(decl).init = Some(object).into();
                self.push_export(ctx, default, ExportTarget::Decl(decl));
            }
            _ => {
                let expr = self.expr(value, &inner);
                self.push_export(ctx, default, ExportTarget::Expr(expr));
            }
        }
        self.range = range;
    }

    fn mark_default(&mut self, decl: crate::facts::DeclId) {
        self.decl_mut(decl).node_flags |=
            tsgraph_engine::NodeFlags::EXPORTED | tsgraph_engine::NodeFlags::DEFAULT_EXPORT;
    }

    /// The `(local, exported)` pairs of an `export { a, b as c }` clause.
    fn export_specifiers(&mut self, clause: Node<'t>) -> Vec<(Name, Name)> {
        let f = self.f;
        let mut pairs = Vec::new();
        for spec in Self::named_children(clause) {
            if self.k(spec) != K::ExportSpecifier {
                continue;
            }
            let Some(name) = field(spec, f.name) else {
                continue;
            };
            let local = self.property_name(name);
            let exported = match field(spec, f.alias) {
                Some(alias) => self.property_name(alias),
                None => local,
            };
            pairs.push((local, exported));
        }
        pairs
    }

    fn reexport(&mut self, node: Node<'t>, source: Node<'t>, ctx: &Ctx) {
        let mut bindings = Vec::new();
        let mut reexport_all = false;
        for child in Self::named_children(node) {
            match self.k(child) {
                K::ExportClause => {
                    for (imported, local) in self.export_specifiers(child) {
                        bindings.push(ImportBinding { imported, local });
                    }
                }
                K::NamespaceExport => {
                    if let Some(local) = Self::named_children(child).into_iter().next() {
                        let local = self.property_name(local);
                        let imported = self.intern_static("*");
                        bindings.push(ImportBinding { imported, local });
                    }
                }
                _ => {}
            }
        }
        if bindings.is_empty() && Self::has_token(node, "*") {
            reexport_all = true;
        }
        let specifier = string_value(source, self.src);
        let type_only = Self::has_token(node, "type");
        self.push_import(
            Import {
                specifier,
                bindings,
                type_only,
                reexport: true,
                reexport_all,
                line: Self::line(node),
            },
            ctx,
            type_only,
        );
    }
}
