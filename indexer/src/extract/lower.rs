//! The lowering context: turns one syntax tree into a [`FileFacts`] summary. This file holds
//! the builder state (interned names, declarations, scopes) and the walk over statements;
//! expressions, types, members and module syntax live in sibling files.
//!
//! The walk recurses over the tree, but never deeper than [`MAX_DEPTH`] levels: a subtree
//! nested deeper than that (minified or generated code) is skipped and counted, so no input
//! can overflow the stack.

use std::collections::HashMap;

use tree_sitter::Node;
use tsgraph_engine::{NodeFlags, NodeKind, UseContext};

use super::signature::{annotation, modifiers, parameters};
use crate::facts::{
    Binding, BindingTarget, Decl, DeclId, DeclKind, Expr, ExprId, FILE_DECL, FileFacts, List,
    MODULE_SCOPE, Name, OptIndex, Scope, ScopeId, ScopeKind, TypeExpr, TypeId, TypeUse, decl_flags,
    space,
};
use crate::syntax::{Fields, Grammar, K, field};

/// How deep the walk descends before it skips a subtree.
pub(crate) const MAX_DEPTH: u32 = 256;

/// Where the walk is: what declarations made here belong to and who calls made here are
/// credited to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ctx {
    pub(super) scope: ScopeId,
    /// The named scope that qualifies the path of a declaration made here.
    pub(super) path_parent: DeclId,
    /// The declaration credited with calls made here.
    pub(super) owner: DeclId,
    /// The variable whose initializer is being walked: functions nested in it credit their
    /// calls to it (`const x = wrap(() => f())` credits `f()` to `x`).
    pub(super) wrapper: Option<DeclId>,
    /// The callable whose `return` statements are being collected.
    pub(super) function: Option<DeclId>,
    /// The class whose `this` code here refers to (kept across arrows, dropped by functions).
    pub(super) this_class: Option<DeclId>,
    /// Inside a function body (declarations are locals).
    pub(super) in_function: bool,
    /// Declarations made here are exported (`export …`).
    pub(super) exported: bool,
    pub(super) default_export: bool,
    /// `declare …` or a declaration file's body.
    pub(super) ambient: bool,
    /// The namespace whose body this is: its exports become its members.
    pub(super) namespace: Option<DeclId>,
}

pub(super) struct Lower<'t, 's, 'g> {
    pub(super) g: &'g Grammar,
    pub(super) f: Fields,
    pub(super) src: &'s [u8],
    pub(super) out: FileFacts,
    interner: HashMap<&'s str, Name>,
    depth: u32,
    /// Subtrees skipped for their depth.
    pub(super) skipped_deep: u32,
    /// The export statement whose lines a declaration spans.
    pub(super) range: Option<Node<'t>>,
    /// Set while lowering types that are not uses of what they name: a call's type
    /// arguments, an `as` cast (the checker counts neither).
    quiet_types: u32,
}

impl<'t, 's, 'g> Lower<'t, 's, 'g> {
    pub(super) fn new(g: &'g Grammar, src: &'s [u8], out: FileFacts) -> Self {
        Lower {
            g,
            f: g.f,
            src,
            out,
            interner: HashMap::new(),
            depth: 0,
            skipped_deep: 0,
            range: None,
            quiet_types: 0,
        }
    }

    pub(super) fn finish(mut self) -> FileFacts {
        for scope in &mut self.out.scopes {
            scope.bindings.sort_by_key(|b| b.name);
        }
        self.out.shrink_to_fit();
        self.out
    }

    // ---------------------------------------------------------------- small helpers

    pub(super) fn k(&self, node: Node<'_>) -> K {
        self.g.kind(node)
    }

    pub(super) fn text(&self, node: Node<'_>) -> &'s str {
        std::str::from_utf8(&self.src[node.byte_range()]).unwrap_or("")
    }

    pub(super) fn intern(&mut self, text: &'s str) -> Name {
        if let Some(&name) = self.interner.get(text) {
            return name;
        }
        let name = self.out.names.push(text);
        self.interner.insert(text, name);
        name
    }

    /// Keeps a text shown with a node (a type as written) in the file's text table; an empty
    /// text is none.
    pub(super) fn display_text(&mut self, text: &str) -> OptIndex {
        if text.is_empty() {
            OptIndex::NONE
        } else {
            self.out.texts.push(text).into()
        }
    }

    /// Interns a name that is not a slice of the source (`default`, `()`).
    pub(super) fn intern_static(&mut self, text: &'static str) -> Name {
        self.intern(text)
    }

    pub(super) fn name_of(&mut self, node: Node<'_>) -> Name {
        let text = self.text(node);
        self.intern(text)
    }

    pub(super) fn line(node: Node<'_>) -> u32 {
        u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX)
    }

    pub(super) fn end_line(node: Node<'_>) -> u32 {
        u32::try_from(node.end_position().row + 1).unwrap_or(u32::MAX)
    }

    pub(super) fn has_token(node: Node<'_>, token: &str) -> bool {
        let mut cursor = node.walk();
        node.children(&mut cursor)
            .any(|child| !child.is_named() && child.kind() == token)
    }

    pub(super) fn named_children(node: Node<'t>) -> Vec<Node<'t>> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor).collect()
    }

    /// Enters one level of the walk; `false` (and the subtree counted as skipped) past
    /// [`MAX_DEPTH`].
    pub(super) fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.skipped_deep += 1;
            return false;
        }
        self.depth += 1;
        true
    }

    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub(super) fn push_expr(&mut self, expr: Expr) -> ExprId {
        let id = u32::try_from(self.out.exprs.len()).unwrap_or(u32::MAX);
        self.out.exprs.push(expr);
        id
    }

    pub(super) fn push_type(&mut self, ty: TypeExpr) -> TypeId {
        let id = u32::try_from(self.out.types.len()).unwrap_or(u32::MAX);
        self.out.types.push(ty);
        id
    }

    pub(super) fn new_scope(&mut self, parent: ScopeId, kind: ScopeKind, owner: DeclId) -> ScopeId {
        let id = u32::try_from(self.out.scopes.len()).unwrap_or(u32::MAX);
        self.out.scopes.push(Scope {
            parent,
            kind,
            owner,
            bindings: thin_vec::ThinVec::new(),
        });
        id
    }

    pub(super) fn bind(&mut self, scope: ScopeId, name: Name, space: u8, decl: DeclId) {
        self.bind_target(scope, name, space, BindingTarget::Decl(decl));
    }

    pub(super) fn bind_target(
        &mut self,
        scope: ScopeId,
        name: Name,
        space: u8,
        target: BindingTarget,
    ) {
        if let Some(scope) = self.out.scopes.get_mut(scope as usize) {
            scope.bindings.push(Binding {
                name,
                space,
                target,
            });
        }
    }

    /// Creates a declaration spanning `node` (or the enclosing export statement).
    pub(super) fn declare(
        &mut self,
        kind: DeclKind,
        name: Name,
        node: Node<'_>,
        ctx: &Ctx,
        graph: Option<NodeKind>,
    ) -> DeclId {
        let range_start = self
            .range
            .map(Self::line)
            .unwrap_or_else(|| Self::line(node));
        let range_end = self
            .range
            .map(Self::end_line)
            .unwrap_or_else(|| Self::end_line(node));
        let mut node_flags = 0;
        if ctx.exported {
            node_flags |= NodeFlags::EXPORTED;
        }
        if ctx.default_export {
            node_flags |= NodeFlags::DEFAULT_EXPORT;
        }
        let mut flags = 0;
        if ctx.in_function {
            flags |= decl_flags::LOCAL;
        }
        if ctx.ambient {
            flags |= decl_flags::AMBIENT;
        }
        let id = u32::try_from(self.out.decls.len()).unwrap_or(u32::MAX);
        if graph.is_some() {
            let doc = super::doc::leading_doc(node, self.src, |n| self.k(n));
            if !doc.is_empty() {
                let text = self.display_text(&doc);
                self.out.docs.push((id, text));
            }
        }
        self.out.decls.push(Decl {
            node: graph,
            start_line: range_start,
            end_line: range_end,
            node_flags,
            flags,
            ..Decl::new(kind, name, ctx.path_parent, ctx.scope)
        });
        id
    }

    pub(super) fn decl_mut(&mut self, id: DeclId) -> &mut Decl {
        &mut self.out.decls[id as usize]
    }

    /// Records a type written in `from`'s signature (USES_TYPE).
    pub(super) fn type_use(&mut self, from: DeclId, ty: TypeId, context: UseContext) {
        if self.quiet_types == 0 {
            self.out.type_uses.push(TypeUse { from, ty, context });
        }
    }

    /// Runs `lower` with type uses not recorded: for types whose names are no use of the
    /// declaration around them (the function types and type literals inside still declare
    /// their signatures, which evaluation needs).
    pub(super) fn quietly<T>(&mut self, lower: impl FnOnce(&mut Self) -> T) -> T {
        self.quiet_types += 1;
        let out = lower(self);
        self.quiet_types -= 1;
        out
    }

    /// The nearest declaration that is a graph node, from `decl` up its path parents.
    pub(super) fn node_owner(&self, mut decl: DeclId) -> DeclId {
        for _ in 0..64 {
            let d = &self.out.decls[decl as usize];
            if d.node.is_some() || decl == FILE_DECL {
                return decl;
            }
            decl = d.path_parent;
        }
        FILE_DECL
    }

    // ---------------------------------------------------------------- the file

    pub(super) fn program(&mut self, root: Node<'t>) {
        let ctx = Ctx {
            scope: MODULE_SCOPE,
            path_parent: FILE_DECL,
            owner: FILE_DECL,
            wrapper: None,
            function: None,
            this_class: None,
            in_function: false,
            exported: false,
            default_export: false,
            ambient: false,
            namespace: None,
        };
        self.statements(root, &ctx);
    }

    pub(super) fn statements(&mut self, node: Node<'t>, ctx: &Ctx) {
        for child in Self::named_children(node) {
            self.statement(child, ctx);
        }
    }

    /// A node in statement position.
    pub(super) fn statement(&mut self, node: Node<'t>, ctx: &Ctx) {
        if !self.enter() {
            return;
        }
        self.statement_inner(node, ctx);
        self.leave();
    }

    fn statement_inner(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        match self.k(node) {
            K::Comment => {}
            K::ExpressionStatement => {
                for child in Self::named_children(node) {
                    self.expr(child, ctx);
                }
            }
            K::LexicalDeclaration | K::VariableDeclaration => self.variables(node, ctx),
            K::FunctionDeclaration | K::GeneratorFunctionDeclaration | K::FunctionSignature => {
                self.function_declaration(node, ctx);
            }
            K::ClassDeclaration | K::AbstractClassDeclaration => {
                self.class_declaration(node, ctx);
            }
            K::InterfaceDeclaration => self.interface_declaration(node, ctx),
            K::TypeAliasDeclaration => self.type_alias_declaration(node, ctx),
            K::EnumDeclaration => self.enum_declaration(node, ctx),
            K::InternalModule | K::Module => self.namespace_declaration(node, ctx),
            K::AmbientDeclaration => {
                // `declare global { … }` augments the global scope, as `declare module "x"`
                // augments another module: its contents are not this file's declarations.
                if Self::has_token(node, "global") {
                    return;
                }
                let inner = Ctx {
                    ambient: true,
                    ..*ctx
                };
                self.statements(node, &inner);
            }
            K::ExportStatement => self.export_statement(node, ctx),
            K::ImportStatement => self.import_statement(node, ctx),
            K::ImportAlias => self.import_alias(node, ctx),
            K::StatementBlock => {
                let scope = self.new_scope(ctx.scope, ScopeKind::Block, FILE_DECL);
                self.statements(node, &Ctx { scope, ..*ctx });
            }
            K::ReturnStatement => {
                for child in Self::named_children(node) {
                    let value = self.expr(child, ctx);
                    self.value_ref(child, value, ctx, UseContext::Return);
                    if let Some(function) = ctx.function {
                        self.decl_mut(function).lists.push(List::Returns, value);
                    }
                }
            }
            K::ForStatement => {
                let scope = self.new_scope(ctx.scope, ScopeKind::Block, FILE_DECL);
                let inner = Ctx { scope, ..*ctx };
                self.generic(node, &inner);
            }
            K::ForInStatement => self.for_in(node, ctx),
            K::TryStatement => {
                if let Some(body) = field(node, f.body) {
                    self.statement(body, ctx);
                }
                if let Some(handler) = field(node, f.handler) {
                    self.catch_clause(handler, ctx);
                }
                if let Some(finalizer) = field(node, f.finalizer) {
                    self.generic(finalizer, ctx);
                }
            }
            K::ClassStaticBlock => {
                // A function boundary with no name: its calls go to the class's owner.
                if let Some(body) = field(node, f.body) {
                    let scope = self.new_scope(ctx.scope, ScopeKind::Function, FILE_DECL);
                    let inner = Ctx {
                        scope,
                        in_function: true,
                        function: None,
                        ..*ctx
                    };
                    self.statements(body, &inner);
                }
            }
            K::Error => self.generic(node, ctx),
            kind if is_expression(kind) => {
                self.expr(node, ctx);
            }
            _ => self.generic(node, ctx),
        }
    }

    /// Walks the named children of a node the extractor has no rule for, each by what it is.
    pub(super) fn generic(&mut self, node: Node<'t>, ctx: &Ctx) {
        for child in Self::named_children(node) {
            let kind = self.k(child);
            if is_expression(kind) {
                self.expr(child, ctx);
            } else {
                self.statement(child, ctx);
            }
        }
    }

    fn catch_clause(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let scope = self.new_scope(ctx.scope, ScopeKind::Block, FILE_DECL);
        let inner = Ctx { scope, ..*ctx };
        if let Some(param) = field(node, f.parameter) {
            let ty = field(node, f.type_).map(|t| self.type_annotation(t, &inner));
            let source = self.push_expr(Expr::Unknown);
            self.pattern(param, source, ty, &inner, DeclKind::Variable);
        }
        if let Some(body) = field(node, f.body) {
            self.statements(body, &inner);
        }
    }

    fn for_in(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let scope = self.new_scope(ctx.scope, ScopeKind::Block, FILE_DECL);
        let inner = Ctx { scope, ..*ctx };
        let right = field(node, f.right).map(|r| self.expr(r, ctx));
        let is_of = field(node, f.operator).is_some_and(|op| self.text(op) == "of");
        if let Some(left) = field(node, f.left) {
            let declares = field(node, f.kind).is_some();
            let source = match (right, is_of) {
                (Some(right), true) => self.push_expr(Expr::Iterated(right)),
                _ => self.push_expr(Expr::Literal(crate::facts::Prim::String)),
            };
            if declares {
                self.pattern(left, source, None, &inner, DeclKind::Variable);
            } else {
                self.expr(left, &inner);
            }
        }
        if let Some(body) = field(node, f.body) {
            self.statement(body, &inner);
        }
    }

    // ---------------------------------------------------------------- variables

    fn variables(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let is_const = field(node, f.kind).is_some_and(|k| self.text(k) == "const");
        let declarators: Vec<Node<'t>> = Self::named_children(node)
            .into_iter()
            .filter(|c| self.k(*c) == K::VariableDeclarator)
            .collect();
        let single = declarators.len() == 1;
        let outer_range = self.range;
        for declarator in declarators {
            self.range = if single {
                Some(outer_range.unwrap_or(node))
            } else {
                None
            };
            self.variable(declarator, ctx, is_const);
        }
        self.range = outer_range;
    }

    fn variable(&mut self, declarator: Node<'t>, ctx: &Ctx, is_const: bool) {
        let f = self.f;
        let value = field(declarator, f.value);
        let Some(name_node) = field(declarator, f.name) else {
            if let Some(value) = value {
                self.expr(value, ctx);
            }
            return;
        };
        if self.k(name_node) != K::Identifier {
            // Destructuring: the bindings read members of the initializer.
            let ty = field(declarator, f.type_).map(|t| self.type_annotation(t, ctx));
            let source = match value {
                Some(value) => self.expr(value, ctx),
                None => self.push_expr(Expr::Unknown),
            };
            let range = self.range.take();
            self.pattern(name_node, source, ty, ctx, DeclKind::Variable);
            self.range = range;
            return;
        }
        let name = self.name_of(name_node);
        let module_level = !ctx.in_function;
        let unwrapped = value.map(|v| self.unwrap_outer(v));
        let mut node_flags = 0;
        if is_const {
            node_flags |= NodeFlags::CONST;
        }
        match unwrapped.map(|v| (v, self.k(v))) {
            Some((function, K::ArrowFunction | K::FunctionExpression | K::GeneratorFunction)) => {
                let decl = self.declare(
                    DeclKind::Function,
                    name,
                    declarator,
                    ctx,
                    Some(NodeKind::Function),
                );
                self.decl_mut(decl).node_flags |= node_flags;
                self.bind(ctx.scope, name, space::VALUE, decl);
                self.export_own(ctx, name, decl);
                let annotation = field(declarator, f.type_);
                self.annotated_function(decl, annotation, ctx, UseContext::Variable, |this| {
                    this.function_value(function, ctx, Some(decl));
                });
                if let Some(value) = value {
                    self.type_by_wrappers(value, function, decl, ctx);
                }
            }
            Some((class, K::Class)) => {
                let decl = self.declare(
                    DeclKind::Class,
                    name,
                    declarator,
                    ctx,
                    Some(NodeKind::Class),
                );
                self.decl_mut(decl).node_flags |= node_flags;
                self.bind(ctx.scope, name, space::VALUE | space::TYPE, decl);
                self.export_own(ctx, name, decl);
                self.class_body_of(class, decl, ctx);
            }
            _ => {
                let graph = module_level.then_some(NodeKind::Variable);
                let decl = self.declare(DeclKind::Variable, name, declarator, ctx, graph);
                self.decl_mut(decl).node_flags |= node_flags;
                self.bind(ctx.scope, name, space::VALUE, decl);
                self.export_own(ctx, name, decl);
                if let Some(type_node) = field(declarator, f.type_) {
                    let ty = self.type_annotation(type_node, &annotation_ctx(ctx, decl));
                    self.decl_mut(decl).ty = Some(ty).into();
                    self.decl_mut(decl).type_text =
                        self.display_text(&annotation(Some(type_node), self.src));
                    let from = self.node_owner(decl);
                    self.type_use(from, ty, UseContext::Variable);
                }
                if let Some(value) = value {
                    let init_ctx = Ctx {
                        wrapper: Some(decl),
                        ..*ctx
                    };
                    let init = match unwrapped {
                        Some(object) if self.k(object) == K::Object => {
                            // The object is this declaration: typed by its annotation, unless
                            // a wrapper is nearer (`const x: T = { … } satisfies B` is `B`).
                            if let Some(ty) = self.decl_mut(decl).ty.get() {
                                self.out.set_context(decl, crate::facts::Context::Typed(ty));
                            }
                            let e = self.object_value(object, &init_ctx, Some(decl));
                            self.wrap_outer(value, object, e, ctx)
                        }
                        _ => self.expr(value, &init_ctx),
                    };
                    self.decl_mut(decl).init = Some(init).into();
                    let range = self.range.take();
                    self.value_ref(value, init, ctx, UseContext::Variable);
                    self.range = range;
                }
            }
        }
    }

    /// Marks `decl` exported under its own name when declared inside `export …`.
    pub(super) fn export_own(&mut self, ctx: &Ctx, name: Name, decl: DeclId) {
        if !ctx.exported {
            return;
        }
        if let Some(namespace) = ctx.namespace {
            self.decl_mut(namespace).lists.push(List::Members, decl);
            return;
        }
        let exported = if ctx.default_export {
            self.intern_static("default")
        } else {
            name
        };
        self.out.exports.push(crate::facts::Export {
            exported,
            target: crate::facts::ExportTarget::Decl(decl),
        });
    }

    /// Binds the names of a binding pattern (`{ a, b: [c] }`, or a plain identifier), each as
    /// a declaration whose value is the matching part of `source`.
    pub(super) fn pattern(
        &mut self,
        node: Node<'t>,
        source: ExprId,
        ty: Option<TypeId>,
        ctx: &Ctx,
        kind: DeclKind,
    ) {
        if !self.enter() {
            return;
        }
        let f = self.f;
        match self.k(node) {
            K::Identifier | K::ShorthandPropertyIdentifierPattern => {
                let name = self.name_of(node);
                let destructured = !matches!(self.out.expr(source), Expr::Unknown)
                    && matches!(
                        self.out.expr(source),
                        Expr::Member { .. } | Expr::Element { .. }
                    );
                let decl = self.declare(kind, name, node, ctx, None);
                let d = self.decl_mut(decl);
                d.init = Some(source).into();
                d.ty = ty.into();
                if destructured {
                    d.flags |= decl_flags::DESTRUCTURED;
                }
                if matches!(self.out.expr(source), Expr::Iterated(_)) {
                    self.decl_mut(decl).flags |= decl_flags::ITERATED;
                }
                self.bind(ctx.scope, name, space::VALUE, decl);
            }
            K::ObjectPattern => {
                for child in Self::named_children(node) {
                    match self.k(child) {
                        K::ShorthandPropertyIdentifierPattern => {
                            let key = self.name_of(child);
                            let member = self.push_expr(Expr::Member {
                                object: source,
                                name: key,
                            });
                            self.pattern(child, member, None, ctx, kind);
                        }
                        K::PairPattern => {
                            let key = field(child, f.key).map(|k| self.property_name(k));
                            let member = match key {
                                Some(key) => self.push_expr(Expr::Member {
                                    object: source,
                                    name: key,
                                }),
                                None => self.push_expr(Expr::Unknown),
                            };
                            if let Some(value) = field(child, f.value) {
                                self.pattern(value, member, None, ctx, kind);
                            }
                        }
                        K::ObjectAssignmentPattern => {
                            // `{ a = f() }`: the default may call things.
                            if let Some(right) = field(child, f.right) {
                                self.expr(right, ctx);
                            }
                            if let Some(left) = field(child, f.left) {
                                let key = self.name_of(left);
                                let member = self.push_expr(Expr::Member {
                                    object: source,
                                    name: key,
                                });
                                self.pattern(left, member, None, ctx, kind);
                            }
                        }
                        K::RestPattern => {
                            for inner in Self::named_children(child) {
                                self.pattern(inner, source, None, ctx, kind);
                            }
                        }
                        _ => {}
                    }
                }
            }
            K::ArrayPattern => {
                let element = self.push_expr(Expr::Element { object: source });
                for child in Self::named_children(node) {
                    self.pattern(child, element, None, ctx, kind);
                }
            }
            K::AssignmentPattern => {
                if let Some(right) = field(node, f.right) {
                    self.expr(right, ctx);
                }
                if let Some(left) = field(node, f.left) {
                    self.pattern(left, source, ty, ctx, kind);
                }
            }
            K::RestPattern => {
                for inner in Self::named_children(node) {
                    self.pattern(inner, source, ty, ctx, kind);
                }
            }
            _ => {
                // `for (x.y of …)` and other assignment targets: code, not bindings.
                self.expr(node, ctx);
            }
        }
        self.leave();
    }

    // ---------------------------------------------------------------- functions

    fn function_declaration(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let name = match field(node, f.name) {
            Some(name) => self.name_of(name),
            None => self.intern_static("default"),
        };
        let decl = self.declare(
            DeclKind::Function,
            name,
            node,
            ctx,
            Some(NodeKind::Function),
        );
        if self.k(node) == K::FunctionSignature {
            self.decl_mut(decl).flags |= decl_flags::AMBIENT;
        }
        self.bind(ctx.scope, name, space::VALUE, decl);
        self.export_own(ctx, name, decl);
        self.callable(decl, node, ctx, true, None);
    }

    /// A function value its declaration annotates (`const f: Handler = (e) => …`, a class
    /// field likewise): the annotation is a type the declaration uses (in `context`) and,
    /// once `lower` has lowered the function, the function's context.
    pub(super) fn annotated_function(
        &mut self,
        decl: DeclId,
        annotation: Option<Node<'t>>,
        ctx: &Ctx,
        context: UseContext,
        lower: impl FnOnce(&mut Self),
    ) {
        let declared = annotation.map(|t| self.type_annotation(t, &annotation_ctx(ctx, decl)));
        self.decl_mut(decl).ty = declared.into();
        if let Some(declared) = declared {
            let from = self.node_owner(decl);
            self.type_use(from, declared, context);
        }
        lower(self);
        if let Some(declared) = declared {
            self.out
                .set_context(decl, crate::facts::Context::Typed(declared));
        }
    }

    /// A function, arrow or generator expression: fills `named` (a declaration its context
    /// names: a variable, a property, a default export) or makes an anonymous one.
    pub(super) fn function_value(
        &mut self,
        node: Node<'t>,
        ctx: &Ctx,
        named: Option<DeclId>,
    ) -> ExprId {
        let decl = match named {
            Some(decl) => decl,
            None => {
                let name = self.intern_static("");
                let range = self.range.take();
                let decl = self.declare(DeclKind::Function, name, node, ctx, None);
                self.range = range;
                decl
            }
        };
        if self.k(node) == K::ArrowFunction {
            self.decl_mut(decl).flags |= decl_flags::ARROW;
        }
        let this_owner = if self.k(node) == K::ArrowFunction {
            None
        } else {
            self.out.decls[decl as usize].this_owner.get()
        };
        self.callable(decl, node, ctx, named.is_some(), this_owner);
        self.push_expr(Expr::Decl(decl))
    }

    /// The parameters, type parameters, return type and body of a callable `decl` whose syntax
    /// is `node`. A `named` callable is a container: calls in its body are credited to it.
    pub(super) fn callable(
        &mut self,
        decl: DeclId,
        node: Node<'t>,
        ctx: &Ctx,
        named: bool,
        this_owner: Option<DeclId>,
    ) {
        let f = self.f;
        let (node_flags, visibility) = modifiers(node, self.src);
        let is_arrow = self.k(node) == K::ArrowFunction;
        {
            let d = self.decl_mut(decl);
            d.node_flags |= node_flags & !NodeFlags::OPTIONAL;
            if d.visibility == 0 {
                d.visibility = visibility;
            }
            if node_flags & NodeFlags::ASYNC != 0 {
                d.flags |= decl_flags::ASYNC;
            }
            if this_owner.is_some() {
                d.this_owner = this_owner.into();
            }
        }
        if matches!(
            self.k(node),
            K::GeneratorFunction | K::GeneratorFunctionDeclaration
        ) || Self::has_token(node, "*")
        {
            self.decl_mut(decl).flags |= decl_flags::GENERATOR;
        }
        let scope = self.new_scope(ctx.scope, ScopeKind::Function, decl);
        let owner = if named {
            decl
        } else if let Some(wrapper) = ctx.wrapper {
            self.mark_wrapper(wrapper);
            wrapper
        } else {
            ctx.owner
        };
        let this_class = if is_arrow {
            ctx.this_class
        } else {
            this_owner.filter(|o| self.out.decls[*o as usize].kind == DeclKind::Class)
        };
        let inner = Ctx {
            scope,
            path_parent: if named { decl } else { ctx.path_parent },
            owner,
            wrapper: None,
            function: Some(decl),
            this_class,
            in_function: true,
            exported: false,
            default_export: false,
            ambient: ctx.ambient,
            namespace: None,
        };
        let range = self.range.take();
        if let Some(params) = field(node, f.type_parameters) {
            self.type_parameters(params, decl, &inner);
        }
        let use_from = self.node_owner(decl);
        if let Some(single) = field(node, f.parameter) {
            let name = self.name_of(single);
            let param = self.declare(DeclKind::Parameter, name, single, &inner, None);
            self.decl_mut(param).path_parent = decl;
            self.bind(scope, name, space::VALUE, param);
            self.decl_mut(decl).lists.push(List::Params, param);
            let text = self.out.texts.push(self.text(single));
            self.decl_mut(decl).lists.push(List::ParamsText, text);
        }
        if let Some(params) = field(node, f.parameters) {
            for text in parameters(node, self.src) {
                let text = self.out.texts.push(&text);
                self.decl_mut(decl).lists.push(List::ParamsText, text);
            }
            self.formal_parameters(params, decl, &inner, use_from);
        }
        // A construct signature (`new <T>(input: In): Made`) writes its result where a
        // function writes its return type, under its own type parameters.
        let ret = match self.k(node) {
            K::ConstructSignature => field(node, f.type_),
            _ => field(node, f.return_type),
        };
        if let Some(ret) = ret {
            let ty = self.type_annotation(ret, &inner);
            self.decl_mut(decl).ret = Some(ty).into();
            self.decl_mut(decl).type_text = self.display_text(&annotation(Some(ret), self.src));
            self.type_use(use_from, ty, UseContext::Return);
            if let Some(narrowed) = self.predicate_type(ret, &inner) {
                self.type_use(use_from, narrowed, UseContext::Return);
            }
        }
        if let Some(body) = field(node, f.body) {
            if self.k(body) == K::StatementBlock {
                self.statements(body, &inner);
            } else {
                let value = self.expr(body, &inner);
                self.value_ref(body, value, &inner, UseContext::Return);
                self.decl_mut(decl).lists.push(List::Returns, value);
            }
        }
        self.range = range;
    }

    fn mark_wrapper(&mut self, wrapper: DeclId) {
        let d = self.decl_mut(wrapper);
        d.flags |= decl_flags::WRAPPER;
        if d.node.is_none() && d.kind == DeclKind::Variable {
            d.node = Some(NodeKind::Variable);
        }
    }

    fn formal_parameters(&mut self, params: Node<'t>, function: DeclId, ctx: &Ctx, from: DeclId) {
        let f = self.f;
        for param in Self::named_children(params) {
            let kind = self.k(param);
            if !matches!(kind, K::RequiredParameter | K::OptionalParameter) {
                continue;
            }
            let Some(pattern) = field(param, f.pattern) else {
                continue;
            };
            let ty = field(param, f.type_).map(|t| self.type_annotation(t, ctx));
            if let Some(ty) = ty {
                self.type_use(from, ty, UseContext::Parameter);
            }
            let default = field(param, f.value).map(|v| self.expr(v, ctx));
            let is_rest = self.k(pattern) == K::RestPattern;
            let ident = if is_rest {
                Self::named_children(pattern)
                    .into_iter()
                    .find(|c| self.k(*c) == K::Identifier)
            } else if self.k(pattern) == K::Identifier {
                Some(pattern)
            } else {
                None
            };
            let this_param = self.k(pattern) == K::This;
            if this_param {
                continue;
            }
            let name = match ident {
                Some(ident) => self.name_of(ident),
                None => self.intern_static(""),
            };
            let decl = self.declare(DeclKind::Parameter, name, param, ctx, None);
            {
                let d = self.decl_mut(decl);
                d.path_parent = function;
                d.ty = ty.into();
                d.init = default.into();
                if is_rest {
                    d.flags |= decl_flags::REST;
                }
            }
            self.decl_mut(function).lists.push(List::Params, decl);
            if ident.is_some() {
                self.bind(ctx.scope, name, space::VALUE, decl);
            } else {
                let source = self.push_expr(Expr::DeclValue(decl));
                self.pattern(pattern, source, None, ctx, DeclKind::Variable);
            }
            // `constructor(private repo: Repo)`: also a field of the class.
            let (flags, visibility) = modifiers(param, self.src);
            let is_property = visibility != 0 || flags & NodeFlags::READONLY != 0;
            if is_property && ident.is_some() {
                let class = self.out.decls[function as usize].this_owner;
                if let Some(class) = class.get() {
                    self.parameter_property(class, name, param, ty, flags, visibility, ctx);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn parameter_property(
        &mut self,
        class: DeclId,
        name: Name,
        param: Node<'t>,
        ty: Option<TypeId>,
        flags: u16,
        visibility: u8,
        ctx: &Ctx,
    ) {
        let named_class = self.out.decls[class as usize].node.is_some();
        let member_ctx = Ctx {
            path_parent: class,
            in_function: false,
            ..*ctx
        };
        let graph = named_class.then_some(NodeKind::Property);
        let field_decl = self.declare(DeclKind::Field, name, param, &member_ctx, graph);
        let type_text = self.display_text(&annotation(field(param, self.f.type_), self.src));
        let d = self.decl_mut(field_decl);
        d.ty = ty.into();
        d.node_flags |= flags & (NodeFlags::READONLY | NodeFlags::STATIC);
        d.visibility = visibility;
        d.type_text = type_text;
        d.flags |= decl_flags::PARAMETER_PROPERTY;
        d.flags &= !decl_flags::LOCAL;
        self.decl_mut(class).lists.push(List::Members, field_decl);
    }

    pub(super) fn type_parameters(&mut self, params: Node<'t>, owner: DeclId, ctx: &Ctx) {
        let f = self.f;
        for param in Self::named_children(params) {
            if self.k(param) != K::TypeParameter {
                continue;
            }
            let Some(name_node) = field(param, f.name) else {
                continue;
            };
            let name = self.name_of(name_node);
            let decl = self.declare(DeclKind::TypeParam, name, param, ctx, None);
            self.decl_mut(decl).path_parent = owner;
            if let Some(constraint) = field(param, f.constraint) {
                let ty = Self::named_children(constraint)
                    .into_iter()
                    .next()
                    .map(|t| self.type_expr(t, ctx));
                self.decl_mut(decl).ty = ty.into();
            }
            self.bind(ctx.scope, name, space::TYPE, decl);
            self.decl_mut(owner).lists.push(List::TypeParams, decl);
        }
    }

    /// Skips parentheses, `as`, `satisfies`, `<T>` assertions and `!`, which do not change
    /// what a value is named by its context.
    pub(super) fn unwrap_outer(&self, mut node: Node<'t>) -> Node<'t> {
        for _ in 0..32 {
            match self.k(node) {
                K::ParenthesizedExpression
                | K::AsExpression
                | K::SatisfiesExpression
                | K::TypeAssertion
                | K::NonNullExpression => match self.wrapped_expression(node) {
                    Some(inner) => node = inner,
                    None => return node,
                },
                _ => return node,
            }
        }
        node
    }

    /// After naming `inner` inside `outer` (`(x) as T`), keeps each assertion's type, from the
    /// inside out, and types what was named by the innermost wrapper that names a type
    /// ([`Lower::type_by_wrappers`]).
    pub(super) fn wrap_outer(
        &mut self,
        outer: Node<'t>,
        inner: Node<'t>,
        value: ExprId,
        ctx: &Ctx,
    ) -> ExprId {
        // Each wrapper's type, lowered once, innermost first.
        let mut typed = Vec::new();
        for wrapper in self.wrappers(outer, inner).into_iter().rev() {
            if let Some(ty_node) = self.wrapper_type_node(wrapper) {
                let ty = self.quietly(|this| this.type_expr(ty_node, ctx));
                typed.push((self.k(wrapper), ty));
            }
        }
        if let Some(&(_, innermost)) = typed.first() {
            self.set_typed_context(value, innermost);
        }
        let mut wrapped = value;
        for (kind, ty) in typed {
            // `satisfies` checks a type and keeps the expression's own.
            if kind != K::SatisfiesExpression {
                wrapped = self.push_expr(Expr::Assert { expr: wrapped, ty });
            }
        }
        wrapped
    }

    /// A function expression or object literal `expr` is typed by `ty` where it is written.
    pub(super) fn set_typed_context(&mut self, expr: ExprId, ty: crate::facts::TypeId) {
        if let Expr::Decl(decl) = self.out.expr(expr) {
            let decl = *decl;
            self.out.set_context(decl, crate::facts::Context::Typed(ty));
        }
    }

    /// The checker's contextual type for a literal or function written inside `as T`, `<T>x`
    /// or `satisfies T` is the innermost such `T` (`({ … } as A) satisfies B` is typed `A`),
    /// nearer than an annotation, a property or an argument: it replaces whatever context
    /// `decl` has.
    pub(super) fn type_by_wrappers(
        &mut self,
        outer: Node<'t>,
        inner: Node<'t>,
        decl: DeclId,
        ctx: &Ctx,
    ) {
        let innermost = self
            .wrappers(outer, inner)
            .into_iter()
            .rev()
            .find_map(|wrapper| self.wrapper_type_node(wrapper));
        if let Some(ty_node) = innermost {
            let ty = self.quietly(|this| this.type_expr(ty_node, ctx));
            self.out.set_context(decl, crate::facts::Context::Typed(ty));
        }
    }

    /// The wrappers [`Lower::unwrap_outer`] steps through from `outer` to `inner`, outermost
    /// first.
    fn wrappers(&self, outer: Node<'t>, inner: Node<'t>) -> Vec<Node<'t>> {
        let mut found = Vec::new();
        let mut node = outer;
        while node.id() != inner.id() && found.len() < 32 {
            found.push(node);
            match self.wrapped_expression(node) {
                Some(next) => node = next,
                None => break,
            }
        }
        found
    }

    /// The expression a wrapper (parentheses, `!`, `as`, `satisfies`, `<T>`) holds.
    pub(super) fn wrapped_expression(&self, wrapper: Node<'t>) -> Option<Node<'t>> {
        Self::named_children(wrapper)
            .into_iter()
            .find(|c| is_expression(self.k(*c)))
    }

    /// The type a wrapper names: `T` of `x as T` and `x satisfies T`, the type argument of
    /// `<T>x`; none for parentheses and `!`.
    pub(super) fn wrapper_type_node(&self, wrapper: Node<'t>) -> Option<Node<'t>> {
        let is_type = |c: &Node<'t>| !is_expression(self.k(*c)) && self.k(*c) != K::Comment;
        match self.k(wrapper) {
            K::AsExpression | K::SatisfiesExpression => {
                Self::named_children(wrapper).into_iter().find(is_type)
            }
            K::TypeAssertion => Self::named_children(wrapper)
                .into_iter()
                .find(|c| self.k(*c) == K::TypeArguments)
                .and_then(|arguments| {
                    Self::named_children(arguments)
                        .into_iter()
                        .find(|c| self.k(*c) != K::Comment)
                }),
            _ => None,
        }
    }
}

/// Whether a node of this kind is an expression.
pub(super) fn is_expression(kind: K) -> bool {
    matches!(
        kind,
        K::Identifier
            | K::This
            | K::Super
            | K::MemberExpression
            | K::SubscriptExpression
            | K::CallExpression
            | K::NewExpression
            | K::ArrowFunction
            | K::FunctionExpression
            | K::GeneratorFunction
            | K::Class
            | K::Object
            | K::Array
            | K::ParenthesizedExpression
            | K::NonNullExpression
            | K::AsExpression
            | K::SatisfiesExpression
            | K::TypeAssertion
            | K::AwaitExpression
            | K::YieldExpression
            | K::TernaryExpression
            | K::BinaryExpression
            | K::AssignmentExpression
            | K::AugmentedAssignmentExpression
            | K::UnaryExpression
            | K::UpdateExpression
            | K::SequenceExpression
            | K::InstantiationExpression
            | K::String
            | K::TemplateString
            | K::Number
            | K::True
            | K::False
            | K::Null
            | K::Undefined
            | K::Regex
            | K::JsxElement
            | K::JsxSelfClosingElement
            | K::SpreadElement
    )
}

/// The context the type annotation of `decl` is lowered in: the signatures and type literals
/// written in it belong to `decl`, so the types they name are credited to it (or to the node
/// that owns it), not to what encloses it.
pub(super) fn annotation_ctx(ctx: &Ctx, decl: DeclId) -> Ctx {
    Ctx {
        path_parent: decl,
        ..*ctx
    }
}
