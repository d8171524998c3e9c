//! The documents the client holds open, and where every file's text comes from: an open
//! document's text is the client's (unsaved edits included), any other file is read from
//! the project on disk. Paths are the graph's: relative to the project root, forward slashes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{TextDocumentContentChangeEvent, Uri};
use tsgraph::TextEdit;

use super::text::{Encoding, offset};

/// An open document: its project path and the text the client holds.
struct Document {
    path: String,
    text: String,
}

/// The open documents, by URI, and the project they belong to.
pub(crate) struct Documents {
    root: PathBuf,
    open: HashMap<String, Document>,
}

impl Documents {
    pub(crate) fn new(root: &Path) -> Documents {
        Documents {
            root: root.to_path_buf(),
            open: HashMap::new(),
        }
    }

    /// The project path of the file `uri` names, when it is a source file inside the
    /// project.
    pub(crate) fn path_of(&self, uri: &Uri) -> Option<String> {
        let file = url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()?;
        let relative = file
            .strip_prefix(&self.root)
            .ok()
            .map(Path::to_path_buf)
            .or_else(|| {
                // The client may name the file through a symbolic link.
                let real = file.canonicalize().ok()?;
                real.strip_prefix(&self.root).ok().map(Path::to_path_buf)
            })?;
        let path = relative
            .components()
            .map(|part| part.as_os_str().to_str())
            .collect::<Option<Vec<_>>>()?
            .join("/");
        tsgraph::indexer::is_source_path(&path).then_some(path)
    }

    /// The URI of the project file `path`.
    pub(crate) fn uri_of(&self, path: &str) -> Result<Uri, String> {
        let file = self.root.join(path);
        let url = url::Url::from_file_path(&file)
            .map_err(|()| format!("{} is not an absolute path", file.display()))?;
        url.as_str()
            .parse()
            .map_err(|err| format!("{url}: not a URI: {err}"))
    }

    /// Follows `uri`, the project file `path`, as the client holds it.
    pub(crate) fn open(&mut self, uri: &Uri, path: &str, text: String) {
        let document = Document {
            path: path.to_owned(),
            text,
        };
        self.open.insert(uri.as_str().to_owned(), document);
    }

    /// The client changed `uri`: applies `changes` in order to the held text and returns the
    /// project path with the same changes as graph edits (`None`: not followed). A change
    /// that does not fit the held text is an error; the caller then lets the document go,
    /// so the changes are applied in place, without a copy to fall back on.
    pub(crate) fn change(
        &mut self,
        uri: &Uri,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: Encoding,
    ) -> Result<Option<(String, Vec<TextEdit>)>, String> {
        let Some(document) = self.open.get_mut(uri.as_str()) else {
            return Ok(None);
        };
        let text = &mut document.text;
        let mut edits = Vec::with_capacity(changes.len());
        for change in changes {
            let edit = match change.range {
                None => TextEdit::whole(change.text),
                Some(range) => {
                    let start = offset(text, range.start, encoding)?;
                    let end = offset(text, range.end, encoding)?;
                    TextEdit::bytes(start..end, change.text)
                }
            };
            edit.apply_to(text)?;
            edits.push(edit);
        }
        Ok(Some((document.path.clone(), edits)))
    }

    /// The client closed `uri`; returns its project path if it was followed.
    pub(crate) fn close(&mut self, uri: &Uri) -> Option<String> {
        self.open.remove(uri.as_str()).map(|document| document.path)
    }

    /// The text of the open document `uri`.
    pub(crate) fn text_of_uri(&self, uri: &Uri) -> Option<&str> {
        self.open.get(uri.as_str()).map(|d| d.text.as_str())
    }

    /// The text of project file `path`: the client's if it holds the file open, else the
    /// file's on disk (`None` when it cannot be read).
    pub(crate) fn text_of(&self, path: &str) -> Option<String> {
        if let Some(document) = self.open.values().find(|d| d.path == path) {
            return Some(document.text.clone());
        }
        std::fs::read_to_string(self.root.join(path)).ok()
    }
}
