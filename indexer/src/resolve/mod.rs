//! The resolver: answers, over the summaries of every file, what a name means where it is
//! written, what type an expression has, which members a type has, and which declarations a
//! call reaches.
//!
//! Answers never depend on file order: export tables are computed per strongly connected
//! component of the `export *` graph, and every lookup is bounded, so cycles end.

mod builtins;
mod calls;
mod exports;
mod hierarchy;
mod kept_exports;
mod keys;
mod members;
mod names;
mod tables;
mod ty;

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use crate::facts::{DeclId, FileFacts, Name};
use crate::facts_table::FactsTable;

pub(crate) use calls::{CallTarget, Provenance, Unresolved};
pub(crate) use exports::ExportTable;
pub(crate) use exports::ExportTables;
pub(crate) use hierarchy::{Clause, Hierarchy, object_decls};
pub(crate) use kept_exports::KeptExports;
pub(crate) use ty::Ty;
pub(crate) use ty::empty_env as ty_empty_env;

/// A file of the program: an index into [`Program::files`]; the last one is the built-in
/// library.
pub(crate) type FileId = u32;

/// A declaration anywhere in the program.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) struct DeclRef {
    pub(crate) file: FileId,
    pub(crate) decl: DeclId,
}

impl DeclRef {
    pub(crate) fn new(file: FileId, decl: DeclId) -> DeclRef {
        DeclRef { file, decl }
    }
}

/// What a module specifier resolved to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum ModuleTarget {
    /// A file of the program.
    File(FileId),
    /// A package outside the project.
    External(String),
    /// Nothing (missing file, unsupported form).
    Unresolved,
}

/// What resolution computes over the whole program once and keeps between updates: the
/// built-in library's names and every module's export table.
#[derive(Debug)]
pub(crate) struct ProgramTables {
    /// The built-in library's name text → name id (project files are looked up by scope,
    /// never by text).
    globals: FxHashMap<Box<str>, Name>,
    exports: ExportTables,
}

impl ProgramTables {
    /// The tables of a whole program (see [`Program::new`] for the arguments).
    pub(crate) fn build(
        files: &FactsTable,
        builtins: &FileFacts,
        modules: &[Vec<ModuleTarget>],
    ) -> ProgramTables {
        ProgramTables {
            globals: globals_of(builtins),
            exports: ExportTables::build(files, modules),
        }
    }

    /// The tables of a program whose export tables were kept ([`crate::resume`]).
    pub(crate) fn with_exports(builtins: &FileFacts, exports: ExportTables) -> ProgramTables {
        ProgramTables {
            globals: globals_of(builtins),
            exports,
        }
    }

    /// Every module's export table, to keep.
    pub(crate) fn exports(&self) -> &ExportTables {
        &self.exports
    }

    /// Every module's export table, to take the form it was kept in.
    pub(crate) fn exports_mut(&mut self) -> &mut ExportTables {
        &mut self.exports
    }

    /// Recomputes what depends on the `changed` files (their summaries, or what their
    /// imports resolve to, changed).
    pub(crate) fn update(
        &mut self,
        files: &FactsTable,
        modules: &[Vec<ModuleTarget>],
        changed: &[FileId],
    ) {
        self.exports.update(files, modules, changed);
    }
}

/// The built-in library's name text → name id.
fn globals_of(builtins: &FileFacts) -> FxHashMap<Box<str>, Name> {
    builtins
        .names
        .iter()
        .map(|(name, text)| (text.into(), name))
        .collect()
}

/// Every file's summary, the built-in library, the resolved imports and export tables.
pub(crate) struct Program<'a> {
    files: &'a FactsTable,
    builtin_facts: &'a FileFacts,
    /// Per file, per import: the module it names (the built-in library has none).
    modules: &'a [Vec<ModuleTarget>],
    tables: &'a ProgramTables,
    builtins: FileId,
}

impl<'a> Program<'a> {
    /// `files` are the project's summaries (a removed file is an empty summary: stable file
    /// ids let a long-lived index keep them); `builtins` the built-in library's; `modules`
    /// what each import of each file resolved to (one entry per import, in order); `tables`
    /// what [`ProgramTables::build`] computed from those.
    pub(crate) fn new(
        files: &'a FactsTable,
        builtins: &'a FileFacts,
        modules: &'a [Vec<ModuleTarget>],
        tables: &'a ProgramTables,
    ) -> Program<'a> {
        Program {
            files,
            builtin_facts: builtins,
            modules,
            tables,
            builtins: u32::try_from(files.len()).unwrap_or(u32::MAX),
        }
    }

    /// What import `import` of `file` resolved to.
    pub(crate) fn module(&self, file: FileId, import: usize) -> &ModuleTarget {
        exports::module_of(self.modules, file, import)
    }

    /// The summary of `file` (read from the store now if a resumed state had not yet).
    pub(crate) fn file(&self, file: FileId) -> &'a FileFacts {
        if file == self.builtins {
            self.builtin_facts
        } else {
            self.files.get(file)
        }
    }

    /// The path of `file`, without reading its summary.
    pub(crate) fn path(&self, file: FileId) -> &'a str {
        if file == self.builtins {
            &self.builtin_facts.path
        } else {
            self.files.path(file)
        }
    }

    pub(crate) fn is_builtin(&self, file: FileId) -> bool {
        file == self.builtins
    }

    /// The id of `text` among the built-in library's names.
    pub(crate) fn global_name(&self, text: &str) -> Option<Name> {
        self.tables.globals.get(text).copied()
    }

    pub(crate) fn text(&self, file: FileId, name: Name) -> &'a str {
        self.file(file).name(name)
    }

    pub(crate) fn decl(&self, at: DeclRef) -> &'a crate::facts::Decl {
        self.file(at.file).decl(at.decl)
    }

    /// The simple name of a declaration.
    pub(crate) fn decl_name(&self, at: DeclRef) -> &'a str {
        self.text(at.file, self.decl(at).name)
    }

    /// What module `file` exports (none for the built-in library).
    pub(crate) fn export_table(&self, file: FileId) -> Option<&'a ExportTable> {
        self.tables.exports.table(file)
    }
}

/// The per-thread state of resolution: caches of types and member maps over one program.
pub(crate) struct Resolver<'p, 'a> {
    pub(crate) program: &'p Program<'a>,
    caches: RefCell<ty::Caches>,
}

impl<'p, 'a> Resolver<'p, 'a> {
    pub(crate) fn new(program: &'p Program<'a>) -> Resolver<'p, 'a> {
        Resolver {
            program,
            caches: RefCell::new(ty::Caches::default()),
        }
    }
}

pub(crate) use builtins::builtin_facts;
