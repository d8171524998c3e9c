//! Extraction: one tree-sitter parse per file, then one walk that lowers the tree into the
//! file's semantic summary ([`FileFacts`]). Broken code is not an error: ERROR nodes are
//! walked like any other node (keeping whatever parsed inside them) and their bytes counted.

mod doc;
mod expr;
mod lower;
mod members;
mod module;
pub(crate) mod prepass;
mod signature;
mod types;

use tree_sitter::{Parser, Tree};

use crate::facts::{Decl, DeclKind, FileFacts, MODULE_SCOPE, Scope, ScopeKind};
use crate::syntax::Grammar;

/// A per-thread extraction context: one parser per grammar, reused for every file.
pub(crate) struct Extractor {
    typescript: (Parser, Grammar),
    tsx: (Parser, Grammar),
}

/// Which grammar parses a path.
fn uses_tsx_grammar(path: &str) -> bool {
    // JSX may appear in .tsx and in any JavaScript file; the TSX grammar is a superset.
    let ext = path.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
    matches!(ext, "tsx" | "jsx" | "js" | "mjs" | "cjs")
}

fn grammar(
    language: tree_sitter::Language,
) -> Result<(Parser, Grammar), tree_sitter::LanguageError> {
    let mut parser = Parser::new();
    parser.set_language(&language)?;
    Ok((parser, Grammar::new(language)))
}

impl Extractor {
    pub(crate) fn new() -> Result<Extractor, tree_sitter::LanguageError> {
        Ok(Extractor {
            typescript: grammar(tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into())?,
            tsx: grammar(tree_sitter_typescript::LANGUAGE_TSX.into())?,
        })
    }

    fn for_path(&mut self, path: &str) -> &mut (Parser, Grammar) {
        if uses_tsx_grammar(path) {
            &mut self.tsx
        } else {
            &mut self.typescript
        }
    }

    /// Parses only, keeping nothing: the benchmark's parse-only baseline. Returns whether
    /// tree-sitter produced a tree.
    pub(crate) fn parse_only(&mut self, path: &str, source: &[u8]) -> bool {
        self.for_path(path).0.parse(source, None).is_some()
    }

    /// Extracts the summary of one file. `path` is relative to the project root.
    pub(crate) fn extract(&mut self, path: &str, source: &[u8], hash: u64) -> FileFacts {
        let repaired = prepass::repair(source);
        let text: &[u8] = repaired.as_deref().unwrap_or(source);
        let tree = self.for_path(path).0.parse(text, None);
        self.lower(path, source, hash, tree.as_ref())
    }

    /// Extracts the summary of a file an editor holds, reparsing incrementally: the tree of
    /// its previous text is told what changed and reused where the text did not change.
    /// Returns the summary and the parse to hand to the next call.
    pub(crate) fn extract_edited(
        &mut self,
        path: &str,
        source: &[u8],
        hash: u64,
        previous: Option<ParsedFile>,
    ) -> (FileFacts, Option<ParsedFile>) {
        let text = prepass::repair(source).unwrap_or_else(|| source.to_vec());
        let old_tree = previous.map(|mut previous| {
            previous.tree.edit(&edit_between(&previous.text, &text));
            previous.tree
        });
        let reused = old_tree.is_some();
        let mut tree = self.for_path(path).0.parse(&text, old_tree.as_ref());
        // Tree-sitter's error recovery can settle differently when it resumes from an old
        // tree; a file with syntax errors is parsed afresh, so it summarises exactly as a full
        // index would read it. Error-free trees from an incremental parse equal fresh ones.
        if reused
            && tree
                .as_ref()
                .is_none_or(|tree| tree.root_node().has_error())
        {
            tree = self.for_path(path).0.parse(&text, None);
        }
        let facts = self.lower(path, source, hash, tree.as_ref());
        (facts, tree.map(|tree| ParsedFile { text, tree }))
    }

    /// Lowers a parse of `source` (of its repaired text, which has the same byte positions)
    /// into the file's summary.
    fn lower(&mut self, path: &str, source: &[u8], hash: u64, tree: Option<&Tree>) -> FileFacts {
        let (_, grammar) = self.for_path(path);
        let mut facts = file_facts(path, source, hash);
        match tree {
            Some(tree) => {
                facts.error_bytes = error_bytes(tree);
                // Names are read from the original text.
                let mut lower = lower::Lower::new(grammar, source, facts);
                lower.program(tree.root_node());
                facts = lower.finish();
            }
            // Only a cancellation or timeout makes tree-sitter return no tree; neither is set,
            // but if it happens the file still gets its File node and counts as all-error.
            None => facts.error_bytes = facts.bytes,
        }
        facts
    }
}

/// A file's last parse, kept while an editor holds the file: the text tree-sitter parsed
/// (after the pre-pass) and its tree.
pub(crate) struct ParsedFile {
    text: Vec<u8>,
    tree: Tree,
}

/// The one edit that turns `old` into `new`: everything between their common prefix and
/// their common suffix was replaced. However many edits an editor made, this describes the
/// change exactly enough for tree-sitter, which re-reads the whole changed span.
fn edit_between(old: &[u8], new: &[u8]) -> tree_sitter::InputEdit {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let old_end = old.len() - suffix;
    let new_end = new.len() - suffix;
    tree_sitter::InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point_at(old, prefix),
        old_end_position: point_at(old, old_end),
        new_end_position: point_at(new, new_end),
    }
}

/// The row and byte column of a byte offset.
fn point_at(text: &[u8], offset: usize) -> tree_sitter::Point {
    let before = &text[..offset];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    tree_sitter::Point {
        row,
        column: offset - line_start,
    }
}

/// The ERROR regions of a source as the extractor parses it (after the pre-pass repairs):
/// `(line, column, bytes)` of each outermost ERROR node, in source order.
pub fn syntax_errors(path: &str, source: &[u8]) -> Vec<(u32, u32, u64)> {
    let Ok(mut extractor) = Extractor::new() else {
        return Vec::new();
    };
    let repaired = prepass::repair(source);
    let text: &[u8] = repaired.as_deref().unwrap_or(source);
    let Some(tree) = extractor.for_path(path).0.parse(text, None) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            let at = node.start_position();
            out.push((
                u32::try_from(at.row + 1).unwrap_or(u32::MAX),
                u32::try_from(at.column + 1).unwrap_or(u32::MAX),
                (node.end_byte() - node.start_byte()) as u64,
            ));
            continue;
        }
        if node.has_error() {
            let mut cursor = node.walk();
            let children: Vec<_> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out
}

/// The summary of a file before its contents are walked: its File declaration and module
/// scope.
fn file_facts(path: &str, source: &[u8], hash: u64) -> FileFacts {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let lines = line_count(source);
    let mut facts = FileFacts {
        path: path.to_owned(),
        hash,
        bytes: source.len() as u64,
        lines,
        ..FileFacts::default()
    };
    facts.names.push(file_name);
    facts.decls.push(Decl {
        node: Some(tsgraph_engine::NodeKind::File),
        start_line: 1,
        end_line: lines.max(1),
        ..Decl::new(DeclKind::File, 0, 0, MODULE_SCOPE)
    });
    facts.scopes.push(Scope {
        parent: MODULE_SCOPE,
        kind: ScopeKind::Module,
        owner: 0,
        bindings: thin_vec::ThinVec::new(),
    });
    facts
}

/// Bytes inside ERROR nodes (nested ones counted once). Only subtrees that contain an error
/// are entered, so an error-free tree costs one check.
fn error_bytes(tree: &Tree) -> u64 {
    let mut total = 0;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            total += (node.end_byte() - node.start_byte()) as u64;
            continue;
        }
        if !node.has_error() {
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    total
}

fn line_count(source: &[u8]) -> u32 {
    let newlines = source.iter().filter(|&&b| b == b'\n').count();
    let last_line_open = !source.is_empty() && source.last() != Some(&b'\n');
    u32::try_from(newlines + usize::from(last_line_open)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests;
