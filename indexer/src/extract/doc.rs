//! The leading doc comment of a declaration, for topic search: the comment right above it
//! (or above the `export`, `const` or `let` statement that holds it), with its markers
//! (`/**`, `*/`, `*`, `//`) stripped and its whitespace folded — its first sentence, at most
//! [`DOC_CHARS`] bytes: what the declaration is about, not its every tag (each word kept
//! costs a posting in the search index).

use tree_sitter::Node;

/// How much of a doc comment's first sentence is kept, in bytes.
pub(super) const DOC_CHARS: usize = 160;

/// Wrappers a declaration's comment may sit above instead of the declaration itself.
const WRAPPERS: [&str; 4] = [
    "export_statement",
    "lexical_declaration",
    "variable_declaration",
    "variable_declarator",
];

/// The doc comment right above `node`, cleaned; empty when there is none.
pub(super) fn leading_doc(node: Node<'_>, source: &[u8]) -> String {
    let mut anchor = node;
    while let Some(parent) = anchor.parent() {
        if !WRAPPERS.contains(&parent.kind()) {
            break;
        }
        anchor = parent;
    }
    // Consecutive comments right above, nearest last (`// a` `// b` read as `a b`).
    let mut comments = Vec::new();
    let mut below = anchor;
    while let Some(above) = below.prev_sibling() {
        let adjacent = above.end_position().row + 1 >= below.start_position().row;
        if above.kind() != "comment" || !adjacent {
            break;
        }
        comments.push(above);
        below = above;
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
