//! A project kept indexed by a long-lived process (an editor plugin, the MCP server, watch
//! mode): the index state stays in memory between updates, files an editor holds keep their
//! text and parse tree, and every update writes only what changed and says what that was.
//!
//! The store is passed to each update, not kept: a long-lived process takes the writer's lock
//! only while it writes, so other processes can write between its updates. The state notices
//! (by the store's generation) and catches up before it writes again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tsgraph_engine::{GraphDelta, Store};
use xxhash_rust::xxh3::xxh3_64;

use crate::decode::decode;
use crate::extract::ParsedFile;
use crate::state::{IndexState, Summarised};
use crate::summary::IndexError;
use crate::sync::{self, SyncSummary};
use crate::{IndexOptions, walk};

/// A position in a text as editors count: zero-based line, and zero-based column in UTF-16
/// code units (the Language Server Protocol's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// Zero-based line.
    pub line: u32,
    /// Zero-based column, in UTF-16 code units.
    pub character: u32,
}

/// What part of a file's text an edit replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRange {
    /// Byte offsets into the current text (UTF-8), end exclusive.
    Bytes {
        /// First byte replaced.
        start: usize,
        /// One past the last byte replaced.
        end: usize,
    },
    /// Editor positions, end exclusive.
    Lines {
        /// Where the replaced text starts.
        start: Position,
        /// Where it ends.
        end: Position,
    },
    /// The whole text.
    All,
}

/// One change to a file's text. A list of edits applies in order, each to the text the
/// previous one left (as an editor's change events do).
///
/// ```
/// use tsgraph_indexer::{Position, TextEdit};
///
/// let rename = TextEdit::lines(Position { line: 2, character: 9 }, Position { line: 2, character: 13 }, "load");
/// let append = TextEdit::bytes(120..120, "\nexport const limit = 10;\n");
/// let replace = TextEdit::whole("export {};\n");
/// # let _ = (rename, append, replace);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    /// The replaced range.
    pub range: TextRange,
    /// The new text.
    pub text: String,
}

impl TextEdit {
    /// Replaces the bytes in `range` of the current text.
    pub fn bytes(range: std::ops::Range<usize>, text: impl Into<String>) -> TextEdit {
        TextEdit {
            range: TextRange::Bytes {
                start: range.start,
                end: range.end,
            },
            text: text.into(),
        }
    }

    /// Replaces the text between two editor positions.
    pub fn lines(start: Position, end: Position, text: impl Into<String>) -> TextEdit {
        TextEdit {
            range: TextRange::Lines { start, end },
            text: text.into(),
        }
    }

    /// Replaces the whole text.
    pub fn whole(text: impl Into<String>) -> TextEdit {
        TextEdit {
            range: TextRange::All,
            text: text.into(),
        }
    }

    /// Applies the edit to `text`, or says why it does not fit (the text is then
    /// unchanged).
    pub fn apply_to(&self, text: &mut String) -> Result<(), String> {
        let (start, end) = match self.range {
            TextRange::All => (0, text.len()),
            TextRange::Bytes { start, end } => (start, end),
            TextRange::Lines { start, end } => (offset_of(text, start)?, offset_of(text, end)?),
        };
        if start > end || end > text.len() {
            return Err(format!(
                "the range {start}..{end} is not within the text's {} bytes",
                text.len()
            ));
        }
        if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return Err(format!("the range {start}..{end} cuts a character in two"));
        }
        text.replace_range(start..end, &self.text);
        Ok(())
    }
}

/// The byte offset of an editor position. A column past the end of its line is the line's
/// end, as the Language Server Protocol says; a line past the end of the text is an error.
fn offset_of(text: &str, at: Position) -> Result<usize, String> {
    let mut line_start = 0;
    for _ in 0..at.line {
        match text[line_start..].find('\n') {
            Some(newline) => line_start += newline + 1,
            None => {
                return Err(format!(
                    "line {} is past the end of the text ({} lines)",
                    at.line,
                    text.lines().count()
                ));
            }
        }
    }
    let line = &text[line_start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let mut units = 0u32;
    for (offset, ch) in line.char_indices() {
        if units >= at.character {
            return Ok(line_start + offset);
        }
        units += u32::try_from(ch.len_utf16()).unwrap_or(2);
    }
    Ok(line_start + line.len())
}

/// What one update of a live index did.
#[derive(Debug, Clone, Default)]
pub struct EditOutcome {
    /// Nodes and edges added, removed and changed.
    pub delta: GraphDelta,
    /// Files whose graph was rewritten (the edited one and those whose answers depend on
    /// it).
    pub relinked: Vec<String>,
    /// Wall time, from the edit to the commit.
    pub time: Duration,
}

/// A file an editor holds: its current text and the parse of it, reused by the next edit.
struct Buffer {
    text: String,
    parsed: Option<ParsedFile>,
}

/// A project's index kept in memory between updates.
///
/// ```no_run
/// use tsgraph_engine::Store;
/// use tsgraph_indexer::{IndexOptions, LiveIndex, Position, TextEdit};
///
/// let store = Store::open_or_create("app/.tsgraph/graph.redb")?;
/// let mut live = LiveIndex::new("app", IndexOptions::default());
/// live.sync(&store)?;
/// let at = Position { line: 3, character: 0 };
/// let outcome = live.edit(&store, "src/main.ts", &[TextEdit::lines(at, at, "helper();\n")])?;
/// for edge in &outcome.delta.edges_added {
///     println!("{} -{}-> {}", edge.source, edge.kind, edge.target);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LiveIndex {
    root: PathBuf,
    options: IndexOptions,
    state: Option<IndexState>,
    buffers: HashMap<String, Buffer>,
    /// An edit was committed since the store last kept this state's resolution.
    resolution_behind: bool,
    /// What the last sync found (the configuration files its walk found, the stored stamps
    /// it read), for a state read from the store right after it ([`LiveIndex::warm`]);
    /// taken by that read.
    found: sync::Findings,
}

impl LiveIndex {
    /// A live index of the project at `root`; nothing is read until the first update.
    pub fn new(root: impl Into<PathBuf>, options: IndexOptions) -> LiveIndex {
        LiveIndex {
            root: root.into(),
            options,
            state: None,
            buffers: HashMap::new(),
            resolution_behind: false,
            found: sync::Findings::default(),
        }
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Names a graph file built aside ([`Store::build_graph_file_aside`], on another thread
    /// or handle) under this writer: see [`Store::name_graph_file`]. The state stays level
    /// with the store across the naming commit, which changes no summary.
    pub fn name_graph_file(
        &mut self,
        store: &Store,
        built: tsgraph_engine::BuiltGraphFile,
    ) -> Result<bool, IndexError> {
        let before = store.generation()?;
        let named = store.name_graph_file(built)?;
        if named
            && let Some(state) = self.state.as_mut()
            && state.generation == Some(before)
        {
            state.generation = Some(store.generation()?);
        }
        Ok(named)
    }

    /// Writes the state's resolution into `store` (open for writing) when edits have left
    /// the kept one behind, so that a new process resumes from it rather than reading every
    /// summary ([`crate::sync_project`]); for a quiet moment or the end of a session, as it
    /// costs what encoding the project's export tables does (the commit may grow the store
    /// file, which the caller compacts as it does after edits). Returns whether it wrote: not
    /// when nothing is behind, nor when another process wrote since (the state is not level
    /// with the store; the next sync keeps a resolution again).
    pub fn keep_resolution(&mut self, store: &Store) -> Result<bool, IndexError> {
        let Some(state) = self.state.as_mut() else {
            return Ok(false);
        };
        if !self.resolution_behind || state.generation != Some(store.generation()?) {
            return Ok(false);
        }
        let (key, bytes) = crate::resume::resolution_meta(state);
        store.set_meta(&key, &bytes)?;
        // Metadata changes no summary: the state is level with the store still.
        state.generation = Some(store.generation()?);
        self.resolution_behind = false;
        Ok(true)
    }

    /// The options this index was made with.
    pub fn options(&self) -> &IndexOptions {
        &self.options
    }

    /// Brings `store` (open for writing) up to date with the files on disk, as
    /// [`crate::sync_project`] does, keeping the state for the next update. Files an editor
    /// holds keep the editor's text.
    pub fn sync(&mut self, store: &Store) -> Result<SyncSummary, IndexError> {
        let buffers = &self.buffers;
        let synced = sync::sync_store(
            &self.root,
            store,
            &self.options,
            (&mut self.state, &mut self.found),
            &|path| buffers.contains_key(path),
        )?;
        // A sync that wrote kept the resolution with it.
        if !synced.is_noop() {
            self.resolution_behind = false;
        }
        // Findings serve a state read next; one is held already.
        if self.state.is_some() {
            self.found = sync::Findings::default();
        }
        Ok(synced)
    }

    /// Whether edits have left the resolution the store keeps behind this state's (see
    /// [`LiveIndex::keep_resolution`]).
    pub fn resolution_behind(&self) -> bool {
        self.resolution_behind
    }

    /// Applies an editor's edits to the file at `path` (relative to the root, forward
    /// slashes) and updates the graph: the file is reparsed incrementally, its summary made
    /// again, the files whose answers can change re-linked, and all of it committed in one
    /// transaction. The first edit of a file starts from its text on disk (empty for a file
    /// not yet saved). From then on the editor's text is the file's truth, until
    /// [`LiveIndex::release`].
    pub fn edit(
        &mut self,
        store: &Store,
        path: &str,
        edits: &[TextEdit],
    ) -> Result<EditOutcome, IndexError> {
        let started = Instant::now();
        self.check_path(path)?;
        let mut text = match self.buffers.get(path) {
            Some(buffer) => buffer.text.clone(),
            None => self.disk_text(path),
        };
        for (index, edit) in edits.iter().enumerate() {
            edit.apply_to(&mut text)
                .map_err(|message| IndexError::Edit {
                    path: path.to_owned(),
                    message: format!("edit {} of {}: {message}", index + 1, edits.len()),
                })?;
        }
        self.update_text(store, path, text, started)
    }

    /// Sets the whole text of the file at `path` as an editor holds it (an opened or
    /// reloaded buffer), and updates the graph.
    pub fn set_text(
        &mut self,
        store: &Store,
        path: &str,
        text: impl Into<String>,
    ) -> Result<EditOutcome, IndexError> {
        let started = Instant::now();
        self.check_path(path)?;
        self.update_text(store, path, text.into(), started)
    }

    /// The editor let go of the file (closed it): the file's text on disk is its truth again.
    /// A file that is not on disk leaves the graph.
    pub fn release(&mut self, store: &Store, path: &str) -> Result<EditOutcome, IndexError> {
        let started = Instant::now();
        if self.buffers.remove(path).is_none() {
            return Ok(EditOutcome::default());
        }
        let summaries = self.read_from_disk(store, &[path])?;
        self.commit(store, summaries, started)
    }

    /// Source files changed on disk (a file watcher saw them written, created or removed):
    /// each is read again and the graph updated in one transaction. Files an editor holds
    /// keep the editor's text; files whose contents did not change cost a hash. A changed
    /// configuration file (`tsconfig.json`, `package.json`, an ignore file) needs
    /// [`LiveIndex::sync`] instead.
    pub fn refresh<S: AsRef<str>>(
        &mut self,
        store: &Store,
        paths: &[S],
    ) -> Result<EditOutcome, IndexError> {
        let started = Instant::now();
        let mut wanted = Vec::new();
        for path in paths {
            let path = path.as_ref();
            self.check_path(path)?;
            if !self.buffers.contains_key(path) {
                wanted.push(path);
            }
        }
        if wanted.is_empty() {
            return Ok(EditOutcome::default());
        }
        let summaries = self.read_from_disk(store, &wanted)?;
        self.commit(store, summaries, started)
    }

    /// The summaries of `paths` as their files on disk now are: written when the contents
    /// differ from the state's, removed when the file is gone or no longer indexed (ignored,
    /// too large), nothing when unchanged.
    fn read_from_disk(
        &mut self,
        store: &Store,
        paths: &[&str],
    ) -> Result<Vec<Summarised>, IndexError> {
        let root = self.root.clone();
        let max_file_size = self.options.max_file_size;
        let state = self.state_for(store)?;
        let mut summaries = Vec::new();
        for &path in paths {
            let stored_hash = state.hash_of(path);
            let read = walk::walked_file(&root, path, max_file_size).and_then(|file| {
                std::fs::read(&file.absolute)
                    .ok()
                    .map(|bytes| (file, bytes))
            });
            match read {
                Some((file, bytes)) => {
                    let hash = xxh3_64(&bytes);
                    if stored_hash == Some(hash) {
                        continue;
                    }
                    let mut facts = crate::pool::extract_one(state.extractor(), path, &bytes, hash);
                    facts.modified = file.modified;
                    summaries.push(Summarised::Written(Box::new(facts)));
                }
                None if stored_hash.is_some() => {
                    summaries.push(Summarised::Removed(path.to_owned()))
                }
                None => {}
            }
        }
        Ok(summaries)
    }

    /// The files an editor holds, with their current text.
    pub fn held_files(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.buffers
            .iter()
            .map(|(path, buffer)| (path.as_str(), buffer.text.as_str()))
    }

    /// Whether `path` names a file the project could index: relative, inside the root, a
    /// source extension, and not in `node_modules`, `.tsgraph` or a hidden folder.
    fn check_path(&self, path: &str) -> Result<(), IndexError> {
        let refuse = |why: &str| {
            Err(IndexError::Edit {
                path: path.to_owned(),
                message: why.to_owned(),
            })
        };
        if path.is_empty() || path.starts_with('/') || path.contains('\\') {
            return refuse("not a path relative to the project root with forward slashes");
        }
        if path
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == ".." || part == "node_modules")
            || path.split('/').any(|part| part.starts_with('.'))
        {
            return refuse("not a file of the project (outside it, hidden, or in node_modules)");
        }
        if !walk::is_source_path(path) {
            return refuse("not a TypeScript or JavaScript source file");
        }
        Ok(())
    }

    /// The file's text on disk, decoded as indexing decodes it (empty when it is not there).
    fn disk_text(&self, path: &str) -> String {
        match std::fs::read(self.root.join(path)) {
            Ok(bytes) => String::from_utf8_lossy(&decode(path, &bytes).text).into_owned(),
            Err(_) => String::new(),
        }
    }

    fn update_text(
        &mut self,
        store: &Store,
        path: &str,
        text: String,
        started: Instant,
    ) -> Result<EditOutcome, IndexError> {
        let previous = self.buffers.remove(path).and_then(|buffer| buffer.parsed);
        let state = self.state_for(store)?;
        let hash = xxh3_64(text.as_bytes());
        let (facts, parsed) =
            state
                .extractor()
                .extract_edited(path, text.as_bytes(), hash, previous);
        let unchanged = state.hash_of(path) == Some(hash);
        self.buffers
            .insert(path.to_owned(), Buffer { text, parsed });
        if unchanged {
            return Ok(EditOutcome {
                time: started.elapsed(),
                ..EditOutcome::default()
            });
        }
        self.commit(store, vec![Summarised::Written(Box::new(facts))], started)
    }

    /// Re-links what new summaries touch and writes it all in one transaction.
    fn commit(
        &mut self,
        store: &Store,
        summaries: Vec<Summarised>,
        started: Instant,
    ) -> Result<EditOutcome, IndexError> {
        if summaries.is_empty() {
            return Ok(EditOutcome {
                time: started.elapsed(),
                ..EditOutcome::default()
            });
        }
        let root = self.root.clone();
        let state = self.state_for(store)?;
        let snapshot = store.snapshot()?;
        // Kept for a second try, should a resumed state fail to read a summary it needs.
        let again = state.is_resumed().then(|| summaries.clone());
        let update = state.reading_from(store, |state| state.apply_summaries(summaries, &snapshot));
        let update = match (update, again) {
            (Ok(update), _) => Ok(update),
            // The edit is applied again to the state read from every summary.
            (Err(_), Some(summaries)) => {
                sync::restore_stored(&self.root, &snapshot, false, sync::Findings::default())
                    .map(|whole| self.state.insert(whole))
                    .and_then(|whole| whole.apply_summaries(summaries, &snapshot))
            }
            (Err(err), None) => Err(err),
        };
        drop(snapshot);
        let (update, state) = match (update, self.state.as_mut()) {
            (Ok(update), Some(state)) => (update, state),
            (update, _) => {
                self.state = None;
                return Err(update
                    .err()
                    .unwrap_or_else(|| IndexError::Worker("the index state is gone".into())));
            }
        };
        let relinked = update.relinked.clone();
        let written = sync::write_update(store, state, update, &root, sync::Writer::Edit);
        self.resolution_behind = true;
        // A failed write leaves the store as it was but the state ahead of it: read it again
        // next time.
        let delta = match written {
            Ok(delta) => delta.unwrap_or_default(),
            Err(err) => {
                self.state = None;
                return Err(err);
            }
        };
        Ok(EditOutcome {
            delta,
            relinked,
            time: started.elapsed(),
        })
    }

    /// The state, level with the store: read from it the first time (indexing the project
    /// when the store holds no index), caught up when another process wrote since.
    fn state_for(&mut self, store: &Store) -> Result<&mut IndexState, IndexError> {
        if self.state.is_none() {
            self.sync(store)?;
        }
        let snapshot = store.snapshot()?;
        let generation = snapshot.generation()?;
        let state = match self.state.take() {
            // Nobody wrote since: the state is level, and the stamps need not be read.
            Some(state) if state.generation == Some(generation) => state,
            Some(mut state) => {
                let stored = sync::stored_stamps(&snapshot)?;
                let resumed = state.is_resumed();
                let root = &self.root;
                let caught = state.reading_from(store, |state| {
                    sync::catch_up(state, root, &snapshot, &stored)
                });
                match caught {
                    Ok(()) => state,
                    // A resumed state that could not read a summary it needed: read every one.
                    Err(_) if resumed => {
                        let found = sync::Findings::default();
                        sync::restore_stored(&self.root, &snapshot, false, found)?
                    }
                    Err(err) => return Err(err),
                }
            }
            None => {
                let found = std::mem::take(&mut self.found);
                sync::restore_stored(&self.root, &snapshot, true, found)?
            }
        };
        Ok(self.state.insert(state))
    }

    /// Reads the index state from `store` now rather than at the first update: resumed from
    /// the resolution the store keeps (the summaries are then read as updates ask for them),
    /// or, when it keeps none that matches, from every summary (on a million lines, about a
    /// second is spent here instead of in the first edit). `store` may be open read-only.
    /// Returns whether a state was read: not when one is kept already, nor when the store
    /// holds no index yet.
    ///
    /// [`LiveIndex::sync`] first: a state read from a store behind the disk is caught up at
    /// the next update, which then costs more.
    pub fn warm(&mut self, store: &Store) -> Result<bool, IndexError> {
        if self.state.is_some() {
            return Ok(false);
        }
        let snapshot = store.snapshot()?;
        if snapshot.meta(crate::INDEXED_META_KEY)?.is_none() {
            return Ok(false);
        }
        let found = std::mem::take(&mut self.found);
        self.state = Some(sync::restore_stored(&self.root, &snapshot, true, found)?);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::{Position, TextEdit, offset_of};

    #[test]
    fn editor_positions_count_utf16_units_and_clamp_to_the_line() {
        let text = "const é = '𝄞';\nnext\n";
        assert_eq!(
            offset_of(
                text,
                Position {
                    line: 0,
                    character: 6
                }
            ),
            Ok(6)
        );
        // 'é' is one unit but two bytes.
        assert_eq!(
            offset_of(
                text,
                Position {
                    line: 0,
                    character: 7
                }
            ),
            Ok(8)
        );
        // '𝄞' is two units and four bytes: the quote after it is unit 13, byte 16.
        assert_eq!(
            offset_of(
                text,
                Position {
                    line: 0,
                    character: 13
                }
            ),
            Ok(16)
        );
        assert_eq!(
            offset_of(
                text,
                Position {
                    line: 0,
                    character: 99
                }
            ),
            Ok(18)
        );
        assert_eq!(
            offset_of(
                text,
                Position {
                    line: 1,
                    character: 2
                }
            ),
            Ok(21)
        );
        assert!(
            offset_of(
                text,
                Position {
                    line: 3,
                    character: 0
                }
            )
            .is_err()
        );
    }

    #[test]
    fn edits_apply_in_order_and_bad_ranges_are_refused() {
        let mut text = "function a() {}\n".to_owned();
        let at = |character| Position { line: 0, character };
        TextEdit::lines(at(9), at(10), "load")
            .apply_to(&mut text)
            .unwrap();
        TextEdit::bytes(text.len()..text.len(), "load();\n")
            .apply_to(&mut text)
            .unwrap();
        assert_eq!(text, "function load() {}\nload();\n");
        assert!(TextEdit::bytes(5..999, "").apply_to(&mut text).is_err());
        let mut accented = "é".to_owned();
        assert!(TextEdit::bytes(1..2, "").apply_to(&mut accented).is_err());
        TextEdit::whole("x").apply_to(&mut accented).unwrap();
        assert_eq!(accented, "x");
    }
}
