//! A project and its store: opening, indexing, resolving symbols and running queries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use parking_lot::Mutex;
use tsgraph_encoders::graph::{
    DotSink, GraphMlSink, JsonLinesSink, JsonSink, MermaidSink, Neo4jCsvSink, TextSink, ToonSink,
};
use tsgraph_engine::{NodeKey, Snapshot, Store};
use tsgraph_indexer::{IndexOptions, IndexSummary, SyncSummary, index_project, sync_project};
use tsgraph_query::{
    Budget, FileMatch, Query, QueryContext, ResultSink, Summary, SymbolMatch, resolve_file,
    resolve_symbol,
};

use crate::error::Error;
use crate::request::{ExportFormat, Format, Output, QueryRequest, SymbolArg};
use crate::snippets::ConfinedSource;
use tsgraph_encoders::graph::SnippetSource as _;

/// The folder, inside the project, that holds the store by default.
pub const STORE_DIR: &str = ".tsgraph";
/// The store's file name inside [`STORE_DIR`].
pub const STORE_FILE: &str = "graph.redb";

/// The project root for a command run in `start`: the nearest folder at or above it with a
/// `tsconfig.json`, a `package.json` or a `.git` (as cargo and git find theirs).
pub fn discover_root(start: &Path) -> Result<PathBuf, Error> {
    let start = start.canonicalize().map_err(|source| Error::Io {
        path: start.to_path_buf(),
        source,
    })?;
    start
        .ancestors()
        .find(|dir| {
            ["tsconfig.json", "package.json", ".git"]
                .iter()
                .any(|marker| dir.join(marker).exists())
        })
        .map(Path::to_path_buf)
        .ok_or(Error::NoProject { start })
}

/// A TypeScript project with its graph store.
pub struct Project {
    root: PathBuf,
    store: Store,
    /// Query scratch kept between answers (a server answers from several threads: one
    /// context each, at most [`KEPT_CONTEXTS`] kept).
    contexts: Mutex<Vec<QueryContext>>,
}

/// How many query contexts a project keeps for reuse.
const KEPT_CONTEXTS: usize = 4;

/// How long a writer waits for another process to finish writing the store before saying
/// who holds it.
pub const WRITER_WAIT: Duration = Duration::from_secs(30);

impl Project {
    fn new(root: PathBuf, store: Store) -> Project {
        Project {
            root,
            store,
            contexts: Mutex::new(Vec::new()),
        }
    }

    /// Opens the project at `root` for writing, with its store at `db` (default
    /// `root/.tsgraph/graph.redb`), creating an empty store when there is none. Another
    /// process writing the store is waited for up to [`WRITER_WAIT`].
    pub fn open(root: impl AsRef<Path>, db: Option<&Path>) -> Result<Project, Error> {
        let root = project_root(root.as_ref())?;
        let db = store_path(&root, db)?;
        create_store_dir(&db)?;
        let store = Store::open_waiting(&db, WRITER_WAIT)?;
        Ok(Project::new(root, store))
    }

    /// Opens the project's store read-only, for queries: nothing is written, so any number of
    /// processes (and a user who may not write the store) can query while one writes. Fails
    /// with [`Error::NotIndexed`] when the project was never indexed.
    pub fn open_read_only(root: impl AsRef<Path>, db: Option<&Path>) -> Result<Project, Error> {
        let root = project_root(root.as_ref())?;
        let db = store_path(&root, db)?;
        if !db.exists() {
            return Err(Error::NotIndexed { store: db });
        }
        let store = Store::open_read_only(&db)?;
        let project = Project::new(root, store);
        if !project.is_indexed()? {
            return Err(Error::NotIndexed {
                store: project.store.path().to_path_buf(),
            });
        }
        Ok(project)
    }

    /// Indexes the project from scratch into a new store built beside the old one, then puts
    /// it in place atomically: processes reading the old store keep their snapshot until they
    /// reopen, and a failed rebuild leaves the old store as it was (`--rebuild`). Another
    /// process writing the store is waited for up to [`WRITER_WAIT`], as [`Project::open`]
    /// does.
    pub fn rebuild(
        root: impl AsRef<Path>,
        db: Option<&Path>,
        options: &IndexOptions,
    ) -> Result<(Project, IndexSummary), Error> {
        let root = project_root(root.as_ref())?;
        let db = store_path(&root, db)?;
        create_store_dir(&db)?;
        let replacement = Store::create_replacement_waiting(&db, WRITER_WAIT)?;
        let summary = index_project(&root, &replacement, options)?;
        replacement.replace(&db)?;
        let store = Store::open_waiting(&db, WRITER_WAIT)?;
        Ok((Project::new(root, store), summary))
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Whether the store holds a completed index. A new store does not, nor does one whose
    /// first index failed part-way; queries through the CLI index such a project first.
    pub fn is_indexed(&self) -> Result<bool, Error> {
        Ok(tsgraph_indexer::is_indexed(&self.store)?)
    }

    /// Indexes the project, replacing the stored graph in one transaction.
    pub fn index(&self, options: &IndexOptions) -> Result<IndexSummary, Error> {
        Ok(index_project(&self.root, &self.store, options)?)
    }

    /// Brings the store up to date with the files on disk: only files whose size,
    /// modification time and then contents changed are extracted again, and only the files
    /// whose answers can change are re-linked. A store never indexed (or whose project
    /// configuration changed) is indexed from scratch.
    pub fn sync(&self, options: &IndexOptions) -> Result<SyncSummary, Error> {
        Ok(sync_project(&self.root, &self.store, options)?)
    }

    /// A read snapshot.
    pub fn snapshot(&self) -> Result<Snapshot, Error> {
        Ok(self.store.snapshot()?)
    }

    /// Resolves a symbol argument to exactly one node, or says why it cannot.
    pub fn resolve(&self, snapshot: &Snapshot, symbol: &SymbolArg) -> Result<NodeKey, Error> {
        match resolve_symbol(snapshot, &symbol.symbol, symbol.file.as_deref())? {
            SymbolMatch::Found(key) => Ok(key),
            SymbolMatch::Ambiguous(candidates) => Err(Error::AmbiguousSymbol {
                symbol: symbol.symbol.clone(),
                candidates,
            }),
            SymbolMatch::NotFound {
                suggestions,
                elsewhere,
            } => Err(Error::SymbolNotFound {
                symbol: symbol.symbol.clone(),
                file: symbol.file.clone(),
                suggestions,
                elsewhere,
            }),
        }
    }

    /// Resolves a file argument to exactly one indexed path, or says why it cannot.
    pub fn resolve_file(&self, snapshot: &Snapshot, file: &str) -> Result<String, Error> {
        match resolve_file(snapshot, file)? {
            FileMatch::Found(path) => Ok(path),
            FileMatch::Ambiguous(candidates) => Err(Error::AmbiguousFile {
                file: file.to_owned(),
                candidates,
            }),
            FileMatch::NotFound(suggestions) => Err(Error::FileNotFound {
                file: file.to_owned(),
                suggestions,
            }),
        }
    }

    /// `count` lines of the project file `file` (relative to the root) from line `first`
    /// (one-based), fewer at the end of the file. A path that resolves outside the project
    /// root, through `..` or a symbolic link, is refused (`PermissionDenied`), like the
    /// source lines of `--snippets`.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.ts"), "one\ntwo\nthree\n").unwrap();
    /// let project = tsgraph::Project::open(dir.path(), None).unwrap();
    /// assert_eq!(project.source_lines("a.ts", 2, 5).unwrap(), ["two", "three"]);
    /// assert!(project.source_lines("../outside.ts", 1, 1).is_err());
    /// ```
    pub fn source_lines(&self, file: &str, first: u32, count: u32) -> Result<Vec<String>, Error> {
        let source = ConfinedSource::new(&self.root)?;
        let mut lines = Vec::new();
        source
            .lines(file, first, count, &mut lines)
            .map_err(|source| Error::Io {
                path: self.root.clone(),
                source,
            })?;
        Ok(lines)
    }

    /// Answers `request`, writing the result in `format` into `out`.
    pub fn query(
        &self,
        request: &QueryRequest,
        format: Format,
        out: &mut dyn Write,
    ) -> Result<Summary, Error> {
        self.query_with(request, &Output::new(format), out)
    }

    /// Like [`Project::query`], written as `output` says: within its token budget (an
    /// answer that does not fit lists the results that do, nearest first, with the totals
    /// and the offset that continues it) and, with [`Format::Text`], with source lines per
    /// result (read from the project's files, never from outside the project root).
    ///
    /// ```no_run
    /// use tsgraph::{Format, Output, Project, QueryRequest, SymbolArg};
    /// use tsgraph::query::{Budget, TraversalOptions};
    ///
    /// let project = Project::open("my-app", None)?;
    /// let request = QueryRequest::Callers {
    ///     symbol: SymbolArg::new("formatDate"),
    ///     options: TraversalOptions::default(),
    /// };
    /// let output = Output::new(Format::Toon).with_budget(Budget::tokens(2_000));
    /// project.query_with(&request, &output, &mut std::io::stdout())?;
    /// # Ok::<(), tsgraph::Error>(())
    /// ```
    pub fn query_with(
        &self,
        request: &QueryRequest,
        output: &Output,
        out: &mut dyn Write,
    ) -> Result<Summary, Error> {
        let snapshot = self.snapshot()?;
        let budget = match request {
            // Search pages its matches through its own offset: the budget's would page them
            // twice.
            QueryRequest::Search { .. } | QueryRequest::Topic { .. } => Budget {
                offset: 0,
                ..output.budget
            },
            _ => output.budget,
        };
        match output.format {
            Format::Json => {
                let mut sink = JsonSink::new(out).with_budget(budget);
                self.query_into(&snapshot, request, &mut sink)
            }
            Format::Toon => {
                let mut sink = ToonSink::new(out).with_budget(budget);
                self.query_into(&snapshot, request, &mut sink)
            }
            Format::Mermaid => {
                let mut sink = MermaidSink::new(out).with_budget(budget);
                self.query_into(&snapshot, request, &mut sink)
            }
            Format::Text if output.snippets > 0 => {
                let source = ConfinedSource::new(&self.root)?;
                let mut sink = TextSink::new(out)
                    .with_snippets(output.snippets, &source)
                    .with_budget(budget);
                self.query_into(&snapshot, request, &mut sink)
            }
            Format::Text => {
                let mut sink = TextSink::new(out).with_budget(budget);
                self.query_into(&snapshot, request, &mut sink)
            }
        }
    }

    /// Answers `request` into any sink.
    pub fn query_into(
        &self,
        snapshot: &Snapshot,
        request: &QueryRequest,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, Error> {
        let context = self.contexts.lock().pop().unwrap_or_default();
        let answered = self.answer(&Query::with_context(snapshot, &context), request, sink);
        let mut kept = self.contexts.lock();
        if kept.len() < KEPT_CONTEXTS {
            kept.push(context);
        }
        answered
    }

    /// Answers `request` with `query`.
    fn answer(
        &self,
        query: &Query<'_>,
        request: &QueryRequest,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, Error> {
        let snapshot = query.snapshot();
        let summary = match request {
            QueryRequest::Callers { symbol, options } => {
                query.callers(self.resolve(snapshot, symbol)?, options, sink)?
            }
            QueryRequest::Callees { symbol, options } => {
                query.callees(self.resolve(snapshot, symbol)?, options, sink)?
            }
            QueryRequest::Impact { symbol, options } => {
                query.impact(self.resolve(snapshot, symbol)?, options, sink)?
            }
            QueryRequest::Path { from, to, options } => {
                let (from, to) = (self.resolve(snapshot, from)?, self.resolve(snapshot, to)?);
                // A class standing for one of its several methods: say which, as for any
                // name that means several symbols.
                query
                    .symbol_path(from, to, options, sink)
                    .map_err(|err| match err {
                        tsgraph_query::QueryError::MethodMeant { class, methods } => {
                            Error::AmbiguousSymbol {
                                symbol: class,
                                candidates: methods,
                            }
                        }
                        other => other.into(),
                    })?
            }
            QueryRequest::Neighbors { symbol, options } => {
                query.neighbors(self.resolve(snapshot, symbol)?, options, sink)?
            }
            QueryRequest::Search { pattern, options } => query.search(pattern, options, sink)?,
            QueryRequest::Topic { text, options } => query.topic(text, options, sink)?,
            QueryRequest::ChangeImpact { diff, options } => {
                let change = crate::diff::change(&self.root, snapshot, diff)?;
                query.change_impact(&change, options, sink)?
            }
            QueryRequest::FileSymbols { file } => {
                let path = self.resolve_file(snapshot, file)?;
                query.file_symbols(&path, sink)?
            }
            QueryRequest::Deps {
                package,
                direction,
                max_depth,
            } => deps(query, package, *direction, *max_depth, sink)?,
        };
        Ok(summary)
    }

    /// Writes every node and edge as JSON lines.
    pub fn export(&self, out: &mut dyn Write) -> Result<Summary, Error> {
        self.export_as(ExportFormat::JsonLines, out)
    }

    /// Writes every node and edge in a single-file format, streaming from one snapshot.
    /// [`ExportFormat::Neo4j`] needs two files: use [`Project::export_neo4j`].
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tsgraph::Error> {
    /// let project = tsgraph::Project::open(".", None)?;
    /// let mut file = std::io::BufWriter::new(std::fs::File::create("graph.graphml").expect("create"));
    /// project.export_as(tsgraph::ExportFormat::GraphMl, &mut file)?;
    /// # Ok(()) }
    /// ```
    pub fn export_as(&self, format: ExportFormat, out: &mut dyn Write) -> Result<Summary, Error> {
        let snapshot = self.snapshot()?;
        let query = Query::new(&snapshot);
        let summary = match format {
            ExportFormat::JsonLines => query.export(&mut JsonLinesSink::new(out))?,
            ExportFormat::GraphMl => query.export(&mut GraphMlSink::new(out))?,
            ExportFormat::Dot => query.export(&mut DotSink::new(out))?,
            ExportFormat::Neo4j => return Err(Error::ExportNeedsFolder { format }),
        };
        Ok(summary)
    }

    /// Writes the graph as the two CSV files of `neo4j-admin database import full`: nodes
    /// (`id:ID`, `:LABEL`, properties) into `nodes`, relationships (`:START_ID`, `:END_ID`,
    /// `:TYPE`, facts) into `relationships`.
    pub fn export_neo4j(
        &self,
        nodes: &mut dyn Write,
        relationships: &mut dyn Write,
    ) -> Result<Summary, Error> {
        let snapshot = self.snapshot()?;
        Ok(Query::new(&snapshot).export(&mut Neo4jCsvSink::new(nodes, relationships))?)
    }
}

/// Runs `deps`, turning an unknown package into the error the CLI exits 2 with.
fn deps(
    query: &Query<'_>,
    package: &str,
    direction: tsgraph_query::DepsDirection,
    max_depth: u32,
    sink: &mut dyn ResultSink,
) -> Result<Summary, Error> {
    let options = tsgraph_query::DepsOptions {
        direction,
        max_depth,
    };
    query
        .deps(package, &options, sink)
        .map_err(|err| match err {
            tsgraph_query::QueryError::UnknownPackage {
                package,
                suggestions,
                close,
            } => Error::PackageNotFound {
                package,
                suggestions,
                close,
            },
            other => other.into(),
        })
}

/// Checks that `root` is a folder.
pub(crate) fn project_root(root: &Path) -> Result<PathBuf, Error> {
    let metadata = std::fs::metadata(root).map_err(|source| Error::Io {
        path: root.to_path_buf(),
        source,
    })?;
    if !metadata.is_dir() {
        return Err(Error::Io {
            path: root.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
        });
    }
    Ok(root.to_path_buf())
}

/// Creates the folder the store file `db` goes in.
pub(crate) fn create_store_dir(db: &Path) -> Result<(), Error> {
    match db.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.to_path_buf(),
            source,
        }),
        None => Ok(()),
    }
}

/// The store file: `db` when given, else `root/.tsgraph/graph.redb` — which must not lead out of
/// the project through a symbolic link (`.tsgraph` or the file itself), since tsgraph writes
/// there. A store elsewhere is used only when `--db` names it.
pub(crate) fn store_path(root: &Path, db: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(db) = db {
        return Ok(db.to_path_buf());
    }
    let dir = root.join(STORE_DIR);
    let file = dir.join(STORE_FILE);
    let real_root = root.canonicalize().map_err(|source| Error::Io {
        path: root.to_path_buf(),
        source,
    })?;
    for path in [&dir, &file] {
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            continue;
        }
        // A dangling link would make tsgraph create the store wherever it points.
        let target = std::fs::read_link(path)
            .map(|target| path.parent().unwrap_or(root).join(target))
            .map_err(|source| Error::Io {
                path: path.clone(),
                source,
            })?;
        let real = target.canonicalize().unwrap_or(target);
        if !real.starts_with(&real_root) {
            let store = if *path == dir {
                real.join(STORE_FILE)
            } else {
                real.clone()
            };
            return Err(Error::StoreOutsideProject {
                link: path.clone(),
                target: real,
                store,
            });
        }
    }
    Ok(file)
}
