//! Call sites to declarations: which node a call, `new`, `super(…)`, JSX element or value
//! reference reaches, how that was found (provenance), or why nothing was found.

use super::members::Member;
use super::names::Symbol;
use super::ty::{Ty, empty_env};
use super::{DeclRef, FileId, Resolver, object_decls};
use crate::facts::{CallKind, CallSite, DeclKind, Expr, ExprId, decl_flags, space};

/// How a call's target was found (stored on CALLS edges).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Provenance {
    /// A name declared in the same file.
    Direct,
    /// A name imported from another module (or a namespace member).
    Import,
    /// `this.m()`, `super.m()`, `super(…)`.
    This,
    /// A member on a receiver whose type is declared.
    Typed,
    /// A member on a receiver whose type was inferred.
    Inferred,
    /// A variable that holds a function (`const next = step; next()`).
    Alias,
    /// An implementation reached through an interface or abstract member.
    Dispatch,
    /// A function a table or list holds, called by a key that is not a literal.
    Element,
}

impl Provenance {
    /// The byte stored on the edge (see `tsgraph_engine::Resolution`).
    pub(crate) fn as_resolution(self) -> tsgraph_engine::Resolution {
        use tsgraph_engine::Resolution;
        match self {
            Provenance::Direct => Resolution::Direct,
            Provenance::Import => Resolution::Import,
            Provenance::This => Resolution::This,
            Provenance::Typed => Resolution::Typed,
            Provenance::Inferred => Resolution::Inferred,
            Provenance::Alias => Resolution::Alias,
            Provenance::Dispatch => Resolution::Dispatch,
            Provenance::Element => Resolution::Element,
        }
    }
}

/// Why a call site reaches no node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Unresolved {
    /// A declaration of a package outside the project, or a global.
    External,
    /// A parameter (a callback).
    Parameter,
    /// A local value that is not a function (or a destructured binding).
    Local,
    /// The receiver's type could not be determined.
    UnknownReceiver,
    /// The receiver's type is known but has no such member in the project.
    NoMember,
    /// `obj[key]()`.
    Dynamic,
    /// `(() => …)()`.
    Iife,
    /// A function without a name (a member of an anonymous object, a returned function).
    Anonymous,
    /// A name bound nowhere.
    Unbound,
}

impl Unresolved {
    /// The reason as a word, for summaries and stored sites.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Unresolved::External => "external",
            Unresolved::Parameter => "parameter",
            Unresolved::Local => "local-value",
            Unresolved::UnknownReceiver => "unknown-receiver",
            Unresolved::NoMember => "no-member",
            Unresolved::Dynamic => "dynamic",
            Unresolved::Iife => "iife",
            Unresolved::Anonymous => "anonymous",
            Unresolved::Unbound => "unbound",
        }
    }
}

/// A declaration a call reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CallTarget {
    pub(crate) decl: DeclRef,
    pub(crate) provenance: Provenance,
    /// The declared type the member was looked up on (an interface or class), when the call
    /// is a member call: dispatch reaches only implementations below it.
    pub(crate) receiver: Option<DeclRef>,
}

impl<'a> Resolver<'_, 'a> {
    /// Whether a declaration is a graph node that can be called: a named function, method or
    /// accessor.
    pub(super) fn is_concrete_callable(&self, decl: DeclRef) -> bool {
        let d = self.program.decl(decl);
        !self.program.is_builtin(decl.file)
            && d.node.is_some()
            && matches!(
                d.kind,
                DeclKind::Function
                    | DeclKind::Method
                    | DeclKind::MethodSig
                    | DeclKind::Getter
                    | DeclKind::Setter
            )
    }

    fn is_project_node(&self, decl: DeclRef) -> bool {
        !self.program.is_builtin(decl.file) && self.program.decl(decl).node.is_some()
    }

    /// The declarations a call site reaches.
    pub(crate) fn resolve_call(
        &self,
        file: FileId,
        site: &CallSite,
    ) -> Result<Vec<CallTarget>, Unresolved> {
        let facts = self.program.file(file);
        match site.kind {
            CallKind::Super => {
                let Expr::Super { scope } = facts.expr(site.expr) else {
                    return Err(Unresolved::Unbound);
                };
                match self.this_type(file, *scope) {
                    Ty::Object(class, _) | Ty::Class(class) => match self.base_instance(class) {
                        Some(Ty::Object(base, _)) if self.is_project_node(base) => {
                            Ok(vec![CallTarget {
                                receiver: None,
                                decl: base,
                                provenance: Provenance::This,
                            }])
                        }
                        Some(_) => Err(Unresolved::External),
                        None => Err(Unresolved::Unbound),
                    },
                    _ => Err(Unresolved::Unbound),
                }
            }
            CallKind::New => {
                let Expr::New { callee, .. } = facts.expr(site.expr) else {
                    return Err(Unresolved::Unbound);
                };
                self.resolve_constructed(file, *callee)
            }
            CallKind::Call => {
                let Expr::Call { callee, .. } = facts.expr(site.expr) else {
                    return Err(Unresolved::Unbound);
                };
                self.resolve_callee(file, *callee)
            }
        }
    }

    /// `new X()`: the class `X` names, or the variable holding a constructor.
    fn resolve_constructed(
        &self,
        file: FileId,
        callee: ExprId,
    ) -> Result<Vec<CallTarget>, Unresolved> {
        let facts = self.program.file(file);
        match facts.expr(callee) {
            Expr::Ident { name, scope } => {
                let (symbol, provenance) = self.value_named(file, *scope, *name)?;
                match symbol {
                    Symbol::Decl(decl) => {
                        let d = self.program.decl(decl);
                        if self.program.is_builtin(decl.file) {
                            return Err(Unresolved::External);
                        }
                        match d.kind {
                            DeclKind::Class if d.node.is_some() => Ok(vec![CallTarget {
                                receiver: None,
                                decl,
                                provenance,
                            }]),
                            DeclKind::Parameter => self.constructed_by_type(
                                file,
                                callee,
                                provenance,
                                Unresolved::Parameter,
                            ),
                            _ if d.node.is_some() => Ok(vec![CallTarget {
                                receiver: None,
                                decl,
                                provenance,
                            }]),
                            _ => self.constructed_by_type(
                                file,
                                callee,
                                Provenance::Alias,
                                Unresolved::Local,
                            ),
                        }
                    }
                    Symbol::External => Err(Unresolved::External),
                    _ => Err(Unresolved::Unbound),
                }
            }
            Expr::Member { object, name } => {
                let receiver = self.type_of_expr(file, *object);
                let text = facts.name(*name);
                let members = self.members(&receiver, text);
                if members.is_empty() {
                    return Err(if receiver.is_unknown() {
                        Unresolved::UnknownReceiver
                    } else {
                        Unresolved::NoMember
                    });
                }
                let provenance = self.receiver_provenance(file, *object, &receiver);
                let mut targets = Vec::new();
                for member in members {
                    let d = self.program.decl(member.decl);
                    if d.kind == DeclKind::Class && self.is_project_node(member.decl) {
                        targets.push(CallTarget {
                            receiver: None,
                            decl: member.decl,
                            provenance,
                        });
                    } else if let Ty::Class(class) = self.member_value_type(&member)
                        && self.is_project_node(class)
                    {
                        targets.push(CallTarget {
                            receiver: None,
                            decl: class,
                            provenance,
                        });
                    } else if self.is_project_node(member.decl) {
                        targets.push(CallTarget {
                            receiver: None,
                            decl: member.decl,
                            provenance,
                        });
                    }
                }
                if targets.is_empty() {
                    Err(Unresolved::External)
                } else {
                    Ok(targets)
                }
            }
            _ => self.constructed_by_type(file, callee, Provenance::Inferred, Unresolved::Dynamic),
        }
    }

    fn constructed_by_type(
        &self,
        file: FileId,
        callee: ExprId,
        provenance: Provenance,
        otherwise: Unresolved,
    ) -> Result<Vec<CallTarget>, Unresolved> {
        match self.type_of_expr(file, callee) {
            Ty::Class(class) if self.is_project_node(class) => Ok(vec![CallTarget {
                receiver: None,
                decl: class,
                provenance,
            }]),
            _ => Err(otherwise),
        }
    }

    /// What the value name `name` (written in `scope` of `file`) stands for, and whether an
    /// import was followed to it.
    fn value_named(
        &self,
        file: FileId,
        scope: crate::facts::ScopeId,
        name: crate::facts::Name,
    ) -> Result<(Symbol, Provenance), Unresolved> {
        let Some(named) = self.program.resolve_name(file, scope, name, space::VALUE) else {
            // Bound nowhere in the project: a global of the runtime.
            return Err(Unresolved::External);
        };
        Ok((named.symbol, named.provenance()))
    }

    /// A call's callee expression.
    fn resolve_callee(&self, file: FileId, callee: ExprId) -> Result<Vec<CallTarget>, Unresolved> {
        let facts = self.program.file(file);
        match facts.expr(callee) {
            Expr::Ident { name, scope } => {
                let (symbol, provenance) = self.value_named(file, *scope, *name)?;
                match symbol {
                    Symbol::Decl(decl) => self.call_of_decl(decl, provenance),
                    Symbol::External => Err(Unresolved::External),
                    Symbol::Module(_) => Err(Unresolved::Unbound),
                    Symbol::Expr(f, e) => match self.type_of_expr(f, e) {
                        Ty::Func(func, _) if self.is_concrete_callable(func) => {
                            Ok(vec![CallTarget {
                                receiver: None,
                                decl: func,
                                provenance: Provenance::Import,
                            }])
                        }
                        _ => Err(Unresolved::Anonymous),
                    },
                }
            }
            Expr::Member { object, name } => {
                let text = facts.name(*name);
                // `f.call(…)` and `f.apply(…)` call `f`.
                if matches!(text, "call" | "apply") {
                    let target = self.type_of_expr(file, *object);
                    if let Ty::Func(func, _) = target {
                        if self.is_concrete_callable(func) {
                            return Ok(vec![CallTarget {
                                receiver: None,
                                decl: func,
                                provenance: self.reference_provenance(file, *object),
                            }]);
                        }
                        if let Ok(found) = self.resolve_callee(file, *object) {
                            return Ok(found);
                        }
                    }
                }
                let receiver = self.type_of_expr(file, *object);
                let members = self.members(&receiver, text);
                if members.is_empty() {
                    if receiver.is_unknown()
                        || matches!(
                            receiver,
                            Ty::Prim(crate::facts::Prim::Any | crate::facts::Prim::Unknown)
                        )
                    {
                        return Err(self.unknown_receiver_reason(file, *object));
                    }
                    return Err(if self.is_external_type(&receiver) {
                        Unresolved::External
                    } else {
                        Unresolved::NoMember
                    });
                }
                let provenance = self.receiver_provenance(file, *object, &receiver);
                let mut targets = Vec::new();
                let mut reason = Unresolved::External;
                for member in &members {
                    match self.call_of_member(member, provenance) {
                        Ok(found) => {
                            for target in found {
                                if !targets.iter().any(|t: &CallTarget| t.decl == target.decl) {
                                    targets.push(target);
                                }
                            }
                        }
                        Err(why) => reason = why,
                    }
                }
                if targets.is_empty() {
                    return Err(reason);
                }
                // Dispatch from an interface or abstract member reaches the implementations
                // below the receiver's own type, not every implementation of the member's
                // declaring type (`repo: OrderRepository` calling `list` from a generic
                // `Repository`).
                let receivers = object_decls(&receiver);
                for target in &mut targets {
                    target.receiver = match receivers.as_slice() {
                        [only] => Some(*only),
                        many => many.iter().copied().find(|r| {
                            self.members(&Ty::Object(*r, empty_env()), text)
                                .first()
                                .is_some_and(|m| m.decl == target.decl)
                        }),
                    };
                }
                Ok(targets)
            }
            Expr::Call { .. } | Expr::New { .. } => match self.type_of_expr(file, callee) {
                Ty::Func(func, _) if self.is_concrete_callable(func) => Ok(vec![CallTarget {
                    receiver: None,
                    decl: func,
                    provenance: Provenance::Inferred,
                }]),
                _ => Err(Unresolved::Anonymous),
            },
            Expr::Decl(_) => Err(Unresolved::Iife),
            Expr::Element { object } => self.element_call(file, *object),
            _ => match self.type_of_expr(file, callee) {
                Ty::Func(func, _) if self.is_concrete_callable(func) => Ok(vec![CallTarget {
                    receiver: None,
                    decl: func,
                    provenance: Provenance::Inferred,
                }]),
                _ => Err(Unresolved::Dynamic),
            },
        }
    }

    /// Calling the value a name's declaration holds.
    fn call_of_decl(
        &self,
        decl: DeclRef,
        provenance: Provenance,
    ) -> Result<Vec<CallTarget>, Unresolved> {
        if self.program.is_builtin(decl.file) {
            return Err(Unresolved::External);
        }
        if self.is_concrete_callable(decl) {
            return Ok(vec![CallTarget {
                receiver: None,
                decl,
                provenance,
            }]);
        }
        let d = self.program.decl(decl);
        match d.kind {
            DeclKind::Parameter => {
                // A callback parameter: only a declared function type with a concrete
                // declaration behind it (`typeof f`) names a target.
                match self.value_type(decl, &empty_env()) {
                    Ty::Func(func, _) if self.is_concrete_callable(func) && d.ty.is_some() => {
                        Ok(vec![CallTarget {
                            receiver: None,
                            decl: func,
                            provenance: Provenance::Alias,
                        }])
                    }
                    _ => Err(Unresolved::Parameter),
                }
            }
            DeclKind::Variable | DeclKind::ObjectProp | DeclKind::Field | DeclKind::PropertySig => {
                // `const { build } = makeBuilders()`: the member of the value's type, when
                // that is a declared function, as `makeBuilders().build()` would reach it;
                // anything else a destructured name holds is not known.
                let destructured = d.flags & decl_flags::DESTRUCTURED != 0;
                match self.value_type(decl, &empty_env()) {
                    Ty::Func(func, _) if self.is_concrete_callable(func) && func != decl => {
                        Ok(vec![CallTarget {
                            receiver: None,
                            decl: func,
                            provenance: Provenance::Alias,
                        }])
                    }
                    _ if destructured => Err(Unresolved::Local),
                    // An alias of a function outside the project (`const isArray =
                    // Array.isArray`) calls that function.
                    Ty::Func(func, _) if self.program.is_builtin(func.file) => {
                        Err(Unresolved::External)
                    }
                    _ if self.aliases_outside(decl) => Err(Unresolved::External),
                    // A local holding a value: what it holds is not known by name.
                    _ if d.flags & decl_flags::LOCAL != 0 => Err(Unresolved::Local),
                    _ if d.node.is_some() => Ok(vec![CallTarget {
                        receiver: None,
                        decl,
                        provenance,
                    }]),
                    _ => Err(Unresolved::Local),
                }
            }
            DeclKind::Class => Err(Unresolved::NoMember),
            _ => Err(Unresolved::Anonymous),
        }
    }

    /// Whether a variable is initialized with a member of something outside the project
    /// (`const get = lodash.get`, `const keys = Object.keys`), directly or through another
    /// such variable (`const O = Object; const keys = O.keys`): calling it calls that.
    fn aliases_outside(&self, decl: DeclRef) -> bool {
        self.aliases_outside_within(decl, 8)
    }

    /// [`Self::aliases_outside`], following at most `hops` variables.
    fn aliases_outside_within(&self, decl: DeclRef, hops: u32) -> bool {
        let d = self.program.decl(decl);
        if d.ty.is_some() {
            return false;
        }
        let Some(mut expr) = d.init.get() else {
            return false;
        };
        let facts = self.program.file(decl.file);
        for _ in 0..32 {
            match facts.expr(expr) {
                Expr::Member { object, .. } => expr = *object,
                Expr::Ident { name, scope } => {
                    return match self
                        .program
                        .resolve_name(decl.file, *scope, *name, space::VALUE)
                    {
                        None => true,
                        Some(named) => match named.symbol {
                            Symbol::External => true,
                            Symbol::Decl(found) => {
                                self.program.is_builtin(found.file)
                                    || (hops > 0
                                        && found != decl
                                        && self.program.decl(found).kind == DeclKind::Variable
                                        && self.aliases_outside_within(found, hops - 1))
                            }
                            _ => false,
                        },
                    };
                }
                _ => return false,
            }
        }
        false
    }

    /// Calling a member found on a receiver.
    pub(super) fn call_of_member(
        &self,
        member: &Member,
        provenance: Provenance,
    ) -> Result<Vec<CallTarget>, Unresolved> {
        let decl = member.decl;
        if self.program.is_builtin(decl.file) {
            return Err(Unresolved::External);
        }
        if self.is_concrete_callable(decl) {
            return Ok(vec![CallTarget {
                receiver: None,
                decl,
                provenance,
            }]);
        }
        let d = self.program.decl(decl);
        match d.kind {
            DeclKind::Field | DeclKind::PropertySig | DeclKind::ObjectProp | DeclKind::Variable => {
                if d.flags & decl_flags::PARAMETER_PROPERTY != 0 {
                    return Err(Unresolved::Parameter);
                }
                // A property holding a declared function (`{ create: createUser }`), or typed
                // as one (`setTool: App["setTool"]`, `run: typeof run`), calls that function,
                // as the checker's signature does; one typed with a function type of its own
                // (`onClick: (e: Event) => void`) is the property itself, and so is one holding
                // or typed as a function with an annotation of its own (`const check: Check =
                // …`: the checker's signature is `Check`'s, which names no declaration).
                match self.member_value_type(member) {
                    Ty::Func(func, _)
                        if self.is_concrete_callable(func)
                            && self.program.decl(func).ty.is_none() =>
                    {
                        Ok(vec![CallTarget {
                            receiver: None,
                            decl: func,
                            provenance: Provenance::Alias,
                        }])
                    }
                    _ if d.node.is_some() => Ok(vec![CallTarget {
                        receiver: None,
                        decl,
                        provenance,
                    }]),
                    _ => Err(Unresolved::Anonymous),
                }
            }
            DeclKind::Function | DeclKind::Method | DeclKind::Getter | DeclKind::Setter => {
                Err(Unresolved::Anonymous)
            }
            _ => Err(Unresolved::NoMember),
        }
    }

    /// How a member call's receiver got its type.
    fn receiver_provenance(&self, file: FileId, object: ExprId, receiver: &Ty) -> Provenance {
        let facts = self.program.file(file);
        match facts.expr(object) {
            Expr::This { .. } | Expr::Super { .. } => Provenance::This,
            Expr::Member { object: inner, .. }
                if matches!(facts.expr(*inner), Expr::This { .. }) =>
            {
                Provenance::This
            }
            Expr::Ident { name, scope } => {
                if matches!(receiver, Ty::Module(_)) {
                    return Provenance::Import;
                }
                match self.program.resolve_name(file, *scope, *name, space::VALUE) {
                    Some(named) => match named.symbol {
                        Symbol::Module(_) => Provenance::Import,
                        Symbol::Decl(decl) => {
                            let d = self.program.decl(decl);
                            if matches!(
                                d.kind,
                                DeclKind::Class | DeclKind::Namespace | DeclKind::Enum
                            ) || !d.members().is_empty()
                            {
                                named.provenance()
                            } else if d.ty.is_some() {
                                Provenance::Typed
                            } else {
                                Provenance::Inferred
                            }
                        }
                        _ => Provenance::Inferred,
                    },
                    None => Provenance::Inferred,
                }
            }
            _ => Provenance::Inferred,
        }
    }

    fn reference_provenance(&self, file: FileId, expr: ExprId) -> Provenance {
        match self.program.file(file).expr(expr) {
            Expr::Ident { name, scope } => self
                .program
                .resolve_name(file, *scope, *name, space::VALUE)
                .map_or(Provenance::Direct, |named| named.provenance()),
            _ => Provenance::Inferred,
        }
    }

    /// Why a receiver has no known type.
    fn unknown_receiver_reason(&self, file: FileId, object: ExprId) -> Unresolved {
        let facts = self.program.file(file);
        let mut expr = object;
        for _ in 0..64 {
            match facts.expr(expr) {
                Expr::Member { object, .. } | Expr::Element { object } => expr = *object,
                Expr::Call { callee, .. } => expr = *callee,
                Expr::Ident { name, scope } => {
                    return match self.program.resolve_name(file, *scope, *name, space::VALUE) {
                        Some(named) => match named.symbol {
                            Symbol::External => Unresolved::External,
                            Symbol::Decl(decl) if self.program.is_builtin(decl.file) => {
                                Unresolved::External
                            }
                            Symbol::Decl(decl)
                                if self.program.decl(decl).kind == DeclKind::Parameter =>
                            {
                                Unresolved::UnknownReceiver
                            }
                            _ => Unresolved::UnknownReceiver,
                        },
                        None => Unresolved::Unbound,
                    };
                }
                _ => return Unresolved::UnknownReceiver,
            }
        }
        Unresolved::UnknownReceiver
    }

    fn is_external_type(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Object(decl, _) | Ty::Class(decl) | Ty::Func(decl, _) | Ty::Namespace(decl) => {
                self.program.is_builtin(decl.file)
            }
            Ty::Prim(_) => true,
            Ty::Union(parts) | Ty::Intersection(parts) => {
                parts.iter().all(|p| self.is_external_type(p))
            }
            _ => false,
        }
    }

    /// A JSX element's component: a function or class node.
    pub(crate) fn resolve_jsx(&self, file: FileId, tag: ExprId) -> Option<DeclRef> {
        self.resolve_value_reference(file, tag)
    }

    /// The function, method or class a value reference (not a call) names.
    pub(crate) fn resolve_value_reference(&self, file: FileId, expr: ExprId) -> Option<DeclRef> {
        let facts = self.program.file(file);
        let decl = match facts.expr(expr) {
            Expr::Ident { name, scope } => {
                match self
                    .program
                    .resolve_name(file, *scope, *name, space::VALUE)?
                    .symbol
                {
                    Symbol::Decl(decl) => decl,
                    _ => return None,
                }
            }
            Expr::Member { object, name } => {
                let receiver = self.type_of_expr(file, *object);
                let members = self.members(&receiver, facts.name(*name));
                members.first()?.decl
            }
            _ => return None,
        };
        if self.program.is_builtin(decl.file) {
            return None;
        }
        let d = self.program.decl(decl);
        if d.node.is_some()
            && matches!(
                d.kind,
                DeclKind::Function | DeclKind::Method | DeclKind::Class | DeclKind::Getter
            )
        {
            return Some(decl);
        }
        // A local alias of a function (`const handler = onSave`).
        if matches!(
            d.kind,
            DeclKind::Variable | DeclKind::ObjectProp | DeclKind::Field
        ) && d.flags & decl_flags::DESTRUCTURED == 0
        {
            match self.value_type(decl, &empty_env()) {
                Ty::Func(func, _) if self.is_concrete_callable(func) && func != decl => {
                    return Some(func);
                }
                Ty::Class(class) if self.is_project_node(class) => return Some(class),
                _ => {}
            }
        }
        None
    }
}
