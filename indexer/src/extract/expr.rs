//! Expressions: each becomes an [`Expr`] (as much as typing receivers needs), and on the way
//! every call, `new`, JSX element and function value is recorded.

use tree_sitter::Node;
use tsgraph_engine::UseContext;

use super::lower::{Ctx, Lower, is_expression};
use crate::facts::{CallKind, CallSite, Context, Expr, ExprId, JsxSite, Prim, ValueRef};
use crate::syntax::{K, field};

impl<'t> Lower<'t, '_, '_> {
    /// Lowers an expression and everything inside it.
    pub(super) fn expr(&mut self, node: Node<'t>, ctx: &Ctx) -> ExprId {
        if !self.enter() {
            return self.push_expr(Expr::Unknown);
        }
        let expr = self.expr_inner(node, ctx);
        self.leave();
        expr
    }

    fn expr_inner(&mut self, node: Node<'t>, ctx: &Ctx) -> ExprId {
        let f = self.f;
        match self.k(node) {
            K::Identifier => {
                let text = self.text(node);
                if text == "undefined" {
                    return self.push_expr(Expr::Literal(Prim::Undefined));
                }
                let name = self.intern(text);
                self.push_expr(Expr::Ident {
                    name,
                    scope: ctx.scope,
                })
            }
            K::This => self.push_expr(Expr::This { scope: ctx.scope }),
            K::Super => self.push_expr(Expr::Super { scope: ctx.scope }),
            K::MemberExpression => {
                let object = match field(node, f.object) {
                    Some(object) => self.expr(object, ctx),
                    None => self.push_expr(Expr::Unknown),
                };
                match field(node, f.property) {
                    Some(property) => {
                        let name = self.name_of(property);
                        self.push_expr(Expr::Member { object, name })
                    }
                    None => self.push_expr(Expr::Unknown),
                }
            }
            K::SubscriptExpression => {
                let object = match field(node, f.object) {
                    Some(object) => self.expr(object, ctx),
                    None => self.push_expr(Expr::Unknown),
                };
                let index = field(node, f.index);
                let key = index.and_then(|i| self.literal_key(i));
                if let Some(index) = index
                    && key.is_none()
                {
                    self.expr(index, ctx);
                }
                match key {
                    Some(name) => self.push_expr(Expr::Member { object, name }),
                    None => self.push_expr(Expr::Element { object }),
                }
            }
            K::CallExpression => self.call(node, ctx),
            K::NewExpression => self.new_expression(node, ctx),
            K::ArrowFunction | K::FunctionExpression | K::GeneratorFunction => {
                self.function_value(node, ctx, None)
            }
            K::Class => self.class_value(node, ctx, None),
            K::Object => self.object_value(node, ctx, None),
            K::Array => {
                let mut elements = Vec::new();
                for child in Self::named_children(node) {
                    if !is_expression(self.k(child)) {
                        continue;
                    }
                    let element = self.expr(child, ctx);
                    self.value_ref(child, element, ctx, UseContext::Expression);
                    elements.push(element);
                }
                self.push_expr(Expr::Array(elements.into()))
            }
            K::ParenthesizedExpression | K::NonNullExpression => {
                match self.wrapped_expression(node) {
                    Some(inner) => self.expr(inner, ctx),
                    None => self.push_expr(Expr::Unknown),
                }
            }
            K::AsExpression | K::TypeAssertion | K::SatisfiesExpression => {
                let child = self.wrapped_expression(node);
                let value = child.map(|child| self.expr(child, ctx));
                let ty = self
                    .wrapper_type_node(node)
                    .map(|ty_node| self.quietly(|this| this.type_expr(ty_node, ctx)));
                // The written type is the contextual type of a literal or function written
                // right inside (`{ … } satisfies Config`, `{ … } as Hooks`), as the checker
                // types it. Lowered inside out, such a literal has no context yet unless an
                // inner wrapper, nearer, gave it one.
                if let (Some(expr), Some(ty)) = (value, ty)
                    && let Expr::Decl(decl) = self.out.expr(expr)
                    && self.out.context(*decl).is_none()
                {
                    self.set_typed_context(expr, ty);
                }
                match (value, ty) {
                    // `satisfies` checks a type and keeps the expression's own.
                    (Some(expr), _) if self.k(node) == K::SatisfiesExpression => expr,
                    (Some(expr), Some(ty)) => self.push_expr(Expr::Assert { expr, ty }),
                    (Some(expr), None) => expr,
                    _ => self.push_expr(Expr::Unknown),
                }
            }
            K::AwaitExpression => {
                let inner = Self::named_children(node).into_iter().next();
                match inner {
                    Some(inner) => {
                        let value = self.expr(inner, ctx);
                        self.push_expr(Expr::Await(value))
                    }
                    None => self.push_expr(Expr::Unknown),
                }
            }
            K::TernaryExpression => {
                if let Some(condition) = field(node, f.condition) {
                    self.expr(condition, ctx);
                }
                let a = field(node, f.consequence).map(|n| self.expr(n, ctx));
                let b = field(node, f.alternative).map(|n| self.expr(n, ctx));
                self.either(a, b)
            }
            K::BinaryExpression => {
                let operator = field(node, f.operator)
                    .map(|op| self.text(op))
                    .unwrap_or("");
                let left = field(node, f.left).map(|n| self.expr(n, ctx));
                let right = field(node, f.right).map(|n| self.expr(n, ctx));
                match operator {
                    "||" | "??" => self.either(left, right),
                    "&&" => right.unwrap_or_else(|| self.push_expr(Expr::Unknown)),
                    "+" => self.push_expr(Expr::Unknown),
                    "instanceof" | "in" | "==" | "===" | "!=" | "!==" | "<" | ">" | "<=" | ">=" => {
                        self.push_expr(Expr::Literal(Prim::Boolean))
                    }
                    _ => self.push_expr(Expr::Literal(Prim::Number)),
                }
            }
            K::AssignmentExpression => self.assignment(node, ctx),
            K::AugmentedAssignmentExpression => {
                let right = field(node, f.right).map(|n| self.expr(n, ctx));
                if let Some(left) = field(node, f.left) {
                    self.expr(left, ctx);
                }
                right.unwrap_or_else(|| self.push_expr(Expr::Unknown))
            }
            K::SequenceExpression => {
                let mut last = None;
                for child in Self::named_children(node) {
                    last = Some(self.expr(child, ctx));
                }
                last.unwrap_or_else(|| self.push_expr(Expr::Unknown))
            }
            K::InstantiationExpression => match field(node, f.function) {
                Some(function) => self.expr(function, ctx),
                None => self.push_expr(Expr::Unknown),
            },
            K::String => self.push_expr(Expr::Literal(Prim::String)),
            K::TemplateString => {
                for child in Self::named_children(node) {
                    if self.k(child) == K::TemplateSubstitution {
                        self.generic(child, ctx);
                    }
                }
                self.push_expr(Expr::Literal(Prim::String))
            }
            K::Number => self.push_expr(Expr::Literal(Prim::Number)),
            K::True | K::False => self.push_expr(Expr::Literal(Prim::Boolean)),
            K::Null => self.push_expr(Expr::Literal(Prim::Null)),
            K::Undefined => self.push_expr(Expr::Literal(Prim::Undefined)),
            K::Regex => self.push_expr(Expr::Literal(Prim::RegExp)),
            K::UnaryExpression => {
                let operator = field(node, f.operator)
                    .map(|op| self.text(op))
                    .unwrap_or("");
                if let Some(argument) = field(node, f.argument) {
                    self.expr(argument, ctx);
                }
                let prim = match operator {
                    "!" | "delete" => Prim::Boolean,
                    "typeof" => Prim::String,
                    "void" => Prim::Undefined,
                    _ => Prim::Number,
                };
                self.push_expr(Expr::Literal(prim))
            }
            K::UpdateExpression => {
                if let Some(argument) = field(node, f.argument) {
                    self.expr(argument, ctx);
                }
                self.push_expr(Expr::Literal(Prim::Number))
            }
            K::JsxElement | K::JsxSelfClosingElement => {
                self.jsx(node, ctx);
                self.push_expr(Expr::Unknown)
            }
            K::SpreadElement | K::YieldExpression => {
                let mut last = None;
                for child in Self::named_children(node) {
                    last = Some(self.expr(child, ctx));
                }
                last.unwrap_or_else(|| self.push_expr(Expr::Unknown))
            }
            _ => {
                self.generic(node, ctx);
                self.push_expr(Expr::Unknown)
            }
        }
    }

    fn either(&mut self, a: Option<ExprId>, b: Option<ExprId>) -> ExprId {
        match (a, b) {
            (Some(a), Some(b)) => self.push_expr(Expr::Either(a, b)),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => self.push_expr(Expr::Unknown),
        }
    }

    /// `obj["name"]` and `obj[0]` index with a literal: a member name.
    fn literal_key(&mut self, index: Node<'t>) -> Option<u32> {
        match self.k(index) {
            K::String => {
                let text = self.text(index);
                let inner = text.get(1..text.len().saturating_sub(1))?;
                Some(self.intern(inner))
            }
            _ => None,
        }
    }

    /// The arguments of a call or `new`, each recorded as a reference when it names a value.
    fn arguments(&mut self, node: Option<Node<'t>>, ctx: &Ctx) -> Vec<ExprId> {
        let Some(node) = node else {
            return Vec::new();
        };
        if self.k(node) == K::TemplateString {
            self.expr(node, ctx);
            return Vec::new();
        }
        let mut args = Vec::new();
        for child in Self::named_children(node) {
            let kind = self.k(child);
            if !is_expression(kind) {
                if kind != K::Comment {
                    self.generic(child, ctx);
                }
                continue;
            }
            let arg = self.expr(child, ctx);
            self.value_ref(child, arg, ctx, UseContext::Argument);
            args.push(arg);
        }
        args
    }

    fn call(&mut self, node: Node<'t>, ctx: &Ctx) -> ExprId {
        let f = self.f;
        let Some(function) = field(node, f.function) else {
            self.generic(node, ctx);
            return self.push_expr(Expr::Unknown);
        };
        let kind = self.k(function);
        if function.kind() == "import" {
            // `import("./x")`: a dynamic import, not a call of a declaration.
            self.arguments(field(node, f.arguments), ctx);
            return self.push_expr(Expr::Unknown);
        }
        let callee = self.expr(function, ctx);
        let type_args =
            self.quietly(|this| this.type_arguments(field(node, f.type_arguments), ctx));
        let args = self.arguments(field(node, f.arguments), ctx);
        let call = self.push_expr(Expr::call(false, callee, &args, &type_args));
        self.set_arg_contexts(call, &args);
        let (site_expr, call_kind) = if kind == K::Super {
            (callee, CallKind::Super)
        } else {
            (call, CallKind::Call)
        };
        self.out.calls.push(CallSite {
            caller: ctx.owner,
            expr: site_expr,
            kind: call_kind,
            line: Self::line(node),
        });
        call
    }

    fn new_expression(&mut self, node: Node<'t>, ctx: &Ctx) -> ExprId {
        let f = self.f;
        let callee = match field(node, f.constructor) {
            Some(constructor) => self.expr(constructor, ctx),
            None => self.push_expr(Expr::Unknown),
        };
        let type_args =
            self.quietly(|this| this.type_arguments(field(node, f.type_arguments), ctx));
        let args = self.arguments(field(node, f.arguments), ctx);
        let expr = self.push_expr(Expr::call(true, callee, &args, &type_args));
        self.set_arg_contexts(expr, &args);
        self.out.calls.push(CallSite {
            caller: ctx.owner,
            expr,
            kind: CallKind::New,
            line: Self::line(node),
        });
        expr
    }

    /// Function expressions and object literals passed as arguments are typed by the
    /// callee's parameters.
    fn set_arg_contexts(&mut self, call: ExprId, args: &[ExprId]) {
        for (index, arg) in args.iter().enumerate() {
            if let Expr::Decl(decl) = self.out.expr(*arg) {
                let decl = *decl;
                if self.out.context(decl).is_none() {
                    let index = u32::try_from(index).unwrap_or(u32::MAX);
                    self.out.set_context(decl, Context::Arg { call, index });
                }
            }
        }
    }

    fn assignment(&mut self, node: Node<'t>, ctx: &Ctx) -> ExprId {
        let f = self.f;
        let right_node = field(node, f.right);
        let left = field(node, f.left);
        // `this.x = value` in a class: remembered to type the field `x`.
        let this_member = left.and_then(|left| {
            if self.k(left) != K::MemberExpression {
                return None;
            }
            let object = field(left, f.object)?;
            let property = field(left, f.property)?;
            (self.k(object) == K::This).then_some(property)
        });
        let right = match right_node {
            Some(right) => self.expr(right, ctx),
            None => self.push_expr(Expr::Unknown),
        };
        if let Some(left) = left {
            self.expr(left, ctx);
        }
        if let (Some(property), Some(class)) = (this_member, ctx.this_class) {
            let name = self.name_of(property);
            self.out
                .heritage_mut(class)
                .this_assignments
                .push((name, right));
        }
        if let Some(right_node) = right_node {
            self.value_ref(right_node, right, ctx, UseContext::Expression);
        }
        right
    }

    /// Records a value used without being called when it names something (an identifier, a
    /// member chain): a candidate REFERENCES edge.
    pub(super) fn value_ref(
        &mut self,
        node: Node<'t>,
        expr: ExprId,
        ctx: &Ctx,
        context: UseContext,
    ) {
        let named = matches!(
            self.out.expr(expr),
            Expr::Ident { .. } | Expr::Member { .. }
        );
        let node = self.unwrap_outer(node);
        let plain = matches!(
            self.k(node),
            K::Identifier | K::MemberExpression | K::ShorthandPropertyIdentifier
        );
        if named && plain {
            self.out.refs.push(ValueRef {
                // A value stored while initializing a variable is referenced by it.
                from: ctx.wrapper.unwrap_or(ctx.owner),
                expr,
                context,
                line: Self::line(node),
            });
        }
    }

    fn jsx(&mut self, node: Node<'t>, ctx: &Ctx) {
        if !self.enter() {
            return;
        }
        let f = self.f;
        let opening = match self.k(node) {
            K::JsxElement => Self::named_children(node)
                .into_iter()
                .find(|c| self.k(*c) == K::JsxOpeningElement),
            _ => Some(node),
        };
        if let Some(opening) = opening {
            if let Some(name) = field(opening, f.name) {
                let is_component = match self.k(name) {
                    K::Identifier => self
                        .text(name)
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_uppercase() || c == '_' || c == '$'),
                    K::MemberExpression | K::NestedIdentifier => true,
                    _ => false,
                };
                if is_component {
                    let tag = self.jsx_tag(name, ctx);
                    self.out.jsx.push(JsxSite {
                        caller: ctx.owner,
                        tag,
                        line: Self::line(node),
                    });
                }
            }
            for child in Self::named_children(opening) {
                if self.k(child) == K::JsxAttribute {
                    self.generic(child, ctx);
                }
            }
        }
        if self.k(node) == K::JsxElement {
            for child in Self::named_children(node) {
                match self.k(child) {
                    K::JsxElement | K::JsxSelfClosingElement => self.jsx(child, ctx),
                    K::JsxExpression => self.generic(child, ctx),
                    _ => {}
                }
            }
        }
        self.leave();
    }

    fn jsx_tag(&mut self, name: Node<'t>, ctx: &Ctx) -> ExprId {
        let f = self.f;
        match self.k(name) {
            K::NestedIdentifier => {
                let object = field(name, f.object).map(|o| self.jsx_tag(o, ctx));
                let property = field(name, f.property).map(|p| self.name_of(p));
                match (object, property) {
                    (Some(object), Some(name)) => self.push_expr(Expr::Member { object, name }),
                    _ => self.push_expr(Expr::Unknown),
                }
            }
            _ => self.expr(name, ctx),
        }
    }
}
