//! The leading doc comment of a declaration, for topic search: the comment right above it
//! (or above the `export`, `const` or `let` statement that holds it), with its markers
//! (`/**`, `*/`, `*`, `//`) stripped and its whitespace folded — its first sentence, at most
//! [`DOC_CHARS`] bytes: what the declaration is about, not its every tag (each word kept
//! costs a posting in the search index).

use tree_sitter::Node;

use crate::syntax::K;

/// How much of a doc comment's first sentence is kept, in bytes.
pub(super) const DOC_CHARS: usize = 160;

/// Wrappers a declaration's comment may sit above instead of the declaration itself.
const WRAPPERS: [K; 5] = [
    K::ExportStatement,
    K::AmbientDeclaration,
    K::LexicalDeclaration,
    K::VariableDeclaration,
    K::VariableDeclarator,
];

/// The doc comment right above `node`, cleaned; empty when there is none. `kind` is the
/// grammar's kind of a node (`Lower::k`).
pub(super) fn leading_doc(node: Node<'_>, source: &[u8], kind: impl Fn(Node<'_>) -> K) -> String {
    let mut anchor = node;
    while let Some(parent) = anchor.parent() {
        if !WRAPPERS.contains(&kind(parent)) {
            break;
        }
        anchor = parent;
    }
    // The comment right above, past the decorators of a class member (`@Get()`): a block
    // comment alone, or a run of line comments; one that shares its line with code before
    // it (`a = 1; // note`) belongs to that code.
    let mut below = anchor;
    let mut above = anchor.prev_sibling();
    while let Some(node) = above.filter(|n| kind(*n) == K::Decorator) {
        below = node;
        above = node.prev_sibling();
    }
    let mut comments = Vec::new();
    while let Some(comment) = above {
        let adjacent = comment.end_position().row + 1 >= below.start_position().row;
        if kind(comment) != K::Comment || !adjacent || !starts_its_line(comment, source) {
            break;
        }
        let block = source[comment.byte_range()].starts_with(b"/*");
        if block && !comments.is_empty() {
            break;
        }
        comments.push(comment);
        if block {
            break;
        }
        below = comment;
        above = comment.prev_sibling();
    }
    comments.reverse();
    let mut out = String::new();
    for comment in comments {
        let text = std::str::from_utf8(&source[comment.byte_range()]).unwrap_or("");
        for word in clean(text).split_whitespace() {
            // JSDoc tags (`@param`) end the description.
            if word.starts_with('@') || out.len() + word.len() >= DOC_CHARS {
                return out;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
            if word.ends_with('.') {
                return out;
            }
        }
    }
    out
}

/// Whether nothing but whitespace precedes `node` on its first line.
fn starts_its_line(node: Node<'_>, source: &[u8]) -> bool {
    let start = node.start_byte();
    source[..start]
        .iter()
        .rev()
        .take_while(|b| **b != b'\n')
        .all(|b| b.is_ascii_whitespace())
}

/// A comment's text without its markers.
fn clean(comment: &str) -> String {
    let body = comment
        .strip_prefix("/**")
        .or_else(|| comment.strip_prefix("/*"))
        .map(|b| b.strip_suffix("*/").unwrap_or(b))
        .or_else(|| comment.strip_prefix("//"))
        .unwrap_or(comment);
    body.lines()
        .map(|line| line.trim_start().trim_start_matches('*'))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn markers_are_stripped() {
        assert_eq!(
            clean("/**\n * Loads the user.\n * @param id the key\n */")
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["Loads", "the", "user.", "@param", "id", "the", "key"]
        );
        assert_eq!(clean("// plain words").trim(), "plain words");
    }
}
