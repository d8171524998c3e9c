//! The per-file semantic summary: what extraction learns from one file before anything is
//! resolved across files. Declarations with their scopes, type expressions kept as structure
//! (not text), every call site as an expression over receivers, and the imports and exports.
//!
//! Everything is addressed by `u32` indices into the file's own arrays, names are interned per
//! file, and the whole summary is serialisable, so it can be persisted and re-linked later
//! without parsing the file again.

use serde::{Deserialize, Serialize};
use thin_vec::ThinVec;
use tsgraph_engine::{NodeKind, UseContext};

mod lists;

pub(crate) use lists::{DeclLists, List};

/// A declaration of this file; 0 is the file itself.
pub(crate) type DeclId = u32;
/// A scope of this file; 0 is the module scope.
pub(crate) type ScopeId = u32;
/// An expression of this file.
pub(crate) type ExprId = u32;
/// A type expression of this file.
pub(crate) type TypeId = u32;
/// An interned name of this file (an index into [`FileFacts::names`]).
pub(crate) type Name = u32;

/// The file declaration and the module scope.
pub(crate) const FILE_DECL: DeclId = 0;
pub(crate) const MODULE_SCOPE: ScopeId = 0;

/// What a declaration is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum DeclKind {
    File,
    /// A function declaration, or a function/arrow expression (named by its context or not).
    Function,
    Class,
    /// A class or object-literal method, or a function-valued class field / object property.
    Method,
    Getter,
    Setter,
    /// A class constructor; its calls are credited to the class.
    Constructor,
    /// A class field that does not hold a function.
    Field,
    Interface,
    TypeAlias,
    Enum,
    EnumMember,
    /// A variable (module-level, local, or a destructured binding).
    Variable,
    Parameter,
    Namespace,
    /// An interface or type-literal property.
    PropertySig,
    /// An interface or type-literal method.
    MethodSig,
    /// A call signature `(x: A): B` of an interface or type literal (member name `()`), or a
    /// function type `(x: A) => B`.
    CallSig,
    /// A construct signature `new (x: A): B` (member name `new()`).
    ConstructSig,
    /// An index signature `[key: string]: T` (member name `[]`).
    IndexSig,
    /// An object literal's data property.
    ObjectProp,
    /// An object literal that no name holds.
    ObjectLiteral,
    /// A type literal `{ … }` that no name holds.
    TypeLiteral,
    TypeParam,
}

/// Extra facts of a declaration, as bits.
pub(crate) mod decl_flags {
    /// `async` function.
    pub(crate) const ASYNC: u32 = 1;
    /// Generator function.
    pub(crate) const GENERATOR: u32 = 1 << 1;
    /// A binding made by destructuring (`const { a } = …`): calls of it are not resolved.
    pub(crate) const DESTRUCTURED: u32 = 1 << 2;
    /// Declared inside a function body (a local).
    pub(crate) const LOCAL: u32 = 1 << 3;
    /// A rest parameter `...xs`.
    pub(crate) const REST: u32 = 1 << 4;
    /// `declare` / ambient, or a body-less overload signature.
    pub(crate) const AMBIENT: u32 = 1 << 5;
    /// The iteration variable of a `for … of` loop: its initializer is the iterated value.
    pub(crate) const ITERATED: u32 = 1 << 6;
    /// An arrow function (keeps the enclosing `this`).
    pub(crate) const ARROW: u32 = 1 << 7;
    /// A variable that credits the calls inside the functions of its initializer to itself.
    pub(crate) const WRAPPER: u32 = 1 << 8;
    /// A `get`/`set` accessor pair member, or a field declared through a constructor parameter.
    pub(crate) const PARAMETER_PROPERTY: u32 = 1 << 10;
}

/// One declaration.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Decl {
    pub(crate) kind: DeclKind,
    pub(crate) name: Name,
    /// The named scope whose path qualifies this declaration's path (`Class` for its methods).
    pub(crate) path_parent: DeclId,
    /// The scope the declaration's name is bound in.
    pub(crate) scope: ScopeId,
    /// The graph node this declaration becomes, if any (locals, parameters and anonymous
    /// functions are not nodes).
    pub(crate) node: Option<NodeKind>,
    pub(crate) start_line: u32,
    pub(crate) end_line: u32,
    /// [`tsgraph_engine::NodeFlags`] bits.
    pub(crate) node_flags: u16,
    pub(crate) visibility: u8,
    /// [`decl_flags`] bits.
    pub(crate) flags: u32,
    /// Return type (callables) or declared type (variables, properties), as text for display
    /// (in [`FileFacts::texts`]); none when the source writes none.
    pub(crate) type_text: OptIndex,
    /// Declared type: of a variable, field, parameter or property signature; the value of a
    /// type alias; the constraint of a type parameter.
    pub(crate) ty: OptIndex,
    /// Initializer or default value.
    pub(crate) init: OptIndex,
    /// Declared return type of a callable.
    pub(crate) ret: OptIndex,
    /// Parameters, type parameters, returned expressions, parameter texts and members
    /// (read through [`Decl::params`] and its siblings).
    pub(crate) lists: DeclLists,
    /// The class whose constructor this is, or whose members `this` refers to inside this
    /// function (methods, accessors, field initializers); the object literal for its methods.
    pub(crate) this_owner: OptIndex,
}

impl Decl {
    /// A declaration of `kind` named `name`, made in `scope` under `path_parent`, with
    /// nothing else known yet (no node, lines, flags, types or members).
    pub(crate) fn new(kind: DeclKind, name: Name, path_parent: DeclId, scope: ScopeId) -> Decl {
        Decl {
            kind,
            name,
            path_parent,
            scope,
            node: None,
            start_line: 0,
            end_line: 0,
            node_flags: 0,
            visibility: 0,
            flags: 0,
            type_text: OptIndex::NONE,
            ty: OptIndex::NONE,
            init: OptIndex::NONE,
            ret: OptIndex::NONE,
            lists: DeclLists::default(),
            this_owner: OptIndex::NONE,
        }
    }

    /// Parameters (declarations of kind Parameter), in order.
    pub(crate) fn params(&self) -> &[DeclId] {
        self.lists.get(List::Params)
    }

    /// Type parameters (declarations of kind TypeParam), in order.
    pub(crate) fn type_params(&self) -> &[DeclId] {
        self.lists.get(List::TypeParams)
    }

    /// Returned expressions of a callable with a body (for return-type inference); an arrow
    /// with an expression body returns it.
    pub(crate) fn returns(&self) -> &[ExprId] {
        self.lists.get(List::Returns)
    }

    /// Parameters as `name: Type` text, for display (in [`FileFacts::texts`]).
    pub(crate) fn params_text(&self) -> &[Name] {
        self.lists.get(List::ParamsText)
    }

    /// Members by declaration (classes, interfaces, object and type literals, enums,
    /// namespaces).
    pub(crate) fn members(&self) -> &[DeclId] {
        self.lists.get(List::Members)
    }
}

/// An optional index (of a scope, declaration, expression or type) in four bytes rather than
/// eight: [`Decl`] has five, and a 1M-line project half a million declarations.
/// Persisted as an `Option<u32>`, whose `None` postcard writes in one byte rather than five.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Option<u32>", into = "Option<u32>")]
pub(crate) struct OptIndex(u32);

impl OptIndex {
    pub(crate) const NONE: OptIndex = OptIndex(u32::MAX);

    pub(crate) fn get(self) -> Option<u32> {
        (self != OptIndex::NONE).then_some(self.0)
    }

    pub(crate) fn is_some(self) -> bool {
        self != OptIndex::NONE
    }

    pub(crate) fn is_none(self) -> bool {
        self == OptIndex::NONE
    }
}

impl From<u32> for OptIndex {
    fn from(index: u32) -> OptIndex {
        OptIndex(index)
    }
}

impl From<Option<u32>> for OptIndex {
    /// `Some(u32::MAX)`, which no file has as an index, reads back as `None`.
    fn from(index: Option<u32>) -> OptIndex {
        OptIndex(index.unwrap_or(u32::MAX))
    }
}

impl From<OptIndex> for Option<u32> {
    fn from(index: OptIndex) -> Option<u32> {
        index.get()
    }
}

impl std::fmt::Debug for OptIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// What a class or an interface inherits, and the fields a class's methods assign. Kept
/// apart from [`Decl`] because few declarations have any: inline, these fields made every
/// declaration 24 bytes larger (12 MB of a 1M-line project's summaries).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Heritage {
    /// `class … extends X<T>`: the base expression.
    pub(crate) extends_expr: Option<ExprId>,
    /// Type arguments of a class's base, or the bases of an interface.
    pub(crate) extends_types: ThinVec<TypeId>,
    /// `implements` clauses.
    pub(crate) implements: ThinVec<TypeId>,
    /// Fields assigned in the class body's methods as `this.x = value`, with the value.
    pub(crate) this_assignments: ThinVec<(Name, ExprId)>,
}

/// Where a function expression or an object literal sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Context {
    /// Argument `index` of the call or `new` expression `call`.
    Arg { call: ExprId, index: u32 },
    /// The value of property `name` of the object literal `object`.
    Prop { object: DeclId, name: Name },
    /// The initializer of a declaration with this declared type.
    Typed(TypeId),
    /// Returned from this callable.
    Return(DeclId),
}

/// What kind of region a scope is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ScopeKind {
    Module,
    /// A function's parameters and body.
    Function,
    Block,
    Class,
    /// A namespace body.
    Namespace,
    /// Type parameters of a type alias, interface or signature.
    TypeParams,
}

/// Which namespaces a binding lives in.
pub(crate) mod space {
    pub(crate) const VALUE: u8 = 1;
    pub(crate) const TYPE: u8 = 2;
    pub(crate) const NAMESPACE: u8 = 4;
    pub(crate) const ALL: u8 = VALUE | TYPE | NAMESPACE;
}

/// What a name in a scope stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum BindingTarget {
    Decl(DeclId),
    /// An imported name: (import, binding index within it).
    Import(u32, u32),
}

/// A name bound in a scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Binding {
    pub(crate) name: Name,
    /// [`space`] bits.
    pub(crate) space: u8,
    pub(crate) target: BindingTarget,
}

/// A region of code where names are bound.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Scope {
    /// The enclosing scope (the module scope is its own parent).
    pub(crate) parent: ScopeId,
    pub(crate) kind: ScopeKind,
    /// The declaration that owns the scope (a function, class or namespace; 0 for blocks).
    pub(crate) owner: DeclId,
    /// Sorted by name after extraction; several entries of one name differ in space.
    pub(crate) bindings: ThinVec<Binding>,
}

/// Primitive types (their members live outside the project, so they only matter as "known,
/// and not an object of the project").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum Prim {
    String,
    Number,
    Boolean,
    BigInt,
    Symbol,
    Null,
    Undefined,
    Void,
    Never,
    Any,
    Unknown,
    Object,
    RegExp,
}

/// An expression, as much of it as typing receivers needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Expr {
    Ident {
        name: Name,
        scope: ScopeId,
    },
    This {
        scope: ScopeId,
    },
    Super {
        scope: ScopeId,
    },
    /// `a.b`, `a?.b`, `a["b"]`.
    Member {
        object: ExprId,
        name: Name,
    },
    /// `a[i]` with a computed index: the element type.
    Element {
        object: ExprId,
    },
    /// `f(a)`, `f<T>(a)`: see [`Expr::operands`] for the arguments.
    Call {
        callee: ExprId,
        type_args: u16,
        operands: ThinVec<u32>,
    },
    /// `new C(a)`, `new C<T>(a)`: see [`Expr::operands`] for the arguments.
    New {
        callee: ExprId,
        type_args: u16,
        operands: ThinVec<u32>,
    },
    /// A function or arrow expression, or a class expression, or an object literal: its
    /// declaration.
    Decl(DeclId),
    Array(ThinVec<ExprId>),
    Await(ExprId),
    /// `x as T`, `<T>x`.
    Assert {
        expr: ExprId,
        ty: TypeId,
    },
    /// One of two values (`a || b`, `a ?? b`, `c ? a : b`).
    Either(ExprId, ExprId),
    /// The value of a declaration (destructuring roots, `for … of` sources).
    DeclValue(DeclId),
    /// The element produced by iterating a value (`for (x of xs)`).
    Iterated(ExprId),
    Literal(Prim),
    Unknown,
}

impl Expr {
    /// A call (`new` when `construct`) of `callee`. The type arguments and then the arguments
    /// share one array, so that an expression takes 16 bytes rather than 24 (a 1M-line
    /// project has 1.4 million). Type arguments past 65,535 are dropped.
    pub(crate) fn call(
        construct: bool,
        callee: ExprId,
        args: &[ExprId],
        type_args: &[TypeId],
    ) -> Expr {
        let type_args = &type_args[..type_args.len().min(usize::from(u16::MAX))];
        let count = u16::try_from(type_args.len()).unwrap_or(u16::MAX);
        let mut operands = ThinVec::with_capacity(type_args.len() + args.len());
        operands.extend_from_slice(type_args);
        operands.extend_from_slice(args);
        if construct {
            Expr::New {
                callee,
                type_args: count,
                operands,
            }
        } else {
            Expr::Call {
                callee,
                type_args: count,
                operands,
            }
        }
    }

    /// The arguments and the type arguments of a call or `new` (none for other expressions).
    pub(crate) fn operands(&self) -> (&[ExprId], &[TypeId]) {
        match self {
            Expr::Call {
                type_args,
                operands,
                ..
            }
            | Expr::New {
                type_args,
                operands,
                ..
            } => {
                let (types, args) = operands.split_at(usize::from(*type_args).min(operands.len()));
                (args, types)
            }
            _ => (&[], &[]),
        }
    }
}

/// A type expression.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum TypeExpr {
    /// `Foo`, `ns.Foo<A, B>`: the name looked up from `scope`. Made by
    /// [`TypeExpr::reference`] and read through [`TypeExpr::reference_parts`].
    Ref {
        scope: ScopeId,
        /// The path when it has one segment (most do), which then costs no allocation.
        name: Name,
        path_len: u16,
        /// The path when it has another length, then the type arguments.
        operands: ThinVec<u32>,
    },
    /// A type literal `{ … }`, a function type or a constructor type: a declaration holding
    /// the members or the signature.
    Decl(DeclId),
    Union(ThinVec<TypeId>),
    Intersection(ThinVec<TypeId>),
    Array(TypeId),
    Tuple(ThinVec<TypeId>),
    /// `typeof x.y`.
    Query(ExprId),
    /// `T["key"]`.
    Indexed {
        object: TypeId,
        key: Option<Name>,
    },
    Prim(Prim),
    This {
        scope: ScopeId,
    },
    /// Anything the evaluator does not look into (template literal types, import types…).
    Opaque,
    /// A type the evaluator does not look into either — a conditional type, a mapped type,
    /// `keyof` — with the types it names, which are its uses
    /// (`impact` of a type reaches the conditional and mapped types built on it).
    Mentions(ThinVec<TypeId>),
}

impl TypeExpr {
    /// A reference to the type named `path`, looked up from `scope`, with type arguments
    /// `args`. Path segments past 65,535 are dropped.
    pub(crate) fn reference(scope: ScopeId, path: &[Name], args: &[TypeId]) -> TypeExpr {
        let path = &path[..path.len().min(usize::from(u16::MAX))];
        let path_len = u16::try_from(path.len()).unwrap_or(u16::MAX);
        let (name, inline) = match path {
            [single] => (*single, true),
            _ => (0, false),
        };
        let mut operands = ThinVec::with_capacity(if inline { 0 } else { path.len() } + args.len());
        if !inline {
            operands.extend_from_slice(path);
        }
        operands.extend_from_slice(args);
        TypeExpr::Ref {
            scope,
            name,
            path_len,
            operands,
        }
    }

    /// The scope, path and type arguments of a reference.
    pub(crate) fn reference_parts(&self) -> Option<(ScopeId, &[Name], &[TypeId])> {
        let TypeExpr::Ref {
            scope,
            name,
            path_len,
            operands,
        } = self
        else {
            return None;
        };
        if *path_len == 1 {
            return Some((*scope, std::slice::from_ref(name), operands));
        }
        let (path, args) = operands.split_at(usize::from(*path_len).min(operands.len()));
        Some((*scope, path, args))
    }
}

/// One imported name (or re-exported name).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ImportBinding {
    /// The name as exported by the other module (`default`, `*` for the namespace).
    pub(crate) imported: Name,
    /// The local name (for re-exports: the name this module exports it as).
    pub(crate) local: Name,
}

/// An `import … from`, an `export … from`, an `import x = require(…)`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Import {
    pub(crate) specifier: String,
    pub(crate) bindings: Vec<ImportBinding>,
    pub(crate) type_only: bool,
    /// `export … from` rather than `import`.
    pub(crate) reexport: bool,
    /// `export * from` (every name but `default`).
    pub(crate) reexport_all: bool,
    pub(crate) line: u32,
}

/// A name this module exports from its own scope: `export { a as b }`, `export default a`,
/// `export function f`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Export {
    pub(crate) exported: Name,
    pub(crate) target: ExportTarget,
}

/// What an export names.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) enum ExportTarget {
    /// A name of the module scope (looked up in every namespace).
    Local(Name),
    /// A declaration (an exported declaration, or an anonymous default export).
    Decl(DeclId),
    /// `export default <expression>`.
    Expr(ExprId),
}

/// How a call is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum CallKind {
    /// `f()`, `a.b()`, `` tag`…` ``.
    Call,
    /// `new X()`.
    New,
    /// `super(…)`.
    Super,
}

/// A call site.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CallSite {
    /// The declaration the call is credited to (the nearest named container).
    pub(crate) caller: DeclId,
    /// The call (or `new`) expression; for `super(…)` the `super` expression.
    pub(crate) expr: ExprId,
    pub(crate) kind: CallKind,
    pub(crate) line: u32,
}

/// A JSX element naming a component (`<Foo />`, `<ui.Button />`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct JsxSite {
    pub(crate) caller: DeclId,
    pub(crate) tag: ExprId,
    pub(crate) line: u32,
}

/// A value used without being called: passed, stored, assigned or returned (REFERENCES when
/// it names a function, method or class).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ValueRef {
    pub(crate) from: DeclId,
    pub(crate) expr: ExprId,
    pub(crate) context: UseContext,
    pub(crate) line: u32,
}

/// A type written in a declaration's signature or annotation (USES_TYPE).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct TypeUse {
    pub(crate) from: DeclId,
    pub(crate) ty: TypeId,
    pub(crate) context: UseContext,
}

/// Strings end to end in one string, numbered in the order they were added: a file's
/// interned names, its display texts, its node IDs. One allocation for all of them rather
/// than one each (a 1M-line project has some 430,000 names).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Names {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<u32>,
}

impl Names {
    /// Adds a name (the caller interns: the same text twice gets two numbers).
    pub(crate) fn push(&mut self, name: &str) -> Name {
        let index = u32::try_from(self.ends.len()).unwrap_or(u32::MAX);
        self.text.push_str(name);
        self.ends
            .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
        index
    }

    /// The text of `name`; `None` for a number this file never gave out (or a damaged
    /// persisted summary).
    pub(crate) fn get(&self, name: Name) -> Option<&str> {
        let index = name as usize;
        let end = *self.ends.get(index)? as usize;
        let start = match index.checked_sub(1) {
            Some(before) => self.ends[before] as usize,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// Every name with its number, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Name, &str)> + '_ {
        (0..self.ends.len()).filter_map(|index| {
            let name = u32::try_from(index).ok()?;
            Some((name, self.get(name)?))
        })
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// The entry of `decl` in a table sorted by declaration (`FileFacts::docs`, `heritages`,
/// `contexts`).
fn by_decl<T>(table: &[(DeclId, T)], decl: DeclId) -> Option<&T> {
    let at = table.binary_search_by_key(&decl, |(d, _)| *d).ok()?;
    Some(&table[at].1)
}

/// The entry of `decl` in a table sorted by declaration, inserted in its place from `new`
/// when there is none.
fn by_decl_or_new<T>(
    table: &mut Vec<(DeclId, T)>,
    decl: DeclId,
    new: impl FnOnce() -> T,
) -> &mut T {
    let at = match table.binary_search_by_key(&decl, |(d, _)| *d) {
        Ok(at) => at,
        Err(at) => {
            table.insert(at, (decl, new()));
            at
        }
    };
    &mut table[at].1
}

/// Everything extracted from one file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct FileFacts {
    /// Path relative to the project root, forward slashes.
    pub(crate) path: String,
    pub(crate) hash: u64,
    pub(crate) bytes: u64,
    /// The file's modification time when read (nanoseconds since the epoch, 0 unknown).
    pub(crate) modified: u64,
    pub(crate) lines: u32,
    /// Bytes inside ERROR (or MISSING) nodes.
    pub(crate) error_bytes: u64,
    pub(crate) names: Names,
    /// Parameter and type texts for display, apart from `names` so that no text shadows an
    /// identifier when names are looked up by their text.
    pub(crate) texts: Names,
    pub(crate) decls: Vec<Decl>,
    pub(crate) scopes: Vec<Scope>,
    pub(crate) exprs: Vec<Expr>,
    pub(crate) types: Vec<TypeExpr>,
    pub(crate) imports: Vec<Import>,
    pub(crate) exports: Vec<Export>,
    pub(crate) calls: Vec<CallSite>,
    pub(crate) jsx: Vec<JsxSite>,
    pub(crate) refs: Vec<ValueRef>,
    pub(crate) type_uses: Vec<TypeUse>,
    /// The graph nodes with a leading doc comment, by declaration (ascending), with its text
    /// in `texts` (markers stripped, whitespace folded). Apart from [`Decl`], which every
    /// declaration pays for and few have one.
    pub(crate) docs: Vec<(DeclId, OptIndex)>,
    /// What each class or interface inherits, by declaration (ascending): apart from
    /// [`Decl`], which nine declarations in ten would pay for with nothing.
    pub(crate) heritages: Vec<(DeclId, Heritage)>,
    /// Where a function expression or object literal is written, which gives its parameters
    /// and properties their types when nothing is declared (contextual typing), by
    /// declaration (ascending): apart from [`Decl`] for the same reason.
    pub(crate) contexts: Vec<(DeclId, Context)>,
}

impl FileFacts {
    /// Gives back the room the arrays grew into while the file was walked. A whole project's
    /// summaries stay in memory while it is linked, and growth by doubling leaves a quarter
    /// of them unused on average.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.names.shrink_to_fit();
        self.texts.shrink_to_fit();
        self.decls.shrink_to_fit();
        for decl in &mut self.decls {
            decl.lists.shrink_to_fit();
        }
        self.heritages.shrink_to_fit();
        for (_, heritage) in &mut self.heritages {
            heritage.extends_types.shrink_to_fit();
            heritage.implements.shrink_to_fit();
            heritage.this_assignments.shrink_to_fit();
        }
        self.contexts.shrink_to_fit();
        self.scopes.shrink_to_fit();
        for scope in &mut self.scopes {
            scope.bindings.shrink_to_fit();
        }
        self.exprs.shrink_to_fit();
        self.types.shrink_to_fit();
        self.imports.shrink_to_fit();
        self.exports.shrink_to_fit();
        self.calls.shrink_to_fit();
        self.jsx.shrink_to_fit();
        self.docs.shrink_to_fit();
        self.refs.shrink_to_fit();
        self.type_uses.shrink_to_fit();
    }

    pub(crate) fn name(&self, name: Name) -> &str {
        self.names.get(name).unwrap_or("")
    }

    /// What class or interface `decl` inherits, if it has heritage clauses.
    pub(crate) fn heritage(&self, decl: DeclId) -> Option<&Heritage> {
        by_decl(&self.heritages, decl)
    }

    /// `class … extends X<T>`: the base expression of class `decl`.
    pub(crate) fn extends_expr(&self, decl: DeclId) -> Option<ExprId> {
        self.heritage(decl).and_then(|h| h.extends_expr)
    }

    /// Type arguments of class `decl`'s base, or the bases of interface `decl`.
    pub(crate) fn extends_types(&self, decl: DeclId) -> &[TypeId] {
        self.heritage(decl).map_or(&[], |h| &h.extends_types)
    }

    /// The `implements` clauses of class `decl`.
    pub(crate) fn implements(&self, decl: DeclId) -> &[TypeId] {
        self.heritage(decl).map_or(&[], |h| &h.implements)
    }

    /// Fields assigned in class `decl`'s methods as `this.x = value`, with the value.
    pub(crate) fn this_assignments(&self, decl: DeclId) -> &[(Name, ExprId)] {
        self.heritage(decl).map_or(&[], |h| &h.this_assignments)
    }

    /// The heritage of `decl` to fill in, made on first use.
    pub(crate) fn heritage_mut(&mut self, decl: DeclId) -> &mut Heritage {
        by_decl_or_new(&mut self.heritages, decl, Heritage::default)
    }

    /// Where the function expression or object literal `decl` is written, if that is known.
    pub(crate) fn context(&self, decl: DeclId) -> Option<Context> {
        by_decl(&self.contexts, decl).copied()
    }

    /// Sets where `decl` is written (the last setting stands).
    pub(crate) fn set_context(&mut self, decl: DeclId, context: Context) {
        *by_decl_or_new(&mut self.contexts, decl, || context) = context;
    }

    /// A display text of [`Decl::params_text`] or [`Decl::type_text`]; "" for none.
    pub(crate) fn text(&self, text: impl Into<OptIndex>) -> &str {
        text.into()
            .get()
            .and_then(|t| self.texts.get(t))
            .unwrap_or("")
    }

    pub(crate) fn decl(&self, id: DeclId) -> &Decl {
        &self.decls[id as usize]
    }

    /// The leading doc comment of the declaration `id`; empty without one.
    pub(crate) fn doc(&self, id: DeclId) -> &str {
        by_decl(&self.docs, id).map_or("", |&text| self.text(text))
    }

    pub(crate) fn expr(&self, id: ExprId) -> &Expr {
        self.exprs.get(id as usize).unwrap_or(&Expr::Unknown)
    }

    pub(crate) fn ty(&self, id: TypeId) -> &TypeExpr {
        self.types.get(id as usize).unwrap_or(&TypeExpr::Opaque)
    }
}

#[cfg(test)]
mod tests {
    use super::{Decl, Expr, Scope, TypeExpr};

    /// A 1M-line project holds some 510,000 declarations and 1.4 million expressions in
    /// memory while it is linked; a field added inline to them costs megabytes.
    #[test]
    fn summary_records_stay_small() {
        let sizes = [
            ("Decl", size_of::<Decl>(), 64),
            ("Expr", size_of::<Expr>(), 16),
            ("TypeExpr", size_of::<TypeExpr>(), 24),
            ("Scope", size_of::<Scope>(), 24),
        ];
        for (record, size, limit) in sizes {
            assert!(size <= limit, "{record} is {size} bytes, more than {limit}");
        }
    }
}
