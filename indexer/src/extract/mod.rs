//! Extraction: one tree-sitter parse per file, then one iterative walk that collects symbols,
//! imports and references. Broken code is not an error: ERROR nodes are walked like any other
//! node (keeping whatever parsed inside them) and their bytes are counted.

mod signature;
mod walker;

use tree_sitter::{Language, Parser, Tree};

use crate::facts::FileFacts;

/// A per-thread extraction context: one parser per grammar, reused for every file.
pub(crate) struct Extractor {
    typescript: Parser,
    tsx: Parser,
}

/// Which grammar parses a path.
fn uses_tsx_grammar(path: &str) -> bool {
    // JSX may appear in .tsx and in any JavaScript file; the TSX grammar is a superset.
    let ext = path.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
    matches!(ext, "tsx" | "jsx" | "js" | "mjs" | "cjs")
}

impl Extractor {
    pub(crate) fn new() -> Result<Extractor, tree_sitter::LanguageError> {
        let typescript = parser_for(tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into())?;
        let tsx = parser_for(tree_sitter_typescript::LANGUAGE_TSX.into())?;
        Ok(Extractor { typescript, tsx })
    }

    /// Parses only, keeping nothing: the benchmark's parse-only baseline. Returns whether
    /// tree-sitter produced a tree.
    pub(crate) fn parse_only(&mut self, path: &str, source: &[u8]) -> bool {
        let parser = if uses_tsx_grammar(path) {
            &mut self.tsx
        } else {
            &mut self.typescript
        };
        parser.parse(source, None).is_some()
    }

    /// Extracts the facts of one file. `path` is relative to the project root.
    pub(crate) fn extract(&mut self, path: &str, source: &[u8], hash: u64) -> FileFacts {
        let parser = if uses_tsx_grammar(path) {
            &mut self.tsx
        } else {
            &mut self.typescript
        };
        let mut facts = FileFacts {
            path: path.to_owned(),
            hash,
            bytes: source.len() as u64,
            lines: line_count(source),
            ..FileFacts::default()
        };
        match parser.parse(source, None) {
            Some(tree) => {
                walker::walk(&tree, source, &mut facts);
                facts.error_bytes = error_bytes(&tree);
            }
            // Only a cancellation or timeout makes tree-sitter return no tree; neither is set,
            // but if it happens the file still gets its File node and counts as all-error.
            None => {
                walker::file_only(&mut facts);
                facts.error_bytes = facts.bytes;
            }
        }
        facts
    }
}

/// Bytes inside ERROR nodes (nested ones counted once). Only subtrees that contain an error
/// are entered, so an error-free tree costs one check.
fn error_bytes(tree: &Tree) -> u64 {
    let mut total = 0;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() {
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

fn parser_for(language: Language) -> Result<Parser, tree_sitter::LanguageError> {
    let mut parser = Parser::new();
    parser.set_language(&language)?;
    Ok(parser)
}

fn line_count(source: &[u8]) -> u32 {
    let newlines = source.iter().filter(|&&b| b == b'\n').count();
    let last_line_open = !source.is_empty() && source.last() != Some(&b'\n');
    u32::try_from(newlines + usize::from(last_line_open)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests;
