//! The local type evaluator: declared types, `new`, object and array literals, declared and
//! inferred return types, `typeof`, type aliases, `this`, simple generics (type arguments,
//! inference from arguments, a generic base's members), unions, and contextual typing of
//! callback parameters. Where a type cannot be determined it is [`Ty::Unknown`], and a call
//! on it stays unresolved rather than guessed by name.

use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

use super::names::Symbol;
use super::{DeclRef, FileId, Resolver};
use crate::facts::{
    Context, DeclKind, Expr, ExprId, Name, Prim, ScopeId, ScopeKind, TypeExpr, TypeId, decl_flags,
    space,
};

/// Type arguments: what each type parameter stands for.
pub(crate) type Env = Rc<[(DeclRef, Ty)]>;

/// How deep type evaluation recurses before it gives up with [`Ty::Unknown`].
const MAX_DEPTH: u32 = 48;

/// A type, as far as resolving members needs it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Ty {
    Unknown,
    Prim(Prim),
    /// A value whose members a declaration lists: an instance of a class, an interface, a type
    /// or object literal; with the type arguments of the declaration's type parameters.
    Object(DeclRef, Env),
    /// A class itself: its constructor and static members.
    Class(DeclRef),
    /// A callable declaration.
    Func(DeclRef, Env),
    /// A module namespace.
    Module(FileId),
    /// A namespace declaration or an enum.
    Namespace(DeclRef),
    Union(Rc<[Ty]>),
    Intersection(Rc<[Ty]>),
}

impl Ty {
    pub(crate) fn is_unknown(&self) -> bool {
        matches!(self, Ty::Unknown)
    }
}

pub(crate) fn empty_env() -> Env {
    Rc::from(Vec::new())
}

/// Memoised answers and the cycle guards of one resolver.
#[derive(Default)]
pub(crate) struct Caches {
    exprs: FxHashMap<(FileId, ExprId), Ty>,
    values: DeclMemo,
    returns: DeclMemo,
    contexts: DeclMemo,
    /// `this` in the methods of each object literal ([`Resolver::object_literal_this`]).
    literal_this: DeclMemo,
    busy_exprs: FxHashSet<(FileId, ExprId)>,
    busy_decls: FxHashSet<(DeclRef, u8)>,
    depth: u32,
    /// What each computed member key names ([`Resolver::computed_key`]).
    pub(super) keys: FxHashMap<DeclRef, Option<super::keys::Key>>,
}

/// Memoised types of declarations, those of locals apart: a local (declared inside a function
/// body) is asked about while its own file is linked, and locals were most of the
/// declarations memoised (at 1M lines, 100k of 128k were parameters and variables outside the
/// module scope), so they are dropped wholesale between the parts of a full index.
#[derive(Default)]
struct DeclMemo {
    named: FxHashMap<DeclRef, Ty>,
    locals: FxHashMap<DeclRef, Ty>,
}

impl DeclMemo {
    fn get(&self, decl: DeclRef, local: bool) -> Option<&Ty> {
        if local { &self.locals } else { &self.named }.get(&decl)
    }

    fn insert(&mut self, decl: DeclRef, local: bool, ty: Ty) {
        if local {
            &mut self.locals
        } else {
            &mut self.named
        }
        .insert(decl, ty);
    }

    fn forget_locals(&mut self) {
        self.locals = FxHashMap::default();
    }
}

/// What a cycle guard protects.
#[derive(Clone, Copy)]
enum Busy {
    Value = 0,
    Return = 1,
    Alias = 2,
    Context = 3,
    Field = 4,
}

/// Builds a union: nested unions flattened, nothing-values (`null`, `undefined`, `void`,
/// `never`) and unknown parts dropped, duplicates removed.
pub(crate) fn union(parts: Vec<Ty>) -> Ty {
    let mut out: Vec<Ty> = Vec::new();
    let push = |ty: Ty, out: &mut Vec<Ty>| {
        let nothing = matches!(
            ty,
            Ty::Unknown | Ty::Prim(Prim::Null | Prim::Undefined | Prim::Void | Prim::Never)
        );
        if !nothing && !out.contains(&ty) {
            out.push(ty);
        }
    };
    for part in parts {
        match part {
            Ty::Union(inner) => {
                for ty in inner.iter() {
                    push(ty.clone(), &mut out);
                }
            }
            other => push(other, &mut out),
        }
    }
    match out.len() {
        0 => Ty::Unknown,
        1 => out.pop().unwrap_or(Ty::Unknown),
        _ => Ty::Union(Rc::from(out)),
    }
}

impl<'a> Resolver<'_, 'a> {
    /// Drops the memoised types of expressions and of local declarations, keeping those of
    /// declarations other files can name. Between the parts of a full index: expressions and
    /// locals are asked about while their own file is linked, and kept for the whole program
    /// they grew to a tenth of the index's memory. One asked about again is computed again.
    pub(crate) fn forget_local_types(&self) {
        let mut caches = self.caches.borrow_mut();
        caches.exprs = FxHashMap::default();
        caches.values.forget_locals();
        caches.returns.forget_locals();
        caches.contexts.forget_locals();
        caches.literal_this.forget_locals();
    }

    /// Whether `decl` is declared inside a function body, where no other file can name it.
    fn is_local(&self, decl: DeclRef) -> bool {
        self.program.decl(decl).flags & decl_flags::LOCAL != 0
    }

    /// Runs `f` one level deeper, or returns Unknown past the depth limit.
    fn deeper(&self, f: impl FnOnce() -> Ty) -> Ty {
        {
            let mut caches = self.caches.borrow_mut();
            if caches.depth >= MAX_DEPTH {
                return Ty::Unknown;
            }
            caches.depth += 1;
        }
        let ty = f();
        self.caches.borrow_mut().depth -= 1;
        ty
    }

    /// Runs `f` unless the same question is already being answered further up (a cycle).
    fn guarded(&self, decl: DeclRef, what: Busy, f: impl FnOnce() -> Ty) -> Ty {
        let key = (decl, what as u8);
        if !self.caches.borrow_mut().busy_decls.insert(key) {
            return Ty::Unknown;
        }
        let ty = self.deeper(f);
        self.caches.borrow_mut().busy_decls.remove(&key);
        ty
    }

    // ---------------------------------------------------------------- expressions

    /// The type of an expression.
    pub(crate) fn type_of_expr(&self, file: FileId, expr: ExprId) -> Ty {
        if let Some(ty) = self.caches.borrow().exprs.get(&(file, expr)) {
            return ty.clone();
        }
        if !self.caches.borrow_mut().busy_exprs.insert((file, expr)) {
            return Ty::Unknown;
        }
        let ty = self.deeper(|| self.type_of_expr_uncached(file, expr));
        let mut caches = self.caches.borrow_mut();
        caches.busy_exprs.remove(&(file, expr));
        caches.exprs.insert((file, expr), ty.clone());
        ty
    }

    fn type_of_expr_uncached(&self, file: FileId, expr: ExprId) -> Ty {
        let facts = self.program.file(file);
        match facts.expr(expr) {
            Expr::Ident { name, scope } => {
                match self.program.resolve_name(file, *scope, *name, space::VALUE) {
                    Some(named) => self.symbol_type(named.symbol),
                    None => Ty::Unknown,
                }
            }
            Expr::This { scope } => self.this_type(file, *scope),
            Expr::Super { scope } => self.super_type(file, *scope),
            Expr::Member { object, name } => {
                let text = facts.name(*name);
                let receiver = self.type_of_expr(file, *object);
                if text == "bind" && matches!(receiver, Ty::Func(..)) {
                    return receiver;
                }
                let members = self.members(&receiver, text);
                union(members.iter().map(|m| self.member_value_type(m)).collect())
            }
            Expr::Element { object } => {
                let receiver = self.type_of_expr(file, *object);
                self.element_type(&receiver)
            }
            expr @ Expr::Call { callee, .. } => {
                let (args, type_args) = expr.operands();
                // `f.call(…)` / `f.apply(…)` call `f`.
                if let Expr::Member { object, name } = facts.expr(*callee)
                    && matches!(facts.name(*name), "call" | "apply")
                {
                    let target = self.type_of_expr(file, *object);
                    if matches!(target, Ty::Func(..)) {
                        return self.call_result(&target, file, &[], &[]);
                    }
                }
                let callee_ty = self.type_of_expr(file, *callee);
                // A method declared to return `this` returns its receiver's type; through
                // `super`, the receiver is `this`.
                if let Expr::Member { object, .. } = facts.expr(*callee)
                    && self.returns_this(&callee_ty)
                {
                    return match facts.expr(*object) {
                        Expr::Super { scope } => self.this_type(file, *scope),
                        _ => self.type_of_expr(file, *object),
                    };
                }
                self.call_result(&callee_ty, file, args, type_args)
            }
            expr @ Expr::New { callee, .. } => {
                let (_, type_args) = expr.operands();
                let callee = self.type_of_expr(file, *callee);
                self.construct_result(&callee, file, type_args)
            }
            Expr::Decl(decl) => self.value_type(DeclRef::new(file, *decl), &super::ty::empty_env()),
            Expr::Array(elements) => {
                let element = union(
                    elements
                        .iter()
                        .map(|e| self.type_of_expr(file, *e))
                        .collect(),
                );
                self.builtin_object("Array", vec![element])
            }
            Expr::Await(inner) => {
                let ty = self.type_of_expr(file, *inner);
                self.unwrap_promise(&ty)
            }
            Expr::Assert { expr, ty } => {
                let asserted = self.eval_type(file, *ty, &empty_env());
                match asserted {
                    Ty::Unknown | Ty::Prim(Prim::Any | Prim::Unknown) => {
                        self.type_of_expr(file, *expr)
                    }
                    other => other,
                }
            }
            Expr::Either(a, b) => union(vec![
                self.type_of_expr(file, *a),
                self.type_of_expr(file, *b),
            ]),
            Expr::DeclValue(decl) => self.value_type(DeclRef::new(file, *decl), &empty_env()),
            Expr::Iterated(inner) => {
                let ty = self.type_of_expr(file, *inner);
                self.element_type(&ty)
            }
            Expr::Literal(prim) => Ty::Prim(*prim),
            Expr::Unknown => Ty::Unknown,
        }
    }

    /// The type of what a name stands for.
    pub(crate) fn symbol_type(&self, symbol: Symbol) -> Ty {
        match symbol {
            Symbol::Decl(decl) => self.value_type(decl, &empty_env()),
            Symbol::Module(file) => Ty::Module(file),
            Symbol::Expr(file, expr) => self.type_of_expr(file, expr),
            Symbol::External => Ty::Unknown,
        }
    }

    /// What `this` is inside `scope`: arrows keep the enclosing `this`; methods and
    /// accessors have their class's instance (the class itself when static) or their object
    /// literal; plain functions have none known.
    pub(crate) fn this_type(&self, file: FileId, mut scope: ScopeId) -> Ty {
        let facts = self.program.file(file);
        for _ in 0..256 {
            let Some(current) = facts.scopes.get(scope as usize) else {
                return Ty::Unknown;
            };
            match current.kind {
                ScopeKind::Function => {
                    let owner = facts.decl(current.owner);
                    if owner.flags & decl_flags::ARROW == 0 {
                        let Some(this_owner) = owner.this_owner.get() else {
                            return Ty::Unknown;
                        };
                        let target = DeclRef::new(file, this_owner);
                        let is_static = owner.node_flags & tsgraph_engine::NodeFlags::STATIC != 0;
                        return match self.program.decl(target).kind {
                            DeclKind::Class if is_static => Ty::Class(target),
                            DeclKind::Class => Ty::Object(target, empty_env()),
                            _ => self.object_literal_this(target),
                        };
                    }
                }
                ScopeKind::Class => {
                    return Ty::Object(DeclRef::new(file, current.owner), empty_env());
                }
                ScopeKind::Module => return Ty::Unknown,
                _ => {}
            }
            if scope == current.parent {
                return Ty::Unknown;
            }
            scope = current.parent;
        }
        Ty::Unknown
    }

    /// `this` in a method of an object literal, as the checker types it (under
    /// `noImplicitThis`, which `strict` sets): `T` where the literal's contextual type, or an
    /// enclosing literal's of which it is a property value, holds a `ThisType<T>`, else the
    /// contextual type itself (so `const hooks: Hooks = { start() {
    /// this.stop() } }` calls `Hooks.stop`), else the literal. Where the evaluator knows
    /// neither (`T & ThisType<T>` with `T` inferred from this very literal), the literal.
    fn object_literal_this(&self, literal: DeclRef) -> Ty {
        let local = self.is_local(literal);
        if let Some(ty) = self.caches.borrow().literal_this.get(literal, local) {
            return ty.clone();
        }
        let ty = self.object_literal_this_uncached(literal);
        self.caches
            .borrow_mut()
            .literal_this
            .insert(literal, local, ty.clone());
        ty
    }

    fn object_literal_this_uncached(&self, literal: DeclRef) -> Ty {
        let context = self.contextual_type(literal);
        let marker = self.program.global("ThisType", space::TYPE);
        // The marker may be on an enclosing literal's type, the literal being the value of
        // one of its properties (`methods: { … }` in options typed `… & ThisType<Vm>`).
        let mut enclosing = literal;
        let mut enclosing_context = context.clone();
        for _ in 0..MAX_DEPTH {
            if let Some(marked) = self.this_type_marker(&enclosing_context, marker)
                && self.is_known_object(&marked, marker)
            {
                return marked;
            }
            match self.program.file(enclosing.file).context(enclosing.decl) {
                Some(Context::Prop { object, .. }) => {
                    enclosing = DeclRef::new(enclosing.file, object);
                    enclosing_context = self.contextual_type(enclosing);
                }
                _ => break,
            }
        }
        if self.is_known_object(&context, marker) {
            context
        } else {
            Ty::Object(literal, empty_env())
        }
    }

    /// The `T` of a `ThisType<T>` (`marker`) in `ty` or among the parts of an intersection.
    fn this_type_marker(&self, ty: &Ty, marker: Option<DeclRef>) -> Option<Ty> {
        match ty {
            Ty::Object(decl, env) if marker == Some(*decl) => {
                Some(self.first_type_argument(*decl, env))
            }
            Ty::Intersection(parts) => parts
                .iter()
                .find_map(|part| self.this_type_marker(part, marker)),
            _ => None,
        }
    }

    /// Whether `ty` has a part whose members are known, other than a `ThisType` marker.
    fn is_known_object(&self, ty: &Ty, marker: Option<DeclRef>) -> bool {
        match ty {
            Ty::Object(decl, _) => marker != Some(*decl),
            Ty::Union(parts) | Ty::Intersection(parts) => {
                parts.iter().any(|part| self.is_known_object(part, marker))
            }
            _ => false,
        }
    }

    /// `super` inside `scope`: the base class's instance (or the base class in a static
    /// method).
    fn super_type(&self, file: FileId, scope: ScopeId) -> Ty {
        match self.this_type(file, scope) {
            Ty::Object(class, _) => self.base_instance(class).unwrap_or(Ty::Unknown),
            Ty::Class(class) => match self.base_instance(class) {
                Some(Ty::Object(base, _)) => Ty::Class(base),
                _ => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    /// The type of the element of an array, a tuple, a set or an indexable object.
    pub(crate) fn element_type(&self, ty: &Ty) -> Ty {
        match ty {
            Ty::Object(decl, env) => {
                let name = self.program.decl_name(*decl);
                if self.program.is_builtin(decl.file)
                    && matches!(
                        name,
                        "Array"
                            | "ReadonlyArray"
                            | "Set"
                            | "ReadonlySet"
                            | "Iterable"
                            | "IterableIterator"
                            | "AsyncIterable"
                            | "Generator"
                    )
                {
                    return self.first_type_argument(*decl, env);
                }
                let members = self.members(ty, "[]");
                union(members.iter().map(|m| self.member_value_type(m)).collect())
            }
            Ty::Union(parts) => union(parts.iter().map(|p| self.element_type(p)).collect()),
            _ => Ty::Unknown,
        }
    }

    /// `T` of `Promise<T>` (or the type itself when it is not a promise).
    pub(crate) fn unwrap_promise(&self, ty: &Ty) -> Ty {
        match ty {
            Ty::Object(decl, env)
                if self.program.is_builtin(decl.file)
                    && matches!(self.program.decl_name(*decl), "Promise" | "PromiseLike") =>
            {
                self.first_type_argument(*decl, env)
            }
            Ty::Union(parts) => union(parts.iter().map(|p| self.unwrap_promise(p)).collect()),
            other => other.clone(),
        }
    }

    /// What `decl`'s first type parameter stands for in `env` (`T` of `Promise<T>`). Looked up
    /// by the parameter, since an instance's environment starts with the bindings of the
    /// scope it was written in.
    fn first_type_argument(&self, decl: DeclRef, env: &Env) -> Ty {
        let Some(param) = self.program.decl(decl).type_params().first() else {
            return Ty::Unknown;
        };
        let param = DeclRef::new(decl.file, *param);
        env.iter()
            .rev()
            .find(|(bound, _)| *bound == param)
            .map_or(Ty::Unknown, |(_, ty)| ty.clone())
    }

    /// An instance of a built-in generic interface (`Array<T>`, `Promise<T>`).
    pub(crate) fn builtin_object(&self, name: &str, args: Vec<Ty>) -> Ty {
        let Some(decl) = self.program.global(name, space::TYPE) else {
            return Ty::Unknown;
        };
        let params = self.program.decl(decl).type_params();
        let env: Vec<(DeclRef, Ty)> = params
            .iter()
            .zip(args)
            .map(|(p, t)| (DeclRef::new(decl.file, *p), t))
            .collect();
        Ty::Object(decl, Rc::from(env))
    }

    // ---------------------------------------------------------------- declarations

    /// The type of the value a declaration holds, under type arguments `env`.
    pub(crate) fn value_type(&self, decl: DeclRef, env: &Env) -> Ty {
        let cacheable = env.is_empty();
        let local = self.is_local(decl);
        if cacheable && let Some(ty) = self.caches.borrow().values.get(decl, local) {
            return ty.clone();
        }
        let ty = self.guarded(decl, Busy::Value, || self.value_type_uncached(decl, env));
        if cacheable {
            self.caches
                .borrow_mut()
                .values
                .insert(decl, local, ty.clone());
        }
        ty
    }

    fn value_type_uncached(&self, decl: DeclRef, env: &Env) -> Ty {
        let d = self.program.decl(decl);
        let file = decl.file;
        match d.kind {
            DeclKind::Function
            | DeclKind::Method
            | DeclKind::MethodSig
            | DeclKind::CallSig
            | DeclKind::ConstructSig
            | DeclKind::Constructor => Ty::Func(decl, env.clone()),
            DeclKind::Getter => self.return_type(decl, env),
            DeclKind::Setter => d
                .params()
                .first()
                .map(|p| self.value_type(DeclRef::new(file, *p), env))
                .unwrap_or(Ty::Unknown),
            DeclKind::Class => Ty::Class(decl),
            DeclKind::Enum | DeclKind::Namespace => Ty::Namespace(decl),
            DeclKind::ObjectLiteral => Ty::Object(decl, env.clone()),
            DeclKind::File => Ty::Module(file),
            DeclKind::EnumMember => Ty::Prim(Prim::Number),
            DeclKind::Interface
            | DeclKind::TypeAlias
            | DeclKind::TypeLiteral
            | DeclKind::TypeParam => Ty::Unknown,
            DeclKind::IndexSig => match d.ty.get() {
                Some(ty) => self.eval_type(file, ty, env),
                None => Ty::Unknown,
            },
            DeclKind::Variable
            | DeclKind::Parameter
            | DeclKind::Field
            | DeclKind::PropertySig
            | DeclKind::ObjectProp => {
                if let Some(ty) = d.ty.get() {
                    let declared = self.eval_type(file, ty, env);
                    if d.flags & decl_flags::REST != 0 {
                        return self.element_type(&declared);
                    }
                    return declared;
                }
                if !d.members().is_empty() {
                    return Ty::Object(decl, env.clone());
                }
                if d.kind == DeclKind::Parameter {
                    let contextual = self.contextual_param_type(decl);
                    if !contextual.is_unknown() {
                        return contextual;
                    }
                }
                if let Some(init) = d.init.get() {
                    return self.type_of_expr(file, init);
                }
                if d.kind == DeclKind::Field {
                    return self.assigned_field_type(decl);
                }
                Ty::Unknown
            }
        }
    }

    /// A field with neither type nor initializer: the values its class assigns to it.
    fn assigned_field_type(&self, field: DeclRef) -> Ty {
        let d = self.program.decl(field);
        let class = DeclRef::new(field.file, d.path_parent);
        let class_decl = self.program.decl(class);
        if class_decl.kind != DeclKind::Class {
            return Ty::Unknown;
        }
        self.guarded(field, Busy::Field, || {
            union(
                (self.program.file(class.file))
                    .this_assignments(class.decl)
                    .iter()
                    .filter(|(name, _)| *name == d.name)
                    .map(|(_, value)| self.type_of_expr(field.file, *value))
                    .collect(),
            )
        })
    }

    /// The return type of a callable: declared, or inferred from its `return`s (wrapped in a
    /// promise when it is async).
    pub(crate) fn return_type(&self, func: DeclRef, env: &Env) -> Ty {
        let d = self.program.decl(func);
        if let Some(ret) = d.ret.get() {
            return self.eval_type(func.file, ret, env);
        }
        if d.flags & decl_flags::GENERATOR != 0 {
            return Ty::Unknown;
        }
        let local = self.is_local(func);
        if let Some(ty) = self.caches.borrow().returns.get(func, local) {
            return ty.clone();
        }
        let ty = self.guarded(func, Busy::Return, || {
            let returned = union(
                d.returns()
                    .iter()
                    .map(|r| self.type_of_expr(func.file, *r))
                    .collect(),
            );
            if d.flags & decl_flags::ASYNC != 0 {
                let inner = self.unwrap_promise(&returned);
                self.builtin_object("Promise", vec![inner])
            } else {
                returned
            }
        });
        self.caches
            .borrow_mut()
            .returns
            .insert(func, local, ty.clone());
        ty
    }

    /// Whether the signature `callee` names (every part of a union) declares its return type
    /// as `this`.
    fn returns_this(&self, callee: &Ty) -> bool {
        match callee {
            Ty::Func(func, _) => self.program.decl(*func).ret.get().is_some_and(|ret| {
                matches!(self.program.file(func.file).ty(ret), TypeExpr::This { .. })
            }),
            Ty::Union(parts) => parts.iter().all(|part| self.returns_this(part)),
            _ => false,
        }
    }

    /// What calling a value of type `callee` returns.
    pub(crate) fn call_result(
        &self,
        callee: &Ty,
        file: FileId,
        args: &[ExprId],
        type_args: &[TypeId],
    ) -> Ty {
        match callee {
            Ty::Func(func, env) => {
                let func = self.overload_for(*func, args.len());
                let env = self.instantiate(func, env, file, args, type_args);
                self.return_type(func, &env)
            }
            Ty::Object(..) => {
                let signatures = self.members(callee, "()");
                union(
                    signatures
                        .iter()
                        .map(|m| self.return_type(m.decl, &m.env))
                        .collect(),
                )
            }
            Ty::Union(parts) => union(
                parts
                    .iter()
                    .map(|p| self.call_result(p, file, args, type_args))
                    .collect(),
            ),
            Ty::Intersection(parts) => parts
                .iter()
                .map(|p| self.call_result(p, file, args, type_args))
                .find(|t| !t.is_unknown())
                .unwrap_or(Ty::Unknown),
            _ => Ty::Unknown,
        }
    }

    /// What `new` on a value of type `callee` makes.
    pub(crate) fn construct_result(&self, callee: &Ty, file: FileId, type_args: &[TypeId]) -> Ty {
        match callee {
            Ty::Class(class) => {
                let params = self.program.decl(*class).type_params();
                let env: Vec<(DeclRef, Ty)> = params
                    .iter()
                    .zip(type_args)
                    .map(|(p, t)| {
                        (
                            DeclRef::new(class.file, *p),
                            self.eval_type(file, *t, &empty_env()),
                        )
                    })
                    .collect();
                Ty::Object(*class, Rc::from(env))
            }
            Ty::Func(func, env) if self.program.decl(*func).kind == DeclKind::ConstructSig => {
                self.return_type(*func, env)
            }
            Ty::Object(..) => {
                let signatures = self.members(callee, "new()");
                union(
                    signatures
                        .iter()
                        .map(|m| self.return_type(m.decl, &m.env))
                        .collect(),
                )
            }
            Ty::Union(parts) => union(
                parts
                    .iter()
                    .map(|p| self.construct_result(p, file, type_args))
                    .collect(),
            ),
            _ => Ty::Unknown,
        }
    }

    /// Among the overloads of `func` (declarations of the same name in the same scope), the
    /// first whose parameters fit `args` arguments; `func` itself when there are none.
    fn overload_for(&self, func: DeclRef, args: usize) -> DeclRef {
        let d = self.program.decl(func);
        if d.flags & decl_flags::AMBIENT == 0 || d.kind != DeclKind::Function {
            return func;
        }
        let fits = |decl: DeclRef| {
            let params = self.program.decl(decl).params();
            let file = self.program.file(decl.file);
            let required = params
                .iter()
                .filter(|p| {
                    let p = file.decl(**p);
                    p.init.is_none() && p.flags & decl_flags::REST == 0
                })
                .count();
            let rest = params
                .iter()
                .any(|p| file.decl(*p).flags & decl_flags::REST != 0);
            required <= args && (rest || args <= params.len())
        };
        self.program
            .bound_in_scope(func.file, d.scope, d.name, space::VALUE)
            .find(|candidate| fits(*candidate))
            .unwrap_or(func)
    }

    /// The type arguments of a call of generic `func`: written ones, or ones inferred from the
    /// argument types.
    fn instantiate(
        &self,
        func: DeclRef,
        env: &Env,
        file: FileId,
        args: &[ExprId],
        type_args: &[TypeId],
    ) -> Env {
        let d = self.program.decl(func);
        if d.type_params().is_empty() {
            return env.clone();
        }
        let mut bound: Vec<(DeclRef, Ty)> = env.iter().cloned().collect();
        if !type_args.is_empty() {
            for (param, arg) in d.type_params().iter().zip(type_args) {
                bound.push((
                    DeclRef::new(func.file, *param),
                    self.eval_type(file, *arg, env),
                ));
            }
            return Rc::from(bound);
        }
        let params: Vec<DeclRef> = d
            .type_params()
            .iter()
            .map(|p| DeclRef::new(func.file, *p))
            .collect();
        let mut inferred: Vec<(DeclRef, Ty)> = Vec::new();
        for (index, param) in d.params().iter().enumerate() {
            let p = self.program.file(func.file).decl(*param);
            let Some(declared) = p.ty.get() else { continue };
            let actual = if p.flags & decl_flags::REST != 0 {
                union(
                    args.iter()
                        .skip(index)
                        .map(|a| self.type_of_expr(file, *a))
                        .collect(),
                )
            } else {
                match args.get(index) {
                    Some(arg) => self.type_of_expr(file, *arg),
                    None => continue,
                }
            };
            let declared = if p.flags & decl_flags::REST != 0 {
                match self.program.file(func.file).ty(declared) {
                    TypeExpr::Array(element) => *element,
                    _ => declared,
                }
            } else {
                declared
            };
            self.unify(func.file, declared, &actual, &params, &mut inferred, 0);
        }
        bound.extend(inferred);
        Rc::from(bound)
    }

    /// Binds the type parameters `params` that `declared` mentions to the parts of `actual`
    /// in the same places.
    fn unify(
        &self,
        file: FileId,
        declared: TypeId,
        actual: &Ty,
        params: &[DeclRef],
        out: &mut Vec<(DeclRef, Ty)>,
        depth: u32,
    ) {
        if depth > 8 || actual.is_unknown() {
            return;
        }
        let facts = self.program.file(file);
        match facts.ty(declared) {
            reference @ TypeExpr::Ref { .. } => {
                let Some((scope, path, args)) = reference.reference_parts() else {
                    return;
                };
                let Some(target) = self.resolve_type_path(file, scope, path) else {
                    return;
                };
                if params.contains(&target) {
                    if !out.iter().any(|(p, _)| *p == target) {
                        out.push((target, actual.clone()));
                    }
                    return;
                }
                if let Ty::Object(decl, env) = actual
                    && *decl == target
                {
                    let type_params = self.program.decl(target).type_params();
                    for (arg, param) in args.iter().zip(type_params) {
                        let param = DeclRef::new(target.file, *param);
                        if let Some((_, ty)) = env.iter().find(|(p, _)| *p == param) {
                            self.unify(file, *arg, ty, params, out, depth + 1);
                        }
                    }
                }
            }
            TypeExpr::Array(element) => {
                let element_ty = self.element_type(actual);
                self.unify(file, *element, &element_ty, params, out, depth + 1);
            }
            TypeExpr::Union(parts) => {
                for part in parts {
                    self.unify(file, *part, actual, params, out, depth + 1);
                }
            }
            TypeExpr::Decl(sig) => {
                let sig = DeclRef::new(file, *sig);
                let sig_decl = self.program.decl(sig);
                if let (Some(ret), Ty::Func(func, env)) = (sig_decl.ret.get(), actual) {
                    let returned = self.return_type(*func, env);
                    self.unify(file, ret, &returned, params, out, depth + 1);
                }
            }
            _ => {}
        }
    }

    // ---------------------------------------------------------------- contextual typing

    /// The type a parameter without an annotation gets from where its function is written
    /// (`items.forEach(item => …)`), or from its default value.
    fn contextual_param_type(&self, param: DeclRef) -> Ty {
        let p = self.program.decl(param);
        let func = DeclRef::new(param.file, p.path_parent);
        let f = self.program.decl(func);
        let Some(index) = f.params().iter().position(|x| *x == param.decl) else {
            return Ty::Unknown;
        };
        let expected = self.contextual_type(func);
        let from_context = self.parameter_of(&expected, index);
        if !from_context.is_unknown() {
            return from_context;
        }
        match p.init.get() {
            Some(init) => self.type_of_expr(param.file, init),
            None => Ty::Unknown,
        }
    }

    /// The type of parameter `index` of a callable type.
    fn parameter_of(&self, callable: &Ty, index: usize) -> Ty {
        match callable {
            Ty::Func(sig, env) => {
                let d = self.program.decl(*sig);
                let file = self.program.file(sig.file);
                let rest_at = d
                    .params()
                    .iter()
                    .position(|p| file.decl(*p).flags & decl_flags::REST != 0);
                let param = match rest_at {
                    Some(rest) if index >= rest => d.params()[rest],
                    _ => match d.params().get(index) {
                        Some(p) => *p,
                        None => return Ty::Unknown,
                    },
                };
                let param = DeclRef::new(sig.file, param);
                let pd = self.program.decl(param);
                match pd.ty.get() {
                    Some(ty) => {
                        let declared = self.eval_type(sig.file, ty, env);
                        if pd.flags & decl_flags::REST != 0 {
                            self.element_type(&declared)
                        } else {
                            declared
                        }
                    }
                    None => self.value_type(param, env),
                }
            }
            Ty::Object(..) => {
                let signatures = self.members(callable, "()");
                signatures
                    .first()
                    .map(|m| self.parameter_of(&Ty::Func(m.decl, m.env.clone()), index))
                    .unwrap_or(Ty::Unknown)
            }
            Ty::Union(parts) => parts
                .iter()
                .map(|p| self.parameter_of(p, index))
                .find(|t| !t.is_unknown())
                .unwrap_or(Ty::Unknown),
            _ => Ty::Unknown,
        }
    }

    /// The type expected of a function expression or object literal where it is written.
    pub(crate) fn contextual_type(&self, decl: DeclRef) -> Ty {
        let Some(context) = self.program.file(decl.file).context(decl.decl) else {
            return Ty::Unknown;
        };
        let local = self.is_local(decl);
        if let Some(ty) = self.caches.borrow().contexts.get(decl, local) {
            return ty.clone();
        }
        let ty = self.guarded(decl, Busy::Context, || match context {
            Context::Arg { call, index } => {
                let facts = self.program.file(decl.file);
                match facts.expr(call) {
                    expr @ Expr::Call { callee, .. } => {
                        let callee = self.type_of_expr(decl.file, *callee);
                        // `register<Widget>("w", inst => …)`: the written type arguments
                        // instantiate the callee. Inference from the other arguments is left
                        // out: it would type this very function while its context is asked.
                        let callee = match callee {
                            Ty::Func(func, env) => {
                                let func = self.overload_for(func, expr.operands().0.len());
                                let (_, type_args) = expr.operands();
                                Ty::Func(
                                    func,
                                    self.instantiate(func, &env, decl.file, &[], type_args),
                                )
                            }
                            other => other,
                        };
                        self.parameter_of(&callee, index as usize)
                    }
                    expr @ Expr::New { callee, .. } => {
                        let callee = self.type_of_expr(decl.file, *callee);
                        match callee {
                            Ty::Class(_) => {
                                // `new Registry<Widget>(inst => …)`: the constructor of the
                                // instance the written type arguments make.
                                let (_, type_args) = expr.operands();
                                let instance = self.construct_result(&callee, decl.file, type_args);
                                let ctor = self.members(&instance, "constructor");
                                ctor.first()
                                    .map(|m| {
                                        self.parameter_of(
                                            &Ty::Func(m.decl, m.env.clone()),
                                            index as usize,
                                        )
                                    })
                                    .unwrap_or(Ty::Unknown)
                            }
                            _ => Ty::Unknown,
                        }
                    }
                    _ => Ty::Unknown,
                }
            }
            Context::Prop { object, name } => {
                let object_ty = self.contextual_type(DeclRef::new(decl.file, object));
                let text = self.program.text(decl.file, name);
                let members = self.members(&object_ty, text);
                union(members.iter().map(|m| self.member_value_type(m)).collect())
            }
            Context::Typed(ty) => self.eval_type(decl.file, ty, &empty_env()),
            Context::Return(func) => {
                let f = self.program.decl(DeclRef::new(decl.file, func));
                match f.ret.get() {
                    Some(ret) => self.eval_type(decl.file, ret, &empty_env()),
                    None => Ty::Unknown,
                }
            }
        });
        self.caches
            .borrow_mut()
            .contexts
            .insert(decl, local, ty.clone());
        ty
    }

    // ---------------------------------------------------------------- type expressions

    /// Evaluates a type expression of `file` under type arguments `env`.
    pub(crate) fn eval_type(&self, file: FileId, ty: TypeId, env: &Env) -> Ty {
        self.deeper(|| self.eval_type_inner(file, ty, env))
    }

    fn eval_type_inner(&self, file: FileId, ty: TypeId, env: &Env) -> Ty {
        let facts = self.program.file(file);
        match facts.ty(ty) {
            reference @ TypeExpr::Ref { .. } => match reference.reference_parts() {
                Some((scope, path, args)) => self.eval_ref(file, scope, path, args, env),
                None => Ty::Unknown,
            },
            TypeExpr::Decl(decl) => {
                let decl = DeclRef::new(file, *decl);
                match self.program.decl(decl).kind {
                    DeclKind::CallSig | DeclKind::ConstructSig => Ty::Func(decl, env.clone()),
                    _ => Ty::Object(decl, env.clone()),
                }
            }
            TypeExpr::Union(parts) => union(
                parts
                    .iter()
                    .map(|p| self.eval_type(file, *p, env))
                    .collect(),
            ),
            TypeExpr::Intersection(parts) => {
                let parts: Vec<Ty> = parts
                    .iter()
                    .map(|p| self.eval_type(file, *p, env))
                    .filter(|t| !t.is_unknown())
                    .collect();
                match parts.len() {
                    0 => Ty::Unknown,
                    1 => parts.into_iter().next().unwrap_or(Ty::Unknown),
                    _ => Ty::Intersection(Rc::from(parts)),
                }
            }
            TypeExpr::Array(element) => {
                let element = self.eval_type(file, *element, env);
                self.builtin_object("Array", vec![element])
            }
            TypeExpr::Tuple(elements) => {
                let element = union(
                    elements
                        .iter()
                        .map(|e| self.eval_type(file, *e, env))
                        .collect(),
                );
                self.builtin_object("Array", vec![element])
            }
            TypeExpr::Query(expr) => self.type_of_expr(file, *expr),
            TypeExpr::Indexed { object, key } => {
                let object = self.eval_type(file, *object, env);
                match key {
                    Some(key) => {
                        let members = self.members(&object, facts.name(*key));
                        union(members.iter().map(|m| self.member_value_type(m)).collect())
                    }
                    None => self.element_type(&object),
                }
            }
            TypeExpr::Prim(prim) => Ty::Prim(*prim),
            TypeExpr::This { scope } => self.this_type(file, *scope),
            TypeExpr::Opaque | TypeExpr::Mentions(_) => Ty::Unknown,
        }
    }

    /// The declaration a type name path (`Foo`, `ns.Foo`) names.
    pub(crate) fn resolve_type_path(
        &self,
        file: FileId,
        scope: ScopeId,
        path: &[Name],
    ) -> Option<DeclRef> {
        let (first, rest) = path.split_first()?;
        let first_space = if rest.is_empty() {
            space::TYPE
        } else {
            space::NAMESPACE | space::VALUE
        };
        let mut symbol = self
            .program
            .resolve_name(file, scope, *first, first_space)?
            .symbol;
        let facts = self.program.file(file);
        for (index, segment) in rest.iter().enumerate() {
            let text = facts.name(*segment);
            // A qualifier names a namespace (or a value holding one); the last segment a type:
            // an exported name with both meanings (`interface File` and `namespace File`)
            // stands for the one the position asks for.
            let space = if index + 1 == rest.len() {
                space::TYPE
            } else {
                space::NAMESPACE | space::VALUE
            };
            symbol = match symbol {
                Symbol::Module(module) => self.program.resolve_export(module, text, space, 0)?,
                Symbol::Decl(decl) => {
                    let d = self.program.decl(decl);
                    let member = d.members().iter().find(|m| {
                        self.program
                            .text(decl.file, self.program.file(decl.file).decl(**m).name)
                            == text
                    })?;
                    Symbol::Decl(DeclRef::new(decl.file, *member))
                }
                _ => return None,
            };
        }
        match symbol {
            Symbol::Decl(decl) => Some(decl),
            _ => None,
        }
    }

    fn eval_ref(
        &self,
        file: FileId,
        scope: ScopeId,
        path: &[Name],
        args: &[TypeId],
        env: &Env,
    ) -> Ty {
        let facts = self.program.file(file);
        let Some(target) = self.resolve_type_path(file, scope, path) else {
            // A module namespace used as a type (`typeof import`) or an unknown name.
            return Ty::Unknown;
        };
        let arg_tys: Vec<Ty> = args.iter().map(|a| self.eval_type(file, *a, env)).collect();
        let d = self.program.decl(target);
        if self.program.is_builtin(target.file)
            && let Some(special) = self.utility_type(self.program.decl_name(target), &arg_tys)
        {
            return special;
        }
        let _ = facts;
        match d.kind {
            DeclKind::Class | DeclKind::Interface | DeclKind::TypeLiteral => {
                Ty::Object(target, self.bind_params(target, arg_tys, env))
            }
            DeclKind::TypeAlias => {
                let Some(value) = d.ty.get() else {
                    return Ty::Unknown;
                };
                let alias_env = self.bind_params(target, arg_tys, env);
                self.guarded(target, Busy::Alias, || {
                    self.eval_type(target.file, value, &alias_env)
                })
            }
            DeclKind::TypeParam => {
                if let Some((_, ty)) = env.iter().rev().find(|(p, _)| *p == target) {
                    return ty.clone();
                }
                match d.ty.get() {
                    Some(constraint) => self.eval_type(target.file, constraint, env),
                    None => Ty::Unknown,
                }
            }
            DeclKind::Enum => Ty::Prim(Prim::Number),
            DeclKind::Namespace => Ty::Namespace(target),
            _ => Ty::Unknown,
        }
    }

    /// `env` plus `decl`'s type parameters bound to `args` (missing ones left to their
    /// constraints).
    fn bind_params(&self, decl: DeclRef, args: Vec<Ty>, env: &Env) -> Env {
        let params = self.program.decl(decl).type_params();
        if params.is_empty() {
            return env.clone();
        }
        let mut bound: Vec<(DeclRef, Ty)> = env.iter().cloned().collect();
        for (param, arg) in params.iter().zip(args) {
            bound.push((DeclRef::new(decl.file, *param), arg));
        }
        Rc::from(bound)
    }

    /// Built-in generic types the evaluator computes rather than reads.
    fn utility_type(&self, name: &str, args: &[Ty]) -> Option<Ty> {
        let first = args.first().cloned().unwrap_or(Ty::Unknown);
        Some(match name {
            "Partial" | "Required" | "Readonly" | "NonNullable" | "Pick" | "Omit" | "Exclude"
            | "Extract" | "NoInfer" => first,
            "Awaited" => self.unwrap_promise(&first),
            "ReturnType" => match &first {
                Ty::Func(func, env) => self.return_type(*func, env),
                _ => Ty::Unknown,
            },
            "InstanceType" => match &first {
                Ty::Class(class) => Ty::Object(*class, empty_env()),
                _ => Ty::Unknown,
            },
            _ => return None,
        })
    }
}
