//! Declarations with members: classes, interfaces, type aliases of type literals, enums,
//! namespaces and object literals.

use tree_sitter::Node;
use tsgraph_engine::{NodeFlags, NodeKind, UseContext};

use super::lower::{Ctx, Lower, annotation_ctx, is_expression};
use super::signature::{annotation, modifiers, string_value};
use crate::facts::{
    Context, DeclId, DeclKind, Expr, ExprId, List, Name, OptIndex, ScopeKind, TypeExpr, TypeId,
    space,
};
use crate::syntax::{K, field};

impl<'t> Lower<'t, '_, '_> {
    /// A member or property name: identifiers and `#private` names as written, string keys
    /// without quotes, computed keys as `[expression]`.
    pub(super) fn property_name(&mut self, node: Node<'t>) -> Name {
        match self.k(node) {
            K::String => {
                let value = string_value(node, self.src);
                let text = self.text(node);
                // The unquoted value is a slice of the source between the quotes.
                let inner = text
                    .get(1..text.len().saturating_sub(1))
                    .filter(|inner| *inner == value)
                    .unwrap_or(text);
                self.intern(inner)
            }
            K::ComputedPropertyName => {
                let text = self.text(node);
                self.intern(text)
            }
            _ => self.name_of(node),
        }
    }

    // ---------------------------------------------------------------- classes

    pub(super) fn class_declaration(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let name = match field(node, f.name) {
            Some(name) => self.name_of(name),
            None => self.intern_static("default"),
        };
        let decl = self.declare(DeclKind::Class, name, node, ctx, Some(NodeKind::Class));
        if self.k(node) == K::AbstractClassDeclaration {
            self.decl_mut(decl).node_flags |= NodeFlags::ABSTRACT;
        }
        self.bind(ctx.scope, name, space::VALUE | space::TYPE, decl);
        self.export_own(ctx, name, decl);
        self.class_body_of(node, decl, ctx);
    }

    /// A class expression, named by its context (`named`), by its own name, or anonymous.
    pub(super) fn class_value(
        &mut self,
        node: Node<'t>,
        ctx: &Ctx,
        named: Option<DeclId>,
    ) -> ExprId {
        let decl = match named {
            Some(decl) => decl,
            None => {
                let own = field(node, self.f.name);
                let name = match own {
                    Some(own) => self.name_of(own),
                    None => self.intern_static(""),
                };
                let graph = own.map(|_| NodeKind::Class);
                let range = self.range.take();
                let decl = self.declare(DeclKind::Class, name, node, ctx, graph);
                self.range = range;
                decl
            }
        };
        self.class_body_of(node, decl, ctx);
        self.push_expr(Expr::Decl(decl))
    }

    /// Type parameters, heritage, decorators and members of the class syntax `node`.
    pub(super) fn class_body_of(&mut self, node: Node<'t>, decl: DeclId, ctx: &Ctx) {
        let f = self.f;
        let range = self.range.take();
        let scope = self.new_scope(ctx.scope, ScopeKind::Class, decl);
        let named = self.out.decls[decl as usize].node.is_some();
        let class_ctx = Ctx {
            scope,
            wrapper: None,
            exported: false,
            default_export: false,
            ..*ctx
        };
        if let Some(params) = field(node, f.type_parameters) {
            self.type_parameters(params, decl, &class_ctx);
        }
        let use_from = self.node_owner(decl);
        for child in Self::named_children(node) {
            match self.k(child) {
                K::ClassHeritage => {
                    for clause in Self::named_children(child) {
                        match self.k(clause) {
                            K::ExtendsClause => {
                                for part in Self::named_children(clause) {
                                    if self.k(part) == K::TypeArguments {
                                        let args = self.type_arguments(Some(part), &class_ctx);
                                        for arg in &args {
                                            self.type_use(use_from, *arg, UseContext::Heritage);
                                        }
                                        self.out.heritage_mut(decl).extends_types = args.into();
                                    } else if is_expression(self.k(part)) {
                                        // The base expression runs where the class is defined.
                                        let base = self.expr(part, ctx);
                                        self.out.heritage_mut(decl).extends_expr = Some(base);
                                    }
                                }
                            }
                            K::ImplementsClause => {
                                for ty in Self::named_children(clause) {
                                    let ty = self.type_expr(ty, &class_ctx);
                                    self.heritage_arguments(use_from, ty);
                                    self.out.heritage_mut(decl).implements.push(ty);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                K::Decorator => {
                    self.generic(child, ctx);
                }
                _ => {}
            }
        }
        if let Some(body) = field(node, f.body) {
            let member_ctx = Ctx {
                scope,
                path_parent: if named { decl } else { ctx.path_parent },
                owner: ctx.owner,
                wrapper: None,
                function: None,
                this_class: Some(decl),
                in_function: false,
                exported: false,
                default_export: false,
                ambient: ctx.ambient,
                namespace: None,
            };
            let mut decorators: Vec<Node<'t>> = Vec::new();
            for member in Self::named_children(body) {
                if self.k(member) == K::Decorator {
                    decorators.push(member);
                    continue;
                }
                let member_decl = self.class_member(member, decl, named, &member_ctx);
                // A decorator of a method runs as part of that method's definition.
                let decorator_owner = member_decl
                    .filter(|m| self.out.decls[*m as usize].node == Some(NodeKind::Method))
                    .unwrap_or(ctx.owner);
                let decorator_ctx = Ctx {
                    owner: decorator_owner,
                    ..member_ctx
                };
                for decorator in decorators.drain(..) {
                    self.generic(decorator, &decorator_ctx);
                }
            }
        }
        self.range = range;
    }

    /// One member of a class body; returns its declaration.
    fn class_member(
        &mut self,
        member: Node<'t>,
        class: DeclId,
        named: bool,
        ctx: &Ctx,
    ) -> Option<DeclId> {
        let f = self.f;
        let kind = self.k(member);
        match kind {
            K::MethodDefinition | K::MethodSignature | K::AbstractMethodSignature => {
                let name_node = field(member, f.name)?;
                let name = self.property_name(name_node);
                let is_constructor = self.text(name_node) == "constructor";
                let decl_kind = if is_constructor {
                    DeclKind::Constructor
                } else if Self::has_token(member, "get") {
                    DeclKind::Getter
                } else if Self::has_token(member, "set") {
                    DeclKind::Setter
                } else {
                    DeclKind::Method
                };
                let graph = (named && !is_constructor).then_some(NodeKind::Method);
                let decl = self.declare(decl_kind, name, member, ctx, graph);
                if kind != K::MethodDefinition || field(member, f.body).is_none() {
                    self.decl_mut(decl).flags |= crate::facts::decl_flags::AMBIENT;
                }
                self.decl_mut(decl).this_owner = Some(class).into();
                if is_constructor {
                    // Calls in a constructor are credited to the class (a named one).
                    let ctor_ctx = Ctx {
                        owner: if named { class } else { ctx.owner },
                        ..*ctx
                    };
                    self.callable(decl, member, &ctor_ctx, false, Some(class));
                } else {
                    self.callable(decl, member, ctx, named, Some(class));
                }
                self.decl_mut(class).lists.push(List::Members, decl);
                Some(decl)
            }
            K::PublicFieldDefinition => {
                let name_node = field(member, f.name)?;
                let name = self.property_name(name_node);
                let (flags, visibility) = modifiers(member, self.src);
                let value = field(member, f.value);
                let unwrapped = value.map(|v| self.unwrap_outer(v));
                let decl = match unwrapped.map(|v| (v, self.k(v))) {
                    Some((function, K::ArrowFunction | K::FunctionExpression)) => {
                        let graph = named.then_some(NodeKind::Method);
                        let decl = self.declare(DeclKind::Method, name, member, ctx, graph);
                        self.decl_mut(decl).this_owner = Some(class).into();
                        // `handle: Handler = (e) => …`, as for an annotated `const`.
                        let annotation = field(member, f.type_);
                        self.annotated_function(
                            decl,
                            annotation,
                            ctx,
                            UseContext::Property,
                            |this| {
                                this.function_value_in(function, ctx, decl, named);
                            },
                        );
                        if let Some(value) = value {
                            self.type_by_wrappers(value, function, decl, ctx);
                        }
                        decl
                    }
                    _ => {
                        let graph = named.then_some(NodeKind::Property);
                        let decl = self.declare(DeclKind::Field, name, member, ctx, graph);
                        if let Some(type_node) = field(member, f.type_) {
                            let ty = self.type_annotation(type_node, &annotation_ctx(ctx, decl));
                            self.decl_mut(decl).ty = Some(ty).into();
                            self.decl_mut(decl).type_text =
                                self.display_text(&annotation(Some(type_node), self.src));
                            let from = self.node_owner(decl);
                            self.type_use(from, ty, UseContext::Property);
                        }
                        if let (Some(value), Some(unwrapped)) = (value, unwrapped) {
                            let init = match self.k(unwrapped) {
                                K::Object => {
                                    let object =
                                        self.object_value(unwrapped, ctx, named.then_some(decl));
                                    self.wrap_outer(value, unwrapped, object, ctx)
                                }
                                K::Class => self.class_value(unwrapped, ctx, None),
                                _ => self.expr(value, ctx),
                            };
                            self.decl_mut(decl).init = Some(init).into();
                            self.value_ref(value, init, ctx, UseContext::Property);
                        }
                        decl
                    }
                };
                let d = self.decl_mut(decl);
                d.node_flags |= flags;
                d.visibility = visibility;
                self.decl_mut(class).lists.push(List::Members, decl);
                Some(decl)
            }
            K::IndexSignature => {
                let name = self.intern_static("[]");
                let decl = self.declare(DeclKind::IndexSig, name, member, ctx, None);
                self.index_signature(decl, member, ctx);
                self.decl_mut(class).lists.push(List::Members, decl);
                Some(decl)
            }
            K::ClassStaticBlock => {
                self.statement(member, ctx);
                None
            }
            K::Comment => None,
            _ => {
                self.generic(member, ctx);
                None
            }
        }
    }

    /// A function value that fills the member declaration `decl`; a container only when its
    /// object or class is named.
    pub(super) fn function_value_in(
        &mut self,
        function: Node<'t>,
        ctx: &Ctx,
        decl: DeclId,
        container: bool,
    ) -> ExprId {
        if self.k(function) == K::ArrowFunction {
            self.decl_mut(decl).flags |= crate::facts::decl_flags::ARROW;
            self.decl_mut(decl).this_owner = OptIndex::NONE;
        }
        let this_owner = self.out.decls[decl as usize].this_owner;
        self.callable(decl, function, ctx, container, this_owner.get());
        self.push_expr(Expr::Decl(decl))
    }

    /// The type arguments of a base in a heritage clause (`extends Schema<TextDef>`,
    /// `implements Repo<User>`) are types the declaration uses; the base itself is its EXTENDS
    /// or IMPLEMENTS edge.
    fn heritage_arguments(&mut self, from: DeclId, base: TypeId) {
        let arguments: Vec<TypeId> = self
            .out
            .ty(base)
            .reference_parts()
            .map(|(_, _, arguments)| arguments.to_vec())
            .unwrap_or_default();
        for argument in arguments {
            self.type_use(from, argument, UseContext::Heritage);
        }
    }

    // ---------------------------------------------------------------- interfaces, types

    pub(super) fn interface_declaration(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let Some(name_node) = field(node, f.name) else {
            self.generic(node, ctx);
            return;
        };
        self.named_type(
            node,
            name_node,
            ctx,
            DeclKind::Interface,
            |this, decl, inner| {
                for child in Self::named_children(node) {
                    if this.k(child) == K::ExtendsTypeClause {
                        let use_from = this.node_owner(decl);
                        for base in Self::named_children(child) {
                            let ty = this.type_expr(base, inner);
                            this.heritage_arguments(use_from, ty);
                            this.out.heritage_mut(decl).extends_types.push(ty);
                        }
                    }
                }
                if let Some(body) = field(node, f.body) {
                    this.type_members(body, decl, inner, true);
                }
            },
        );
    }

    pub(super) fn type_alias_declaration(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let Some(name_node) = field(node, f.name) else {
            return;
        };
        self.named_type(
            node,
            name_node,
            ctx,
            DeclKind::TypeAlias,
            |this, decl, inner| {
                if let Some(value) = field(node, f.value) {
                    let ty = if this.k(value) == K::ObjectType {
                        // `type Options = { … }`: its members are addressable as `Options.member`,
                        // and each names its own types.
                        this.type_members(value, decl, inner, true);
                        this.push_type(TypeExpr::Decl(decl))
                    } else {
                        let ty = this.type_expr(value, inner);
                        // Every type the definition names: `impact` of a type reaches the
                        // aliases built on it.
                        this.type_use(decl, ty, UseContext::Alias);
                        ty
                    };
                    this.decl_mut(decl).ty = Some(ty).into();
                }
            },
        );
    }

    /// Declares a named type (an interface, a type alias: `kind`, whose node kind is the
    /// same), opens the scope of its type parameters, declares them, and runs `body` with
    /// the declaration and that scope's context.
    fn named_type(
        &mut self,
        node: Node<'t>,
        name_node: Node<'t>,
        ctx: &Ctx,
        kind: DeclKind,
        body: impl FnOnce(&mut Self, DeclId, &Ctx),
    ) {
        let name = self.name_of(name_node);
        let node_kind = match kind {
            DeclKind::Interface => NodeKind::Interface,
            _ => NodeKind::TypeAlias,
        };
        let decl = self.declare(kind, name, node, ctx, Some(node_kind));
        self.bind(ctx.scope, name, space::TYPE, decl);
        self.export_own(ctx, name, decl);
        let range = self.range.take();
        let scope = self.new_scope(ctx.scope, ScopeKind::TypeParams, decl);
        let inner = Ctx {
            scope,
            path_parent: decl,
            exported: false,
            default_export: false,
            wrapper: None,
            ..*ctx
        };
        if let Some(params) = field(node, self.f.type_parameters) {
            self.type_parameters(params, decl, &inner);
        }
        body(self, decl, &inner);
        self.range = range;
    }

    /// The members of an interface body or type literal, declared on `owner`.
    pub(super) fn type_members(&mut self, body: Node<'t>, owner: DeclId, ctx: &Ctx, named: bool) {
        let f = self.f;
        let member_ctx = Ctx {
            path_parent: if named { owner } else { ctx.path_parent },
            wrapper: None,
            ..*ctx
        };
        for member in Self::named_children(body) {
            let kind = self.k(member);
            let decl = match kind {
                K::PropertySignature => {
                    let Some(name_node) = field(member, f.name) else {
                        continue;
                    };
                    let name = self.property_name(name_node);
                    let graph = named.then_some(NodeKind::Property);
                    let decl =
                        self.declare(DeclKind::PropertySig, name, member, &member_ctx, graph);
                    let (flags, _) = modifiers(member, self.src);
                    self.decl_mut(decl).node_flags |= flags;
                    if let Some(type_node) = field(member, f.type_) {
                        let ty =
                            self.type_annotation(type_node, &annotation_ctx(&member_ctx, decl));
                        self.decl_mut(decl).ty = Some(ty).into();
                        self.decl_mut(decl).type_text =
                            self.display_text(&annotation(Some(type_node), self.src));
                        let from = self.node_owner(decl);
                        self.type_use(from, ty, UseContext::Property);
                    }
                    decl
                }
                K::MethodSignature => {
                    let Some(name_node) = field(member, f.name) else {
                        continue;
                    };
                    let name = self.property_name(name_node);
                    let graph = named.then_some(NodeKind::Method);
                    let decl = self.declare(DeclKind::MethodSig, name, member, &member_ctx, graph);
                    self.callable(decl, member, &member_ctx, false, None);
                    decl
                }
                K::CallSignature => {
                    let name = self.intern_static("()");
                    let decl = self.declare(DeclKind::CallSig, name, member, &member_ctx, None);
                    self.callable(decl, member, &member_ctx, false, None);
                    decl
                }
                K::ConstructSignature => {
                    let name = self.intern_static("new()");
                    let decl =
                        self.declare(DeclKind::ConstructSig, name, member, &member_ctx, None);
                    self.callable(decl, member, &member_ctx, false, None);
                    decl
                }
                K::IndexSignature => {
                    let name = self.intern_static("[]");
                    let decl = self.declare(DeclKind::IndexSig, name, member, &member_ctx, None);
                    self.index_signature(decl, member, &member_ctx);
                    decl
                }
                _ => continue,
            };
            self.decl_mut(owner).lists.push(List::Members, decl);
        }
    }

    /// An index signature's value type (a mapped one's names, see
    /// [`Lower::index_signature_type`]), a use of the declaration holding it.
    fn index_signature(&mut self, decl: DeclId, member: Node<'t>, ctx: &Ctx) {
        if let Some(ty) = self.index_signature_type(member, ctx) {
            self.decl_mut(decl).ty = Some(ty).into();
            let from = self.node_owner(decl);
            self.type_use(from, ty, UseContext::Property);
        }
    }

    // ---------------------------------------------------------------- enums, namespaces

    pub(super) fn enum_declaration(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let Some(name_node) = field(node, f.name) else {
            return;
        };
        let name = self.name_of(name_node);
        let decl = self.declare(DeclKind::Enum, name, node, ctx, Some(NodeKind::Enum));
        self.bind(ctx.scope, name, space::VALUE | space::TYPE, decl);
        self.export_own(ctx, name, decl);
        let range = self.range.take();
        let inner = Ctx {
            path_parent: decl,
            exported: false,
            default_export: false,
            wrapper: None,
            ..*ctx
        };
        if let Some(body) = field(node, f.body) {
            for member in Self::named_children(body) {
                let (name_node, value) = match self.k(member) {
                    K::EnumAssignment => (field(member, f.name), field(member, f.value)),
                    K::PropertyIdentifier | K::String => (Some(member), None),
                    _ => (None, None),
                };
                let Some(name_node) = name_node else { continue };
                let name = self.property_name(name_node);
                let member_decl = self.declare(DeclKind::EnumMember, name, member, &inner, None);
                if let Some(value) = value {
                    let init = self.expr(value, &inner);
                    self.decl_mut(member_decl).init = Some(init).into();
                }
                self.decl_mut(decl).lists.push(List::Members, member_decl);
            }
        }
        self.range = range;
    }

    pub(super) fn namespace_declaration(&mut self, node: Node<'t>, ctx: &Ctx) {
        let f = self.f;
        let Some(name_node) = field(node, f.name) else {
            return;
        };
        // `declare module "x"` and `declare global` describe other modules: not this file's.
        if matches!(self.k(name_node), K::String) || self.text(name_node) == "global" {
            return;
        }
        let mut segments = Vec::new();
        let mut stack = vec![name_node];
        while let Some(part) = stack.pop() {
            match self.k(part) {
                K::NestedIdentifier | K::MemberExpression => {
                    if let Some(property) = field(part, f.property) {
                        stack.push(property);
                    }
                    if let Some(object) = field(part, f.object) {
                        stack.push(object);
                    }
                }
                _ => segments.push(part),
            }
        }
        let mut current = *ctx;
        let mut outer_namespace = None;
        for (index, segment) in segments.iter().enumerate() {
            let name = self.name_of(*segment);
            let decl = self.declare(DeclKind::Namespace, name, node, &current, None);
            self.bind(current.scope, name, space::VALUE | space::NAMESPACE, decl);
            if index == 0 {
                self.export_own(ctx, name, decl);
            } else if let Some(outer) = outer_namespace {
                self.decl_mut(outer).lists.push(List::Members, decl);
            }
            let scope = self.new_scope(current.scope, ScopeKind::Namespace, decl);
            current = Ctx {
                scope,
                path_parent: decl,
                exported: false,
                default_export: false,
                wrapper: None,
                namespace: Some(decl),
                ..current
            };
            outer_namespace = Some(decl);
        }
        let range = self.range.take();
        if let Some(body) = field(node, f.body) {
            self.statements(body, &current);
        }
        self.range = range;
    }

    // ---------------------------------------------------------------- object literals

    /// An object literal. When its context names it (`named`: a variable, a property of a
    /// named object, a class field), its methods are containers and its members nodes.
    pub(super) fn object_value(
        &mut self,
        node: Node<'t>,
        ctx: &Ctx,
        named: Option<DeclId>,
    ) -> ExprId {
        let f = self.f;
        let decl = match named {
            Some(decl) => decl,
            None => {
                let name = self.intern_static("");
                let range = self.range.take();
                let decl = self.declare(DeclKind::ObjectLiteral, name, node, ctx, None);
                self.range = range;
                decl
            }
        };
        let is_named = named.is_some();
        let range = self.range.take();
        let member_ctx = Ctx {
            path_parent: if is_named { decl } else { ctx.path_parent },
            exported: false,
            default_export: false,
            ..*ctx
        };
        for member in Self::named_children(node) {
            let member_decl = match self.k(member) {
                K::Pair => {
                    let (Some(key), Some(value)) = (field(member, f.key), field(member, f.value))
                    else {
                        continue;
                    };
                    let name = self.property_name(key);
                    self.object_pair(member, name, value, decl, is_named, &member_ctx)
                }
                K::ShorthandPropertyIdentifier => {
                    let name = self.name_of(member);
                    let prop = self.declare(DeclKind::ObjectProp, name, member, &member_ctx, None);
                    let value = self.push_expr(Expr::Ident {
                        name,
                        scope: ctx.scope,
                    });
                    self.decl_mut(prop).init = Some(value).into();
                    self.value_ref(member, value, ctx, UseContext::Property);
                    prop
                }
                K::MethodDefinition => {
                    let Some(name_node) = field(member, f.name) else {
                        continue;
                    };
                    let name = self.property_name(name_node);
                    let kind = if Self::has_token(member, "get") {
                        DeclKind::Getter
                    } else if Self::has_token(member, "set") {
                        DeclKind::Setter
                    } else {
                        DeclKind::Method
                    };
                    let graph = is_named.then_some(NodeKind::Method);
                    let method = self.declare(kind, name, member, &member_ctx, graph);
                    self.callable(method, member, &member_ctx, is_named, Some(decl));
                    method
                }
                K::SpreadElement => {
                    let name = self.intern_static("...");
                    let prop = self.declare(DeclKind::ObjectProp, name, member, &member_ctx, None);
                    let value = self.expr(member, ctx);
                    self.decl_mut(prop).init = Some(value).into();
                    prop
                }
                K::Comment => continue,
                _ => {
                    self.generic(member, ctx);
                    continue;
                }
            };
            self.decl_mut(decl).lists.push(List::Members, member_decl);
        }
        self.range = range;
        self.push_expr(Expr::Decl(decl))
    }

    fn object_pair(
        &mut self,
        member: Node<'t>,
        name: Name,
        value: Node<'t>,
        object: DeclId,
        is_named: bool,
        ctx: &Ctx,
    ) -> DeclId {
        let unwrapped = self.unwrap_outer(value);
        match self.k(unwrapped) {
            K::ArrowFunction | K::FunctionExpression | K::GeneratorFunction => {
                let graph = is_named.then_some(NodeKind::Method);
                let method = self.declare(DeclKind::Method, name, member, ctx, graph);
                self.decl_mut(method).this_owner = Some(object).into();
                self.out.set_context(method, Context::Prop { object, name });
                self.function_value_in(unwrapped, ctx, method, is_named);
                self.type_by_wrappers(value, unwrapped, method, ctx);
                method
            }
            K::Object => {
                let graph = is_named.then_some(NodeKind::Property);
                let prop = self.declare(DeclKind::ObjectProp, name, member, ctx, graph);
                let inner = if is_named {
                    self.object_value(unwrapped, ctx, Some(prop))
                } else {
                    self.object_value(unwrapped, ctx, None)
                };
                if let Expr::Decl(inner_decl) = self.out.expr(inner) {
                    let inner_decl = *inner_decl;
                    self.out
                        .set_context(inner_decl, Context::Prop { object, name });
                }
                let init = self.wrap_outer(value, unwrapped, inner, ctx);
                self.decl_mut(prop).init = Some(init).into();
                prop
            }
            K::Class => {
                let graph = is_named.then_some(NodeKind::Class);
                let class = self.declare(DeclKind::Class, name, member, ctx, graph);
                self.class_body_of(unwrapped, class, ctx);
                class
            }
            kind => {
                let is_literal = matches!(
                    kind,
                    K::String
                        | K::TemplateString
                        | K::Number
                        | K::True
                        | K::False
                        | K::Null
                        | K::Undefined
                        | K::Regex
                );
                let graph = (is_named && !is_literal).then_some(NodeKind::Property);
                let prop = self.declare(DeclKind::ObjectProp, name, member, ctx, graph);
                let init = self.expr(value, ctx);
                self.decl_mut(prop).init = Some(init).into();
                self.value_ref(value, init, ctx, UseContext::Property);
                prop
            }
        }
    }
}
