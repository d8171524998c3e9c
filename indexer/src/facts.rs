//! What extraction learns from one file, before anything is resolved across files.

use tsgraph_engine::{EdgeKind, NodeKind};

/// Index of a symbol within its file's [`FileFacts::symbols`]; 0 is always the file itself.
pub(crate) type SymbolIndex = usize;

/// A declared symbol.
#[derive(Debug, Clone)]
pub(crate) struct Symbol {
    pub(crate) kind: NodeKind,
    /// The simple name (`save`).
    pub(crate) name: String,
    /// The dot-joined symbol path (`UserService.save`); empty for the file symbol.
    pub(crate) path: String,
    /// The symbol that contains this one (a class for its members); the file is index 0.
    pub(crate) parent: SymbolIndex,
    pub(crate) start_line: u32,
    pub(crate) end_line: u32,
    pub(crate) flags: u16,
    pub(crate) visibility: u8,
    pub(crate) parameters: Vec<String>,
    pub(crate) type_text: String,
    /// Names bound inside this symbol's body (parameters, locals, nested functions), sorted:
    /// a reference to one of them is not a reference to a module-level symbol.
    pub(crate) locals: Vec<String>,
    /// Locals whose class is known: `(local, class name)` from `new Class()` or a `: Class`
    /// annotation, in declaration order.
    pub(crate) local_types: Vec<(String, String)>,
    /// Exported under its own name (`export function f`, `export { f }`); `export { f as g }`
    /// exports it only as `g`.
    pub(crate) exports_own_name: bool,
}

/// One imported binding, or one re-exported name.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ImportBinding {
    /// The name as exported by the other module (`default`, `*` for a whole namespace).
    pub(crate) imported: String,
    /// The local name it is bound to (for re-exports: the name this module exports it as).
    pub(crate) local: String,
}

/// An `import … from` or an `export … from` statement.
#[derive(Debug, Clone)]
pub(crate) struct Import {
    /// The module specifier as written (`./db/user.js`).
    pub(crate) specifier: String,
    pub(crate) bindings: Vec<ImportBinding>,
    /// `import type …` / `export type … from`.
    pub(crate) type_only: bool,
    /// `export … from` (re-export) rather than `import`.
    pub(crate) reexport: bool,
    /// `export * from` (every name but `default`).
    pub(crate) reexport_all: bool,
    pub(crate) line: u32,
}

/// How a reference names its target.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Callee {
    /// `f()` or `new F()` or `<F/>`.
    Name(String),
    /// `this.m()`.
    This(String),
    /// `x.m()` where `x` is a plain identifier.
    Member(String, String),
}

/// A reference that may become an edge (CALLS, INCLUDES, EXTENDS, IMPLEMENTS).
#[derive(Debug, Clone)]
pub(crate) struct Reference {
    /// The symbol whose body holds the reference (the file for module-level code).
    pub(crate) from: SymbolIndex,
    pub(crate) callee: Callee,
    pub(crate) kind: EdgeKind,
    pub(crate) line: u32,
}

/// A local name exported under another name (`export { a as b }`, `export default a`).
#[derive(Debug, Clone)]
pub(crate) struct ExportAlias {
    pub(crate) local: String,
    pub(crate) exported: String,
}

/// Everything extracted from one file.
#[derive(Debug, Clone, Default)]
pub(crate) struct FileFacts {
    /// Path relative to the project root, forward slashes.
    pub(crate) path: String,
    pub(crate) hash: u64,
    pub(crate) bytes: u64,
    pub(crate) lines: u32,
    /// Bytes inside ERROR (or MISSING) nodes.
    pub(crate) error_bytes: u64,
    /// Symbol 0 is the file.
    pub(crate) symbols: Vec<Symbol>,
    pub(crate) imports: Vec<Import>,
    pub(crate) references: Vec<Reference>,
    pub(crate) export_aliases: Vec<ExportAlias>,
}
