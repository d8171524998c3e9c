//! A project kept indexed between updates: every file's summary, the project model, the
//! resolved imports and every file's node IDs, so an edit re-extracts one file and re-links
//! only the files whose answers can change.
//!
//! **What is re-linked.** A changed file always, and every file whose imports now resolve
//! differently (files came or went). When what a file shows other files changes (its
//! [interface hash](crate::interface)), the files that use a changed export are re-linked,
//! and those their importers pass the change on to ([`crate::reach`]). Calls through an
//! interface reach implementations in files that do not import them (dispatch edges), so the
//! caller of an update also names the files with edges into the nodes an update moved, and
//! into the interface members whose implementations the update adds or removes
//! ([`IndexState::apply`]'s [`StoredGraph`]).
//!
//! File ids are stable for the life of a state: a removed file keeps its slot, empty, so
//! nothing that indexes files by id has to move.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use tsgraph_engine::{EdgeKind, Generation, GraphBatch, NodeFlags, NodeKind};
use xxhash_rust::xxh3::xxh3_64;

use crate::extract::Extractor;
use crate::facts::{DeclId, DeclKind, ExportTarget, FileFacts};
use crate::facts_table::FactsTable;
use crate::graph::{self, FileNodes, NodeTable, Scope};
use crate::interface::{self, ExportChange, Interface};
use crate::model::{KEPT_MODEL_META_KEY, ProjectModel};
use crate::modules::{self, ImportStats};
use crate::options::{IndexProgress, ProgressHook};
use crate::reach::Reach;
use crate::relink::RelinkReason;
use crate::resolve::{
    DeclRef, ExportTables, FileId, Hierarchy, ModuleTarget, Program, ProgramTables, Resolver,
};
use crate::summary::{IndexError, IndexSummary};
use crate::walk_listing::LISTING_META_KEY;
use crate::{IndexOptions, persist, pool};

/// An interface hash no summary has (a hash of 0 is as unlikely as any other), standing for
/// "not known".
const UNKNOWN_SHAPE: u64 = 0;

/// A file's new content, or its removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    /// The file (relative to the root) now holds these bytes (added or changed).
    Write {
        /// Path relative to the project root, forward slashes.
        path: String,
        /// The file's bytes.
        bytes: Vec<u8>,
        /// Its modification time on disk (nanoseconds since the epoch), 0 for an edit not
        /// saved yet.
        modified: u64,
    },
    /// The file is gone.
    Remove {
        /// Path relative to the project root, forward slashes.
        path: String,
    },
}

/// What an update writes: the nodes and edges of every re-linked file (a `replace_files`
/// batch, with each file's persisted summary), and the files removed.
#[derive(Debug, Default)]
pub struct Update {
    /// Nodes and edges of the re-linked files.
    pub batch: GraphBatch,
    /// Files whose nodes are removed.
    pub removed: Vec<String>,
    /// Files extracted again (their contents changed).
    pub extracted: Vec<String>,
    /// Files re-linked (the extracted ones and their dependents).
    pub relinked: Vec<String>,
    /// Why each file of `relinked` was, in the same order.
    pub reasons: Vec<RelinkReason>,
}

/// A file's new summary, or its removal.
#[derive(Clone)]
pub(crate) enum Summarised {
    Written(Box<FileFacts>),
    Removed(String),
}

/// What taking summaries into the tables touched.
#[derive(Default)]
pub(crate) struct Touched {
    extracted: Vec<FileId>,
    /// Files new to the state (also in `extracted`).
    added: Vec<FileId>,
    removed: Vec<String>,
    /// Files whose interface changed, or that came or went.
    shape_changed: HashSet<FileId>,
    /// Node IDs of changed files before the change: edges into them from elsewhere may have
    /// to move.
    old_ids: Vec<String>,
    files_came_or_went: bool,
    /// Files whose imports resolve differently since files came or went.
    imports_changed: BTreeSet<FileId>,
    /// What changed in the exports of files whose interface changed (all of them for a file
    /// that came or went).
    export_changes: HashMap<FileId, ExportChange>,
    /// Every file that uses an export that changed, directly or through importers that pass
    /// it on, with how the change reached it.
    dependents: HashMap<FileId, Reach>,
    /// Extracted files whose classes and interfaces (exported or not) changed shape, or that
    /// are new: a class of theirs may now override an abstract member of a base class
    /// elsewhere, whose callers then dispatch to it.
    classes_changed: HashSet<FileId>,
}

/// Each file id by path. Filled from every stored file when a process resumes: the fast
/// hasher, as paths are the project's own.
pub(crate) type PathIds = rustc_hash::FxHashMap<String, FileId>;

/// A project's summaries and resolution tables, kept in memory.
pub struct IndexState {
    root: PathBuf,
    model: ProjectModel,
    builtins: FileFacts,
    /// Indexed by file id; a removed file is an empty summary with an empty path.
    files: FactsTable,
    by_path: PathIds,
    modules: Vec<Vec<ModuleTarget>>,
    /// Export tables and globals, kept current with `files` and `modules`.
    tables: ProgramTables,
    /// The class and interface hierarchy, kept current with `tables`.
    hierarchy: Hierarchy,
    /// Each file's nodes, assigned when first asked for (all of them by a full index).
    nodes: NodeTable,
    /// Each file's interface, computed from its summary when an update first asks for it: a
    /// full index that no update follows (the CLI's) never needs one, and hashing every
    /// file's took a fifth of the time between parsing and linking.
    interfaces: Vec<OnceLock<Interface>>,
    extractor: Extractor,
    /// The stamps of the configuration files the model was read from.
    config_stamp: Vec<u8>,
    /// The store state these tables match, when known: another process's write since makes
    /// them stale (see `sync::catch_up`).
    pub(crate) generation: Option<Generation>,
}

/// The fields of an [`IndexState`] that do not need the project model: a kept resolution
/// made ready to become a state ([`IndexState::prepare_resumed`]), or a whole index's.
pub(crate) struct Prepared {
    builtins: FileFacts,
    files: FactsTable,
    by_path: PathIds,
    modules: Vec<Vec<ModuleTarget>>,
    tables: ProgramTables,
    hierarchy: Hierarchy,
    nodes: NodeTable,
    interfaces: Vec<OnceLock<Interface>>,
    extractor: Extractor,
}

impl IndexState {
    /// Indexes the project from scratch into `store`: walks, extracts every file on the
    /// worker pool, then links and writes the graph part by part ([`crate::load`]), in one
    /// transaction that also commits the index's metadata. Returns the state and the
    /// summary.
    pub(crate) fn build_into(
        root: &Path,
        store: &tsgraph_engine::Store,
        options: &IndexOptions,
    ) -> Result<(IndexState, IndexSummary), IndexError> {
        let started = Instant::now();
        let (walked, listing) = crate::walk_listing::walk_whole(root, options.max_file_size);
        let mut warnings: Vec<String> = walked.errors;
        for (path, size) in &walked.too_large {
            warnings.push(format!(
                "{path}: skipped, {size} bytes is over the {} byte limit",
                options.max_file_size
            ));
        }
        let progress = options.progress.as_ref();
        let parsed = pool::extract_all(&walked.files, options.threads, progress)?;
        warnings.extend(parsed.warnings);
        let parse_time = started.elapsed();
        ProgressHook::tell(progress, IndexProgress::Linking);
        let paths: Vec<&str> = parsed.facts.iter().map(|f| f.path.as_str()).collect();
        let configs = walked.configs.iter().map(|c| c.relative.clone()).collect();
        let model = ProjectModel::load_walked(root, &paths, configs);
        let (mut state, import_stats) = IndexState::with_model(root, parsed.facts, model)?;
        // The load asks for every file's nodes: assigned on two threads first (`chunks.rs`).
        state.nodes = NodeTable::assigned(assign_all_nodes(&state.files));
        state.config_stamp = crate::sync::config_stamp(&walked.configs);
        warnings.extend(state.model.warnings().iter().map(|w| w.to_string()));
        let resolved = started.elapsed();
        ProgressHook::tell(progress, IndexProgress::Writing);
        let mut meta = crate::indexed_meta(root).to_vec();
        meta.push((
            crate::sync::MODEL_META_KEY.to_owned(),
            state.model.fingerprint().to_le_bytes().to_vec(),
        ));
        meta.push((
            crate::sync::CONFIGS_META_KEY.to_owned(),
            state.config_stamp.clone(),
        ));
        meta.push(crate::resume::resolution_meta(&mut state));
        let inputs = state.model.inputs_form().unwrap_or_default();
        meta.push((crate::model::MODEL_INPUTS_META_KEY.to_owned(), inputs));
        meta.extend(state.kept_model_meta());
        if let Some(listing) = listing {
            meta.push((LISTING_META_KEY.to_owned(), listing.encode()));
        }
        let loaded = state.load_into(store, &meta, crate::load::PART_FILES)?;
        let summary = state.summary(
            &loaded,
            import_stats,
            walked.too_large,
            warnings,
            (parse_time, resolved),
            started,
        );
        Ok((state, summary))
    }

    /// Replaces `store`'s graph with this state's, linked and written `part_files` files at
    /// a time ([`crate::load`]), committing `meta` with it.
    pub(crate) fn load_into(
        &self,
        store: &tsgraph_engine::Store,
        meta: &[(String, Vec<u8>)],
        part_files: usize,
    ) -> Result<crate::load::Loaded, IndexError> {
        let inputs = crate::load::LinkInputs {
            files: &self.files,
            builtins: &self.builtins,
            modules: &self.modules,
            tables: &self.tables,
            hierarchy: &self.hierarchy,
            nodes: self.nodes.view(&self.files),
            package_of: &|path| self.package_of(path),
        };
        crate::load::load(&inputs, store, meta, part_files)
    }

    /// A state from summaries and an already loaded project model.
    pub(crate) fn with_model(
        root: &Path,
        mut files: Vec<FileFacts>,
        model: ProjectModel,
    ) -> Result<(IndexState, ImportStats), IndexError> {
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut extractor = Extractor::new().map_err(|err| IndexError::Grammar(err.to_string()))?;
        let builtins = crate::resolve::builtin_facts(&mut extractor);
        let by_path: PathIds = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.clone(), FileId::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        let files = FactsTable::loaded(files);
        let (modules, import_stats) = modules::resolve_imports(&model, &files, &by_path);
        let tables = ProgramTables::build(&files, &builtins, &modules);
        let hierarchy = {
            let program = Program::new(&files, &builtins, &modules, &tables);
            Hierarchy::build(&Resolver::new(&program), files.len())
        };
        let parts = Prepared {
            nodes: NodeTable::unassigned(files.len()),
            interfaces: (0..files.len()).map(|_| OnceLock::new()).collect(),
            builtins,
            files,
            by_path,
            modules,
            tables,
            hierarchy,
            extractor,
        };
        Ok((IndexState::with_parts(root, model, parts), import_stats))
    }

    /// A state of `prepared` (its summaries, tables and resolution) under `model`. A state
    /// resumed from the resolution an earlier process kept ([`crate::resume`],
    /// [`IndexState::prepare_resumed`]) reads no summary until asked for, through the store
    /// an operation reads from ([`IndexState::reading_from`]).
    pub(crate) fn with_parts(root: &Path, model: ProjectModel, prepared: Prepared) -> IndexState {
        let Prepared {
            builtins,
            files,
            by_path,
            modules,
            tables,
            hierarchy,
            nodes,
            interfaces,
            extractor,
        } = prepared;
        IndexState {
            root: root.to_path_buf(),
            model,
            builtins,
            files,
            by_path,
            modules,
            tables,
            hierarchy,
            nodes,
            interfaces,
            extractor,
            config_stamp: Vec::new(),
            generation: None,
        }
    }

    /// A kept resolution made ready to become a state, everything but the project model:
    /// made on a thread of its own while the model loads ([`crate::sync::state_of_store`]).
    pub(crate) fn prepare_resumed(
        kept: crate::resume::Kept,
        exports: ExportTables,
    ) -> Result<Prepared, IndexError> {
        let extractor = Extractor::new().map_err(|err| IndexError::Grammar(err.to_string()))?;
        // Kept with the resolution, as the summaries are: extracting it again was a third
        // of resuming.
        let builtins = kept.builtins;
        let by_path = (kept.files.iter().enumerate())
            .filter(|(_, (path, _))| !path.is_empty())
            .map(|(i, (path, _))| (path.clone(), FileId::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        let count = kept.files.len();
        Ok(Prepared {
            tables: ProgramTables::with_exports(&builtins, exports),
            builtins,
            files: FactsTable::unread(kept.files, kept.reach),
            by_path,
            modules: kept.modules,
            hierarchy: Hierarchy::from_clauses(kept.clauses),
            nodes: NodeTable::unassigned(count),
            interfaces: (0..count).map(|_| OnceLock::new()).collect(),
            extractor,
        })
    }

    /// Runs `work` on the state with the summaries not read yet readable from a snapshot of
    /// `store` (of the store state this state is level with), let go of after it whatever
    /// the outcome: an open snapshot keeps the store's old pages from being reused, and the
    /// store from being compacted. Takes no snapshot when every summary is read.
    pub(crate) fn reading_from<T>(
        &mut self,
        store: &tsgraph_engine::Store,
        work: impl FnOnce(&mut IndexState) -> Result<T, IndexError>,
    ) -> Result<T, IndexError> {
        if self.files.has_unread() {
            let source = crate::resume::StoredSummaries::new(store.snapshot()?, &self.root);
            self.files.attach_source(Box::new(source));
        }
        let done = work(self);
        self.files.release_source();
        done
    }

    /// The failure of a summary read since the last call (see [`FactsTable::take_failure`]).
    pub(crate) fn take_failure(&self) -> Option<IndexError> {
        let files = self.files.take_failure();
        match self.tables.exports().take_failure() {
            true => files.or(Some(unreadable_exports())),
            false => files,
        }
    }

    /// Whether some summary is still to be read from the store: a resumed state's.
    pub(crate) fn is_resumed(&self) -> bool {
        self.files.has_unread()
    }

    /// How many summaries a resumed state has read from the store (none for a state made
    /// from summaries).
    pub(crate) fn summaries_read(&self) -> usize {
        self.files.reads()
    }

    /// How many files' import uses a resumed state has read from the store apart from their
    /// summaries (to decide which importers a change reaches).
    pub(crate) fn uses_read(&self) -> usize {
        self.files.uses_reads()
    }

    /// What [`crate::resume`] keeps of the state: the built-in library's summary, every file
    /// id's path and hash, resolved imports, export tables and heritage clauses.
    pub(crate) fn kept_resolution(&self) -> crate::resume::KeptRef<'_> {
        crate::resume::KeptRef {
            summaries: persist::SUMMARY_VERSION,
            model: self.model.fingerprint(),
            builtins: &self.builtins,
            files: self.files.stamps().collect(),
            modules: &self.modules,
            stars: self.tables.exports().stars(),
            clauses: self.hierarchy.clauses(),
        }
    }

    /// Every file's reach key, in file id order (see [`crate::reach_key`]).
    pub(crate) fn reach_keys(&self) -> impl ExactSizeIterator<Item = &crate::reach_key::ReachKey> {
        self.files.fill_reach_keys();
        (0..self.files.len()).map(|id| {
            self.files
                .reach_key(FileId::try_from(id).unwrap_or(FileId::MAX))
        })
    }

    /// The export tables encoded as a kept section ([`ExportTables::encode`]), which
    /// becomes their kept form: the next encoding copies what did not change since.
    pub(crate) fn keep_exports(&mut self) -> Vec<u8> {
        let section = self.tables.exports().encode();
        self.tables.exports_mut().adopt(&section);
        section
    }

    /// The nodes of file `id` (as its summary in `files` gives them).
    fn nodes_of(&self, id: FileId) -> &FileNodes {
        self.nodes.view(&self.files).of(id)
    }

    /// The IDs of the nodes of file `id` ([`FileNodes`] holds their symbol paths).
    fn node_ids(&self, id: FileId) -> Vec<String> {
        let path = self.files.path(id);
        (self.nodes_of(id).iter())
            .map(|(symbol, _)| crate::graph::node_id(path, symbol))
            .collect()
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Marks a file's interface as unknown, so the next change to it re-links its
    /// dependents (its summary was not the stored one).
    pub(crate) fn forget_shape(&mut self, path: &str) {
        if let Some(&id) = self.by_path.get(path) {
            let unknown = Interface {
                hash: UNKNOWN_SHAPE,
                ..self.interface(id).clone()
            };
            self.interfaces[id as usize] = OnceLock::from(unknown);
        }
    }

    /// File `id`'s interface, computed from its summary the first time it is asked for.
    fn interface(&self, id: FileId) -> &Interface {
        self.interfaces[id as usize].get_or_init(|| interface::interface_of(self.files.get(id)))
    }

    /// The project model the state resolves with.
    pub fn model(&self) -> &ProjectModel {
        &self.model
    }

    /// The metadata entry keeping the state's project model in the store, the first time a
    /// commit may carry it (see `model::cache`): `None` after that, and for a model that is
    /// not to be kept.
    pub(crate) fn kept_model_meta(&mut self) -> Option<(String, Vec<u8>)> {
        let bytes = self.model.kept_form()?;
        Some((KEPT_MODEL_META_KEY.to_owned(), bytes))
    }

    /// The content hash of every file the state holds, by path.
    pub fn file_hashes(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.files.stamps().filter(|(path, _)| !path.is_empty())
    }

    /// The whole graph as one batch.
    pub(crate) fn link_everything(&self) -> GraphBatch {
        self.link(Scope::All).batch
    }

    fn link(&self, scope: Scope<'_>) -> graph::Linked {
        let program = Program::new(&self.files, &self.builtins, &self.modules, &self.tables);
        let package_of = |path: &str| self.package_of(path);
        graph::link(
            &program,
            &self.hierarchy,
            self.nodes.view(&self.files),
            &package_of,
            scope,
        )
    }

    /// Links the files of `relink`, adding the files whose nodes the linking gives edges to
    /// (linking a class yields the IMPLEMENTS edges of the members it inherits, which leave
    /// nodes of the base class's file), until every edge of the batch leaves one of its files:
    /// the store keeps a node's edges in one list, which a batch rewrites whole.
    fn link_closed(
        &self,
        relink: &mut BTreeSet<FileId>,
        reasons: &mut HashMap<FileId, RelinkReason>,
    ) -> graph::Linked {
        loop {
            let ids: Vec<FileId> = relink.iter().copied().collect();
            let linked = self.link(Scope::Files(&ids));
            let before = relink.len();
            for edge in linked.batch.edges.iter() {
                // An edge from a file linked here finds it in `relink` already.
                if let Some(file) = self.file_of_node(&edge.source)
                    && relink.insert(file)
                {
                    reasons.insert(
                        file,
                        RelinkReason::EdgesFrom {
                            node: edge.source.clone(),
                        },
                    );
                }
            }
            if relink.len() == before {
                return linked;
            }
        }
    }

    /// The file a node ID belongs to (`path:symbol`, or a file node's bare path).
    fn file_of_node(&self, id: &str) -> Option<FileId> {
        let path = id.split_once(':').map_or(id, |(path, _)| path);
        self.by_path
            .get(path)
            .or_else(|| self.by_path.get(id))
            .copied()
    }

    /// The module folder and package name of the package `path` belongs to.
    fn package_of(&self, path: &str) -> (String, String) {
        let package = self.model.package_of(path);
        (package.module.to_owned(), package.name.to_owned())
    }

    /// Adds each written file's persisted summary to the batch (`only`: the files to attach,
    /// every file of the batch when `None`).
    fn attach_summaries(&self, batch: &mut GraphBatch, only: Option<&HashSet<FileId>>) {
        for entry in &batch.files {
            let Some(&id) = self.by_path.get(&entry.path) else {
                continue;
            };
            if only.is_some_and(|only| !only.contains(&id)) {
                continue;
            }
            batch
                .blobs
                .push((entry.path.clone(), persist::encode(self.files.get(id))));
        }
    }

    /// Applies file changes: extracts the changed files, re-resolves imports where files
    /// came or went, and re-links every file whose answers can change. `stored` answers what
    /// the store holds before the update.
    pub fn apply(
        &mut self,
        changes: Vec<FileChange>,
        stored: &dyn StoredGraph,
    ) -> Result<Update, IndexError> {
        let summaries = self.extract_changes(changes);
        self.apply_summaries(summaries, stored)
    }

    /// The summaries of written files (those whose contents differ from what the state
    /// holds) and the removals.
    fn extract_changes(&mut self, changes: Vec<FileChange>) -> Vec<Summarised> {
        let mut out = Vec::with_capacity(changes.len());
        for change in changes {
            match change {
                FileChange::Write {
                    path,
                    bytes,
                    modified,
                } => {
                    let hash = xxh3_64(&bytes);
                    if self.hash_of(&path) == Some(hash) {
                        continue;
                    }
                    let mut facts = pool::extract_one(&mut self.extractor, &path, &bytes, hash);
                    facts.modified = modified;
                    out.push(Summarised::Written(Box::new(facts)));
                }
                FileChange::Remove { path } => out.push(Summarised::Removed(path)),
            }
        }
        out
    }

    /// The content hash of the file at `path`, if the state holds it.
    pub(crate) fn hash_of(&self, path: &str) -> Option<u64> {
        self.by_path.get(path).map(|&id| self.files.hash(id))
    }

    /// The extractor, for summaries made outside [`IndexState::apply`].
    pub(crate) fn extractor(&mut self) -> &mut Extractor {
        &mut self.extractor
    }

    /// Applies summaries made elsewhere (an editor's text, the store's copy): updates the
    /// tables and re-links every file whose answers can change.
    pub(crate) fn apply_summaries(
        &mut self,
        summaries: Vec<Summarised>,
        stored: &dyn StoredGraph,
    ) -> Result<Update, IndexError> {
        let touched = self.absorb(summaries);
        let update = self.relink(touched, stored);
        // A summary that could not be read was linked as empty: nothing of this is written.
        match self.take_failure() {
            Some(err) => Err(err),
            None => Ok(update),
        }
    }

    /// Takes summaries into the tables (facts, node IDs, interfaces, imports) without
    /// linking: what a state does to catch up with a store another process wrote.
    pub(crate) fn absorb(&mut self, summaries: Vec<Summarised>) -> Touched {
        let mut touched = Touched::default();
        for summary in summaries {
            match summary {
                Summarised::Written(facts) => {
                    let facts = *facts;
                    let interface = interface::interface_of(&facts);
                    let nodes = graph::assign_nodes(&facts);
                    let id = match self.by_path.get(&facts.path).copied() {
                        Some(id) => {
                            // Computed from the old summary, before it is replaced.
                            let old_hash = self.interface(id).hash;
                            let classes_kept = old_hash != UNKNOWN_SHAPE
                                && interface::classes_hash(self.files.get(id))
                                    == interface::classes_hash(&facts);
                            if !classes_kept {
                                touched.classes_changed.insert(id);
                            }
                            if old_hash != interface.hash {
                                let change = if old_hash == UNKNOWN_SHAPE {
                                    ExportChange::All
                                } else {
                                    interface::export_change(self.files.get(id), &facts)
                                };
                                let moved = match change {
                                    ExportChange::All => self.node_ids(id),
                                    // Classes and interfaces that kept their shape: dispatch
                                    // to their members is as it was.
                                    ExportChange::Names(_) if classes_kept => {
                                        self.moved_nodes(id, &nodes, &change)
                                    }
                                    ExportChange::Names(_) => {
                                        self.moved_nodes(id, &nodes, &ExportChange::All)
                                    }
                                };
                                touched.export_changes.insert(id, change);
                                touched.shape_changed.insert(id);
                                touched.old_ids.extend(moved);
                            }
                            self.files.set(id, facts);
                            self.nodes.set(id, nodes);
                            self.interfaces[id as usize] = OnceLock::from(interface);
                            id
                        }
                        None => {
                            let id = FileId::try_from(self.files.len()).unwrap_or(u32::MAX);
                            self.by_path.insert(facts.path.clone(), id);
                            self.files.push(facts);
                            self.nodes.push(nodes);
                            self.interfaces.push(OnceLock::from(interface));
                            self.modules.push(Vec::new());
                            touched.added.push(id);
                            touched.classes_changed.insert(id);
                            touched.files_came_or_went = true;
                            touched.shape_changed.insert(id);
                            id
                        }
                    };
                    touched.extracted.push(id);
                }
                Summarised::Removed(path) => {
                    let Some(id) = self.by_path.remove(&path) else {
                        continue;
                    };
                    touched.old_ids.extend(self.node_ids(id));
                    self.files.set(id, FileFacts::default());
                    self.nodes.set(id, FileNodes::default());
                    self.interfaces[id as usize] = OnceLock::from(Interface::default());
                    self.modules[id as usize] = Vec::new();
                    touched.shape_changed.insert(id);
                    touched.files_came_or_went = true;
                    touched.removed.push(path);
                }
            }
        }
        // Imports: those of extracted files, and every file's when files came or went.
        if touched.files_came_or_went {
            let added: Vec<&str> = touched
                .added
                .iter()
                .map(|id| self.files.path(*id))
                // Written and removed in one batch: gone again.
                .filter(|path| !path.is_empty())
                .collect();
            let removed: Vec<&str> = touched.removed.iter().map(String::as_str).collect();
            self.model.update_files(&added, &removed);
            // From each file's specifiers: a resumed state reads no other summary for it.
            let modules = modules::resolve_all_specifiers(&self.model, &self.files, &self.by_path);
            for (id, (old, new)) in self.modules.iter().zip(&modules).enumerate() {
                if old != new {
                    touched
                        .imports_changed
                        .insert(FileId::try_from(id).unwrap_or(u32::MAX));
                }
            }
            self.modules = modules;
        } else if !touched.extracted.is_empty() {
            // The kept path index, not one built per update (7,800 paths at 1M lines).
            for &id in &touched.extracted {
                self.modules[id as usize] =
                    modules::resolve_file(&self.model, &self.by_path, self.files.get(id));
            }
        }
        // A file that came or went, or whose imports resolve elsewhere now, may export anything
        // differently (what it re-exports is another module's); and what others' edges reach
        // in a changed file whose imports moved may have moved with them.
        for id in &touched.shape_changed {
            touched
                .export_changes
                .entry(*id)
                .or_insert(ExportChange::All);
        }
        for id in &touched.imports_changed {
            let was = touched.export_changes.insert(*id, ExportChange::All);
            if matches!(was, Some(ExportChange::Names(_))) {
                touched.old_ids.extend(self.node_ids(*id));
            }
        }
        if !touched.export_changes.is_empty() {
            touched.dependents = crate::reach::dependents(
                &self.files,
                &self.modules,
                &|id| self.interface(id),
                &self.importers(),
                &touched.export_changes,
            );
        }
        self.update_tables(&touched);
        touched
    }

    /// Brings the export tables and the hierarchy up to date with what `touched` changed.
    fn update_tables(&mut self, touched: &Touched) {
        let mut changed: BTreeSet<FileId> = touched.extracted.iter().copied().collect();
        changed.extend(touched.shape_changed.iter().copied());
        changed.extend(touched.imports_changed.iter().copied());
        if changed.is_empty() {
            return;
        }
        let changed: Vec<FileId> = changed.into_iter().collect();
        self.tables.update(&self.files, &self.modules, &changed);
        // Heritage clauses resolve through names: those of every file whose names may now
        // resolve differently are resolved again.
        let mut relinked: BTreeSet<FileId> = changed.iter().copied().collect();
        relinked.extend(touched.dependents.keys().copied());
        let relinked: Vec<FileId> = relinked.into_iter().collect();
        let rewritten: Vec<FileId> = changed
            .iter()
            .copied()
            .filter(|id| touched.extracted.contains(id) || touched.shape_changed.contains(id))
            .collect();
        let program = Program::new(&self.files, &self.builtins, &self.modules, &self.tables);
        self.hierarchy.update(
            &Resolver::new(&program),
            self.files.len(),
            &relinked,
            &rewritten,
        );
    }

    /// Re-links what a change touched: the changed files, the files whose imports now
    /// resolve elsewhere, every importer of a file whose interface changed (and theirs, when
    /// they expose it),
    /// and the files with edges into nodes that moved or newly implement interface members.
    fn relink(&mut self, touched: Touched, stored: &dyn StoredGraph) -> Update {
        let Touched {
            extracted,
            removed,
            old_ids,
            imports_changed,
            dependents,
            classes_changed,
            ..
        } = touched;
        // Abstract members of the base classes of changed classes: their callers dispatch to
        // the overrides below them, which may have come.
        let abstract_members = self.abstract_members_above(&classes_changed);
        let mut reasons: HashMap<FileId, RelinkReason> = extracted
            .iter()
            .map(|id| (*id, RelinkReason::Changed))
            .collect();
        for id in imports_changed {
            reasons.entry(id).or_insert(RelinkReason::ImportsMoved);
        }
        for (id, reach) in dependents {
            reasons.entry(id).or_insert_with(|| RelinkReason::Uses {
                from: self.files.path(reach.from).to_owned(),
                rule: reach.rule,
                name: reach.name,
            });
        }
        // Files with edges into nodes that moved (dispatch edges to implementations come
        // from callers that need not import the implementation), and into abstract members
        // that may have gained overrides.
        let linked_into = [
            (
                old_ids,
                (|node| RelinkReason::EdgeIntoChanged { node }) as fn(String) -> _,
            ),
            (abstract_members, |member| {
                RelinkReason::ImplementationsChanged { member }
            }),
        ];
        for (ids, reason) in linked_into {
            if ids.is_empty() {
                continue;
            }
            for (path, node) in stored.files_linked_into(&ids) {
                if let Some(id) = self.by_path.get(&path) {
                    reasons.entry(*id).or_insert_with(|| reason(node));
                }
            }
        }
        let mut relink: BTreeSet<FileId> = reasons
            .keys()
            .copied()
            .filter(|id| !self.files.path(*id).is_empty())
            .collect();
        let mut linked = self.link_closed(&mut relink, &mut reasons);
        // Implementations of interface members added or removed: the members' callers gain or
        // lose dispatch edges. An implementation the store already held changes nothing for
        // them (edges into a surviving node keep pointing at it).
        let paths: Vec<String> = relink
            .iter()
            .map(|id| self.files.path(*id).to_owned())
            .collect();
        let changed = changed_implementations(&linked.batch, stored.member_implements(&paths));
        // An implementation that is gone may have been given by a subclass in another file
        // (a base class's member implementing an interface only through a subclass's
        // heritage): the files implementing or naming the interface itself come too, so that
        // subclass is linked with the base and gives the edge again if it still holds.
        let owners: Vec<String> = changed
            .removed
            .iter()
            .filter_map(|member| member.rsplit_once('.').map(|(owner, _)| owner.to_owned()))
            .collect();
        let targets: Vec<String> = changed
            .added
            .into_iter()
            .chain(changed.removed)
            .chain(owners)
            .collect();
        if !targets.is_empty() {
            let before = relink.len();
            for (path, member) in stored.files_linked_into(&targets) {
                if let Some(id) = self.by_path.get(&path).copied()
                    && relink.insert(id)
                {
                    reasons.insert(id, RelinkReason::ImplementationsChanged { member });
                }
            }
            if relink.len() > before {
                linked = self.link_closed(&mut relink, &mut reasons);
            }
        }
        let ids: Vec<FileId> = relink.iter().copied().collect();
        let mut batch = linked.batch;
        let extracted_set: HashSet<FileId> = extracted.iter().copied().collect();
        self.attach_summaries(&mut batch, Some(&extracted_set));
        Update {
            batch,
            removed,
            extracted: extracted
                .iter()
                .map(|id| self.files.path(*id).to_owned())
                .collect(),
            relinked: ids
                .iter()
                .map(|id| self.files.path(*id).to_owned())
                .collect(),
            reasons: ids
                .iter()
                .map(|id| reasons.remove(id).unwrap_or(RelinkReason::Changed))
                .collect(),
        }
    }

    /// For each file, the files that import it.
    fn importers(&self) -> HashMap<FileId, Vec<FileId>> {
        let mut out: HashMap<FileId, Vec<FileId>> = HashMap::new();
        for (importer, targets) in self.modules.iter().enumerate() {
            let importer = FileId::try_from(importer).unwrap_or(u32::MAX);
            for target in targets {
                if let ModuleTarget::File(target) = target {
                    let list = out.entry(*target).or_default();
                    if list.last() != Some(&importer) {
                        list.push(importer);
                    }
                }
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn summary(
        &self,
        loaded: &crate::load::Loaded,
        import_stats: ImportStats,
        skipped_too_large: Vec<(String, u64)>,
        warnings: Vec<String>,
        (parse_time, resolved): (std::time::Duration, std::time::Duration),
        started: Instant,
    ) -> IndexSummary {
        let facts = self.files.iter().filter(|f| !f.path.is_empty());
        let stats = &loaded.stats;
        let mut error_files: Vec<(String, u64, u64)> = facts
            .clone()
            .filter(|f| f.error_bytes > 0)
            .map(|f| (f.path.clone(), f.error_bytes, f.bytes))
            .collect();
        error_files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        IndexSummary {
            files: facts.clone().count(),
            lines: facts.clone().map(|f| u64::from(f.lines)).sum(),
            bytes: facts.clone().map(|f| f.bytes).sum(),
            error_bytes: facts.map(|f| f.error_bytes).sum(),
            error_files,
            imports_by_outcome: import_stats.by_outcome.into_iter().collect(),
            unresolved_imports: import_stats.unresolved,
            nodes: loaded.nodes,
            edges: loaded.edges_by_kind.iter().sum(),
            edges_by_kind: EdgeKind::ALL
                .iter()
                .map(|kind| (*kind, loaded.edges_by_kind[usize::from(kind.as_u8())]))
                .collect(),
            resolved_calls: stats.resolved_calls,
            unresolved_calls: stats.unresolved_calls,
            unresolved_by_reason: stats
                .unresolved_by_reason
                .iter()
                .map(|(reason, count)| ((*reason).to_owned(), *count))
                .collect(),
            skipped_too_large,
            warnings,
            parse_time,
            // Linking overlaps writing: each is its own thread's busy time, and the
            // resolution before them counts with linking.
            link_time: resolved.saturating_sub(parse_time) + loaded.link_time,
            write_time: loaded.write_time,
            total_time: started.elapsed(),
        }
    }
}

impl IndexState {
    /// The IDs of file `id`'s nodes that edges from other files may no longer reach as they
    /// did, now that its nodes are `new` and its exports changed as `change` says: those that
    /// are gone, and every class, interface and member (calls dispatch to them from files
    /// that do not import them) but those of a declaration exported only under names whose
    /// export did not change (its members and heritage are what they were). A function or
    /// variable that stays is reached through its name, and the files whose names changed
    /// meaning are re-linked anyway.
    fn moved_nodes(&self, id: FileId, new: &FileNodes, change: &ExportChange) -> Vec<String> {
        let facts = self.files.get(id);
        // Both the old and the new nodes are the file's: their symbol paths compare.
        let staying: HashSet<&str> = new.iter().map(|(symbol, _)| symbol).collect();
        let unchanged = unchanged_exported_locals(facts, change);
        self.nodes_of(id)
            .iter()
            .filter(|(symbol, decls)| {
                let kind = decls.first().and_then(|d| facts.decl(*d).node);
                let top = symbol.split('.').next().unwrap_or(symbol);
                !staying.contains(symbol)
                    || (matches!(
                        kind,
                        Some(
                            NodeKind::Class
                                | NodeKind::Interface
                                | NodeKind::Method
                                | NodeKind::Property
                        )
                    ) && !unchanged.contains(top))
            })
            .map(|(symbol, _)| crate::graph::node_id(&facts.path, symbol))
            .collect()
    }
}

impl IndexState {
    /// The node IDs of the abstract methods of every base class, transitively, of the classes
    /// declared in `files`.
    fn abstract_members_above(&self, files: &HashSet<FileId>) -> Vec<String> {
        let mut bases: BTreeSet<DeclRef> = BTreeSet::new();
        for &file in files {
            let facts = self.files.get(file);
            for (index, decl) in facts.decls.iter().enumerate() {
                if decl.kind != DeclKind::Class {
                    continue;
                }
                let mut class = DeclRef::new(file, DeclId::try_from(index).unwrap_or(DeclId::MAX));
                // Bounded: a cycle of bases is an error in the source, not a reason to loop.
                for _ in 0..64 {
                    let Some(base) = self.hierarchy.base(class) else {
                        break;
                    };
                    if !bases.insert(base) {
                        break;
                    }
                    class = base;
                }
            }
        }
        let mut members = Vec::new();
        for base in bases {
            let facts = self.files.get(base.file);
            let nodes = self.nodes_of(base.file);
            for (index, decl) in facts.decls.iter().enumerate() {
                let id = DeclId::try_from(index).unwrap_or(DeclId::MAX);
                if decl.path_parent == base.decl
                    && decl.kind == DeclKind::Method
                    && decl.node_flags & NodeFlags::ABSTRACT != 0
                    && let Some(node) = nodes.node_of(id)
                {
                    members.push(crate::graph::node_id(&facts.path, nodes.symbol(node)));
                }
            }
        }
        members
    }
}

/// The module-level names of `facts` that it exports, every one of their exports untouched
/// by `change`.
fn unchanged_exported_locals<'f>(facts: &'f FileFacts, change: &ExportChange) -> HashSet<&'f str> {
    let mut exported: HashSet<&str> = HashSet::new();
    let mut changed: HashSet<&str> = HashSet::new();
    for export in &facts.exports {
        let local = match export.target {
            ExportTarget::Local(name) => facts.name(name),
            ExportTarget::Decl(decl) => facts.name(facts.decl(decl).name),
            ExportTarget::Expr(_) => continue,
        };
        exported.insert(local);
        if change.get(facts.name(export.exported)).is_some() {
            changed.insert(local);
        }
    }
    exported.retain(|local| !changed.contains(local));
    exported
}

/// What an update asks of the graph the store holds before it.
pub trait StoredGraph {
    /// The files (by path) holding an edge into any node with one of `ids`.
    /// Each with one node of `ids` it has an edge into.
    fn files_linked_into(&self, ids: &[String]) -> Vec<(String, String)>;
    /// The member IMPLEMENTS edges (implementing member ID, interface member ID) leaving the
    /// nodes of the files at `paths`.
    fn member_implements(&self, paths: &[String]) -> Vec<(String, String)>;
}

/// The interface members whose implementations an update adds or removes.
#[derive(Debug, Default)]
struct ChangedImplementations {
    /// Targets of member IMPLEMENTS edges the re-linked files' new batch has and the store
    /// (the same files' edges) lacks.
    added: Vec<String>,
    /// Targets of those the store has and the batch lacks.
    removed: Vec<String>,
}

/// Compares the member IMPLEMENTS edges of the re-linked files' new batch (every one leaves
/// those files' nodes) with `before`, the same files' edges in the store.
fn changed_implementations(
    batch: &GraphBatch,
    before: Vec<(String, String)>,
) -> ChangedImplementations {
    let before: HashSet<(String, String)> = before.into_iter().collect();
    let after: HashSet<(&str, &str)> = batch
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Implements && e.target.contains('.'))
        .map(|e| (e.source.as_str(), e.target.as_str()))
        .collect();
    let sorted = |mut targets: Vec<String>| {
        targets.sort();
        targets.dedup();
        targets
    };
    ChangedImplementations {
        added: sorted(
            after
                .iter()
                .filter(|&&(source, target)| {
                    !before.contains(&(source.to_owned(), target.to_owned()))
                })
                .map(|&(_, target)| target.to_owned())
                .collect(),
        ),
        removed: sorted(
            before
                .iter()
                .filter(|(source, target)| !after.contains(&(source.as_str(), target.as_str())))
                .map(|(_, target)| target.clone())
                .collect(),
        ),
    }
}

/// Every file's node IDs: each depends on its file alone ([`crate::chunks`]).
fn assign_all_nodes(files: &FactsTable) -> Vec<FileNodes> {
    let files: Vec<&FileFacts> = files.iter().collect();
    crate::chunks::map_on_two_threads(&files, 32, || (), |_, facts| graph::assign_nodes(facts))
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The failure of a kept export table that could not be decoded (its section passed the
/// checksum, so this is a bug, not damage): the update is made again from every summary.
fn unreadable_exports() -> IndexError {
    IndexError::Worker("a kept export table could not be decoded".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The state of `files` held in memory (no file system, no store).
    fn state_of(files: &[(&str, &str)]) -> IndexState {
        let mut extractor = Extractor::new().expect("grammar");
        let facts = (files.iter())
            .map(|(path, text)| crate::pool::extract_one(&mut extractor, path, text.as_bytes(), 1))
            .collect();
        let paths: Vec<&str> = files.iter().map(|(path, _)| *path).collect();
        let model = ProjectModel::from_sources(&Default::default(), &paths);
        IndexState::with_model(Path::new("/nonexistent/tsgraph-test"), facts, model)
            .expect("state")
            .0
    }

    #[test]
    fn the_nodes_an_update_moves_are_named_by_their_whole_ids() {
        let state = state_of(&[(
            "src/a.ts",
            "export class Sq { area(): number { return 1; } }\n",
        )]);
        let id = state.by_path["src/a.ts"];
        assert_eq!(
            state.node_ids(id),
            ["src/a.ts", "src/a.ts:Sq", "src/a.ts:Sq.area"]
        );
        // With no nodes left, every node moved.
        let moved = state.moved_nodes(id, &FileNodes::default(), &ExportChange::All);
        assert_eq!(moved, ["src/a.ts", "src/a.ts:Sq", "src/a.ts:Sq.area"]);
        // The same nodes, under exports that changed whole: the class and its members moved
        // (calls dispatch to them from files that do not import them).
        let same = crate::graph::assign_nodes(state.files.get(id));
        let moved = state.moved_nodes(id, &same, &ExportChange::All);
        assert_eq!(moved, ["src/a.ts:Sq", "src/a.ts:Sq.area"]);
        // Under exports none of whose names changed, the class stays, members and all.
        let unchanged = ExportChange::Names(Default::default());
        assert!(state.moved_nodes(id, &same, &unchanged).is_empty());
    }
}
