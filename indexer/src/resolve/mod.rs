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
mod members;
mod names;
mod ty;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::facts::{DeclId, FileFacts, Name};

pub(crate) use calls::{CallTarget, Provenance, Unresolved};
pub(crate) use exports::ExportEntry;
pub(crate) use hierarchy::Hierarchy;
pub(crate) use ty::Ty;
pub(crate) use ty::empty_env as ty_empty_env;

/// A file of the program: an index into [`Program::files`]; the last one is the built-in
/// library.
pub(crate) type FileId = u32;

/// A declaration anywhere in the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ModuleTarget {
    /// A file of the program.
    File(FileId),
    /// A package outside the project.
    External(String),
    /// Nothing (missing file, unsupported form).
    Unresolved,
}

/// Every file's summary, the built-in library, the resolved imports and export tables.
pub(crate) struct Program<'a> {
    pub(crate) files: Vec<&'a FileFacts>,
    /// Per file: name text → name id.
    names: Vec<HashMap<&'a str, Name>>,
    /// Per file, per import: the module it names (the built-in library has none).
    modules: &'a [Vec<ModuleTarget>],
    /// Per file: exported name → what it stands for.
    exports: Vec<HashMap<&'a str, ExportEntry>>,
    builtins: FileId,
}

impl<'a> Program<'a> {
    /// `files` are the project's summaries (a removed file is an empty summary: stable file
    /// ids let a long-lived index keep them); `builtins` the built-in library's; `modules`
    /// what each import of each file resolved to (one entry per import, in order).
    pub(crate) fn new(
        files: &'a [FileFacts],
        builtins: &'a FileFacts,
        modules: &'a [Vec<ModuleTarget>],
    ) -> Program<'a> {
        let mut all: Vec<&'a FileFacts> = files.iter().collect();
        all.push(builtins);
        let names = all
            .iter()
            .map(|f| {
                f.names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (n.as_str(), u32::try_from(i).unwrap_or(u32::MAX)))
                    .collect()
            })
            .collect();
        let builtins = u32::try_from(files.len()).unwrap_or(u32::MAX);
        let mut program = Program {
            files: all,
            names,
            modules,
            exports: Vec::new(),
            builtins,
        };
        program.exports = exports::tables(&program);
        program
    }

    /// What import `import` of `file` resolved to.
    pub(crate) fn module(&self, file: FileId, import: usize) -> &ModuleTarget {
        self.modules
            .get(file as usize)
            .and_then(|targets| targets.get(import))
            .unwrap_or(&ModuleTarget::Unresolved)
    }

    pub(crate) fn file(&self, file: FileId) -> &'a FileFacts {
        self.files[file as usize]
    }

    pub(crate) fn is_builtin(&self, file: FileId) -> bool {
        file == self.builtins
    }

    /// The id of `text` among `file`'s names.
    pub(crate) fn name_in(&self, file: FileId, text: &str) -> Option<Name> {
        self.names[file as usize].get(text).copied()
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

    pub(crate) fn export_table(&self, file: FileId) -> &HashMap<&'a str, ExportEntry> {
        &self.exports[file as usize]
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
