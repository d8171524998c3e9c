//! Type syntax: each type becomes a structured [`TypeExpr`] whose names are looked up later
//! from the scope they were written in.

use tree_sitter::Node;

use super::lower::{Ctx, Lower};
use thin_vec::ThinVec;

use crate::facts::{DeclKind, Expr, Name, Prim, ScopeKind, TypeExpr, TypeId, space};
use crate::syntax::{K, field};

impl<'t> Lower<'t, '_, '_> {
    /// A `: T` annotation (or a bare type node).
    /// The type a predicate annotation (`x is Foo`) narrows to: the return is a boolean, and
    /// the narrowed type is named in the signature all the same.
    pub(super) fn predicate_type(&mut self, node: Node<'t>, ctx: &Ctx) -> Option<TypeId> {
        if self.k(node) != K::TypePredicateAnnotation {
            return None;
        }
        let predicate = Self::named_children(node)
            .into_iter()
            .find(|child| self.k(*child) == K::TypePredicate)?;
        let narrowed = field(predicate, self.f.type_)?;
        Some(self.type_expr(narrowed, ctx))
    }

    pub(super) fn type_annotation(&mut self, node: Node<'t>, ctx: &Ctx) -> TypeId {
        match self.k(node) {
            K::TypeAnnotation | K::TypePredicateAnnotation | K::AssertsAnnotation => {
                let inner = Self::named_children(node).into_iter().next();
                match (self.k(node), inner) {
                    (K::TypePredicateAnnotation, _) => {
                        self.push_type(TypeExpr::Prim(Prim::Boolean))
                    }
                    (K::AssertsAnnotation, _) => self.push_type(TypeExpr::Prim(Prim::Void)),
                    (_, Some(inner)) => self.type_expr(inner, ctx),
                    (_, None) => self.push_type(TypeExpr::Opaque),
                }
            }
            _ => {
                // `opting_type_annotation` (`?:`) and friends wrap the type the same way.
                if node.kind().ends_with("type_annotation") {
                    let inner = Self::named_children(node).into_iter().next();
                    return match inner {
                        Some(inner) => self.type_expr(inner, ctx),
                        None => self.push_type(TypeExpr::Opaque),
                    };
                }
                self.type_expr(node, ctx)
            }
        }
    }

    pub(super) fn type_arguments(&mut self, node: Option<Node<'t>>, ctx: &Ctx) -> Vec<TypeId> {
        let Some(node) = node else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for child in Self::named_children(node) {
            if self.k(child) != K::Comment {
                out.push(self.type_expr(child, ctx));
            }
        }
        out
    }

    pub(super) fn type_expr(&mut self, node: Node<'t>, ctx: &Ctx) -> TypeId {
        if !self.enter() {
            return self.push_type(TypeExpr::Opaque);
        }
        let ty = self.type_inner(node, ctx);
        self.leave();
        ty
    }

    fn type_inner(&mut self, node: Node<'t>, ctx: &Ctx) -> TypeId {
        let f = self.f;
        match self.k(node) {
            K::TypeIdentifier | K::Identifier => {
                let name = self.name_of(node);
                self.push_type(TypeExpr::reference(ctx.scope, &[name], &[]))
            }
            K::NestedTypeIdentifier | K::NestedIdentifier | K::MemberExpression => {
                let path = self.qualified_name(node);
                self.push_type(TypeExpr::reference(ctx.scope, &path, &[]))
            }
            K::GenericType => {
                let path = match field(node, f.name) {
                    Some(name) => self.qualified_name(name),
                    None => Vec::new(),
                };
                let args = self.type_arguments(field(node, f.type_arguments), ctx);
                self.push_type(TypeExpr::reference(ctx.scope, &path, &args))
            }
            K::PredefinedType => {
                let prim = match self.text(node) {
                    "string" => Prim::String,
                    "number" => Prim::Number,
                    "boolean" => Prim::Boolean,
                    "bigint" => Prim::BigInt,
                    "symbol" | "unique symbol" => Prim::Symbol,
                    "void" => Prim::Void,
                    "undefined" => Prim::Undefined,
                    "null" => Prim::Null,
                    "never" => Prim::Never,
                    "object" => Prim::Object,
                    "unknown" => Prim::Unknown,
                    _ => Prim::Any,
                };
                self.push_type(TypeExpr::Prim(prim))
            }
            K::LiteralType => {
                let inner = Self::named_children(node).into_iter().next();
                let prim = match inner.map(|n| self.k(n)) {
                    Some(K::String) => Prim::String,
                    Some(K::Number) | Some(K::UnaryExpression) => Prim::Number,
                    Some(K::True) | Some(K::False) => Prim::Boolean,
                    Some(K::Null) => Prim::Null,
                    Some(K::Undefined) => Prim::Undefined,
                    _ => Prim::Unknown,
                };
                self.push_type(TypeExpr::Prim(prim))
            }
            K::TemplateLiteralType => self.push_type(TypeExpr::Prim(Prim::String)),
            K::UnionType | K::IntersectionType => {
                let mut parts = Vec::new();
                for child in Self::named_children(node) {
                    let part = self.type_expr(child, ctx);
                    // Flatten `A | B | C`, which the grammar nests.
                    match (self.k(node), self.out.ty(part).clone()) {
                        (K::UnionType, TypeExpr::Union(inner))
                        | (K::IntersectionType, TypeExpr::Intersection(inner)) => {
                            parts.extend(inner)
                        }
                        _ => parts.push(part),
                    }
                }
                if self.k(node) == K::UnionType {
                    self.push_type(TypeExpr::Union(parts.into()))
                } else {
                    self.push_type(TypeExpr::Intersection(parts.into()))
                }
            }
            K::ArrayType => {
                let element = Self::named_children(node).into_iter().next();
                let element = match element {
                    Some(element) => self.type_expr(element, ctx),
                    None => self.push_type(TypeExpr::Opaque),
                };
                self.push_type(TypeExpr::Array(element))
            }
            K::TupleType => {
                let elements = Self::named_children(node)
                    .into_iter()
                    .map(|c| match self.k(c) {
                        // A labeled element (`[id: string, filters?: Filters]`) is written
                        // as a parameter: its type is its annotation's.
                        K::RequiredParameter | K::OptionalParameter => {
                            match field(c, self.f.type_) {
                                Some(annotation) => self.type_annotation(annotation, ctx),
                                None => self.push_type(TypeExpr::Opaque),
                            }
                        }
                        _ => self.type_expr(c, ctx),
                    })
                    .collect();
                self.push_type(TypeExpr::Tuple(elements))
            }
            K::ReadonlyType | K::ParenthesizedType | K::OptionalType | K::RestType => {
                let inner = Self::named_children(node).into_iter().next();
                match inner {
                    Some(inner) => self.type_expr(inner, ctx),
                    None => self.push_type(TypeExpr::Opaque),
                }
            }
            K::FunctionType | K::ConstructorType => {
                let kind = if self.k(node) == K::FunctionType {
                    DeclKind::CallSig
                } else {
                    DeclKind::ConstructSig
                };
                let name = self.intern_static("()");
                let sig_ctx = Ctx {
                    wrapper: None,
                    ..*ctx
                };
                let range = self.range.take();
                let decl = self.declare(kind, name, node, &sig_ctx, None);
                self.callable(decl, node, &sig_ctx, false, None);
                if kind == DeclKind::ConstructSig
                    && let Some(ret) = field(node, f.type_)
                {
                    let ret = self.type_expr(ret, &sig_ctx);
                    self.decl_mut(decl).ret = Some(ret).into();
                }
                self.range = range;
                self.push_type(TypeExpr::Decl(decl))
            }
            K::ObjectType => {
                let name = self.intern_static("");
                let range = self.range.take();
                let decl = self.declare(DeclKind::TypeLiteral, name, node, ctx, None);
                self.type_members(node, decl, ctx, false);
                self.range = range;
                self.push_type(TypeExpr::Decl(decl))
            }
            K::TypeQuery => {
                let inner = Self::named_children(node).into_iter().next();
                match inner {
                    Some(inner) => {
                        let expr = self.type_query_expr(inner, ctx);
                        self.push_type(TypeExpr::Query(expr))
                    }
                    None => self.push_type(TypeExpr::Opaque),
                }
            }
            K::LookupType => {
                let parts = Self::named_children(node);
                let object = match parts.first() {
                    Some(object) => self.type_expr(*object, ctx),
                    None => self.push_type(TypeExpr::Opaque),
                };
                let key = parts.get(1).and_then(|key| {
                    let literal = Self::named_children(*key).into_iter().next()?;
                    (self.k(literal) == K::String).then(|| self.property_name(literal))
                });
                self.push_type(TypeExpr::Indexed { object, key })
            }
            K::ThisType => self.push_type(TypeExpr::This { scope: ctx.scope }),
            K::ConditionalType => self.conditional_type(node, ctx),
            K::InferType => self.infer_type(node, ctx),
            K::IndexTypeQuery => {
                // `keyof T`: a use of T.
                let parts = Self::named_children(node)
                    .into_iter()
                    .map(|part| self.type_expr(part, ctx))
                    .collect();
                self.push_type(TypeExpr::Mentions(parts))
            }
            _ => self.push_type(TypeExpr::Opaque),
        }
    }

    /// `A extends B ? C : D`: the four types it names. An `infer X` in `B` declares `X` for
    /// `B` and `C` only, in a scope of their own, so that `X` never names an outer type.
    fn conditional_type(&mut self, node: Node<'t>, ctx: &Ctx) -> TypeId {
        let f = self.f;
        let mut parts = ThinVec::new();
        if let Some(checked) = field(node, f.left) {
            parts.push(self.type_expr(checked, ctx));
        }
        let inferred = self.new_scope(ctx.scope, ScopeKind::TypeParams, ctx.path_parent);
        let with_inferred = Ctx {
            scope: inferred,
            ..*ctx
        };
        if let Some(extends) = field(node, f.right) {
            parts.push(self.type_expr(extends, &with_inferred));
        }
        if let Some(then) = field(node, f.consequence) {
            parts.push(self.type_expr(then, &with_inferred));
        }
        if let Some(otherwise) = field(node, f.alternative) {
            parts.push(self.type_expr(otherwise, ctx));
        }
        self.push_type(TypeExpr::Mentions(parts))
    }

    /// `infer X` (or `infer X extends C`): declares `X` as a type parameter in the
    /// conditional's scope. Its constraint, like any type parameter's, is not a use (as the
    /// checker counts them).
    fn infer_type(&mut self, node: Node<'t>, ctx: &Ctx) -> TypeId {
        if let Some(name_node) = Self::named_children(node).into_iter().next() {
            self.local_type_param(name_node, ctx);
        }
        self.push_type(TypeExpr::Opaque)
    }

    /// Declares a type parameter a type introduces for itself (`infer X`, a mapped key) in
    /// `ctx`'s scope. It is no graph node and leaves the range being lowered as it was.
    fn local_type_param(&mut self, name_node: Node<'t>, ctx: &Ctx) {
        let name = self.name_of(name_node);
        let range = self.range.take();
        let decl = self.declare(DeclKind::TypeParam, name, name_node, ctx, None);
        self.range = range;
        self.bind(ctx.scope, name, space::TYPE, decl);
    }

    /// The type of an index signature's values. A mapped one (`[K in keyof T as N]: V`)
    /// declares `K` for `N` and `V` and names what its constraint, `N` and `V` name.
    pub(super) fn index_signature_type(&mut self, member: Node<'t>, ctx: &Ctx) -> Option<TypeId> {
        let f = self.f;
        let value = field(member, f.type_);
        let Some(clause) = Self::named_children(member)
            .into_iter()
            .find(|c| self.k(*c) == K::MappedTypeClause)
        else {
            return value.map(|v| self.type_annotation(v, ctx));
        };
        let mut parts = ThinVec::new();
        if let Some(constraint) = field(clause, f.type_) {
            parts.push(self.type_expr(constraint, ctx));
        }
        let scope = self.new_scope(ctx.scope, ScopeKind::TypeParams, ctx.path_parent);
        let inner = Ctx { scope, ..*ctx };
        if let Some(name_node) = field(clause, f.name) {
            self.local_type_param(name_node, &inner);
        }
        if let Some(renamed) = field(clause, f.alias) {
            parts.push(self.type_expr(renamed, &inner));
        }
        if let Some(value) = value {
            parts.push(self.type_annotation(value, &inner));
        }
        Some(self.push_type(TypeExpr::Mentions(parts)))
    }

    /// `a.b.C` as its segments.
    fn qualified_name(&mut self, node: Node<'t>) -> Vec<Name> {
        let f = self.f;
        let mut segments = Vec::new();
        let mut stack = vec![node];
        while let Some(part) = stack.pop() {
            match self.k(part) {
                K::NestedTypeIdentifier => {
                    if let Some(name) = field(part, f.name) {
                        stack.push(name);
                    }
                    if let Some(module) = field(part, f.module) {
                        stack.push(module);
                    }
                }
                K::NestedIdentifier | K::MemberExpression => {
                    if let Some(property) = field(part, f.property) {
                        stack.push(property);
                    }
                    if let Some(object) = field(part, f.object) {
                        stack.push(object);
                    }
                }
                _ => {
                    let name = self.name_of(part);
                    segments.push(name);
                }
            }
        }
        segments
    }

    /// The value named by `typeof x.y`.
    fn type_query_expr(&mut self, node: Node<'t>, ctx: &Ctx) -> crate::facts::ExprId {
        match self.k(node) {
            K::Identifier | K::MemberExpression | K::NestedIdentifier => {
                let path = self.qualified_name(node);
                let mut expr = None;
                for name in path {
                    expr = Some(match expr {
                        None => self.push_expr(Expr::Ident {
                            name,
                            scope: ctx.scope,
                        }),
                        Some(object) => self.push_expr(Expr::Member { object, name }),
                    });
                }
                expr.unwrap_or_else(|| self.push_expr(Expr::Unknown))
            }
            _ => self.push_expr(Expr::Unknown),
        }
    }
}
