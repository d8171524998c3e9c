//! The facade's error type, and its JSON form for `--format json`.

use std::path::PathBuf;

use serde_json::{Value, json};
use tsgraph_query::Candidate;

/// The exit code of a failed command (the CLI's; the Node addon's errors carry it as
/// `exitCode`).
pub const EXIT_ERROR: u8 = 1;
/// The exit code when the symbol, file or package asked for is ambiguous or unknown.
pub const EXIT_SYMBOL: u8 = 2;
/// The exit code of a usage error: an unknown command or option, a missing or invalid
/// argument (BSD's `EX_USAGE`).
pub const EXIT_USAGE: u8 = 64;

/// Why a tsgraph operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store could not be opened, read or written.
    #[error(transparent)]
    Store(#[from] tsgraph_engine::StoreError),
    /// Indexing failed.
    #[error(transparent)]
    Index(#[from] tsgraph_indexer::IndexError),
    /// A query failed.
    #[error(transparent)]
    Query(#[from] tsgraph_query::QueryError),
    /// A file or folder could not be used.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The default store folder (or file) is a symbolic link out of the project.
    #[error(
        "{} is a symbolic link to {}, outside the project; tsgraph keeps its store inside the \
         project unless --db names it (--db {})",
        link.display(),
        target.display(),
        store.display()
    )]
    StoreOutsideProject {
        /// The link.
        link: PathBuf,
        /// Where it leads.
        target: PathBuf,
        /// The store file it would lead to, for `--db`.
        store: PathBuf,
    },
    /// An export format that writes several files was asked for one stream.
    #[error("export --format {} writes several files: give a folder with --out", format.as_str())]
    ExportNeedsFolder {
        /// The format.
        format: crate::ExportFormat,
    },
    /// A query was asked of a project that was never indexed.
    #[error("{}: no index here yet; run `tsgraph index`", store.display())]
    NotIndexed {
        /// The store that was looked for.
        store: PathBuf,
    },
    /// No folder at or above the start has a project marker.
    #[error(
        "no project at or above {}: looked for tsconfig.json, package.json or .git (give the folder with --project)",
        start.display()
    )]
    NoProject {
        /// Where the search started.
        start: PathBuf,
    },
    /// The project folder holds no source file to index.
    #[error(
        "{}: no TypeScript or JavaScript sources (.ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs) outside ignored folders; nothing indexed",
        root.display()
    )]
    NoSources {
        /// The project root.
        root: PathBuf,
    },
    /// `impact --diff` could not read the change from git.
    #[error("git {args}: {message}")]
    Git {
        /// The git arguments (`diff HEAD`).
        args: String,
        /// What went wrong: git's own message, or that git could not be run.
        message: String,
    },
    /// A symbol argument matched no node.
    #[error("{}", not_found_text(.symbol, .file.as_deref(), .suggestions, .elsewhere))]
    SymbolNotFound {
        /// What was asked.
        symbol: String,
        /// The file it was narrowed to.
        file: Option<String>,
        /// The closest names (or IDs).
        suggestions: Vec<String>,
        /// Nodes of that name in other files than the one asked for.
        elsewhere: Vec<Candidate>,
    },
    /// A symbol argument matched several nodes.
    #[error("`{symbol}` matches {} symbols; give a node ID or --file:\n  {}", .candidates.len(), candidate_lines(.candidates))]
    AmbiguousSymbol {
        /// What was asked.
        symbol: String,
        /// The matching nodes.
        candidates: Vec<Candidate>,
    },
    /// A file argument matched no indexed file.
    #[error("no indexed file is or ends with `{file}`{}", list_text("closest paths", .suggestions))]
    FileNotFound {
        /// What was asked.
        file: String,
        /// The closest indexed paths.
        suggestions: Vec<String>,
    },
    /// `deps` named a package the project neither has nor imports.
    #[error("no package named `{package}`{}", list_text(if *.close { "closest" } else { "the project's packages" }, .suggestions))]
    PackageNotFound {
        /// What was asked.
        package: String,
        /// The closest package names, or every package of the project when none is close.
        suggestions: Vec<String>,
        /// Whether `suggestions` are close to the name.
        close: bool,
    },
    /// A file argument matched several indexed files.
    #[error("`{file}` matches {} files; give more of the path:\n  {}", .candidates.len(), .candidates.join("\n  "))]
    AmbiguousFile {
        /// What was asked.
        file: String,
        /// The matching paths.
        candidates: Vec<String>,
    },
}

fn list_text(what: &str, items: &[String]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!("; {what}: {}", items.join(", "))
    }
}

fn candidate_lines(candidates: &[Candidate]) -> String {
    candidates
        .iter()
        .map(|c| format!("{} ({}, {}:{})", c.id, c.kind, c.file, c.line))
        .collect::<Vec<_>>()
        .join("\n  ")
}

fn not_found_text(
    symbol: &str,
    file: Option<&str>,
    suggestions: &[String],
    elsewhere: &[Candidate],
) -> String {
    match file {
        Some(file) if !elsewhere.is_empty() => {
            let files: Vec<String> = elsewhere
                .iter()
                .map(|c| format!("{} ({}, line {})", c.file, c.kind, c.line))
                .collect();
            format!(
                "no symbol `{symbol}` in a file matching `{file}`; `{symbol}` is in: {}",
                files.join(", ")
            )
        }
        Some(file) => format!(
            "no symbol `{symbol}` in a file matching `{file}`{}",
            list_text("closest", suggestions)
        ),
        None => format!(
            "no symbol matches `{symbol}`{}",
            list_text("closest names", suggestions)
        ),
    }
}

fn candidate_json(c: &Candidate) -> Value {
    json!({"id": c.id, "kind": c.kind.as_str(), "file": c.file, "line": c.line})
}

impl Error {
    /// Whether the error is about the symbol, file or package asked for (the CLI exits with
    /// code 2).
    pub fn is_symbol_error(&self) -> bool {
        matches!(
            self,
            Error::SymbolNotFound { .. }
                | Error::AmbiguousSymbol { .. }
                | Error::FileNotFound { .. }
                | Error::AmbiguousFile { .. }
                | Error::PackageNotFound { .. }
        )
    }

    /// The exit code a front end gives the error: [`EXIT_SYMBOL`] for an unknown or
    /// ambiguous symbol, file or package, else [`EXIT_ERROR`].
    pub fn exit_code(&self) -> u8 {
        if self.is_symbol_error() {
            EXIT_SYMBOL
        } else {
            EXIT_ERROR
        }
    }

    /// The error as JSON: `{"error":{"code","message",…}}` with `code` one of `not_found`
    /// (`symbol`, `file`, `suggestions`, `elsewhere`), `ambiguous` (`symbol`,
    /// `candidates`: `{id, kind, file, line}`), `file_not_found` (`file`, `suggestions`),
    /// `ambiguous_file` (`file`, `candidates`), `package_not_found` (`package`,
    /// `suggestions`), `no_project`, `no_sources` or `error`.
    pub fn to_json(&self) -> Value {
        let message = self.to_string();
        let body = match self {
            Error::SymbolNotFound {
                symbol,
                file,
                suggestions,
                elsewhere,
            } => json!({
                "code": "not_found", "message": message, "symbol": symbol, "file": file,
                "suggestions": suggestions,
                "elsewhere": elsewhere.iter().map(candidate_json).collect::<Vec<_>>(),
            }),
            Error::AmbiguousSymbol { symbol, candidates } => json!({
                "code": "ambiguous", "message": message, "symbol": symbol,
                "candidates": candidates.iter().map(candidate_json).collect::<Vec<_>>(),
            }),
            Error::FileNotFound { file, suggestions } => json!({
                "code": "file_not_found", "message": message, "file": file,
                "suggestions": suggestions,
            }),
            Error::AmbiguousFile { file, candidates } => json!({
                "code": "ambiguous_file", "message": message, "file": file,
                "candidates": candidates,
            }),
            Error::PackageNotFound {
                package,
                suggestions,
                ..
            } => json!({
                "code": "package_not_found", "message": message, "package": package,
                "suggestions": suggestions,
            }),
            Error::NoProject { .. } => json!({"code": "no_project", "message": message}),
            Error::NoSources { .. } => json!({"code": "no_sources", "message": message}),
            _ => json!({"code": "error", "message": message}),
        };
        json!({ "error": body })
    }
}
