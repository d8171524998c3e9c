//! Signature text: parameters as `name: Type` strings, declared types, modifiers.

use tree_sitter::Node;

use tsgraph_engine::{NodeFlags, Visibility};

/// The source text of a node; empty if it is not UTF-8.
pub(super) fn text<'s>(node: Node<'_>, source: &'s [u8]) -> &'s str {
    node.utf8_text(source).unwrap_or("")
}

/// Text with its comments left out and runs of white space folded to one space (multi-line
/// types stay one line). A type literal's members often carry their JSDoc: printed, it
/// would be most of the signature and of the answer's tokens.
pub(super) fn folded(node: Node<'_>, source: &[u8]) -> String {
    let whole = text(node, source);
    let mut out = String::new();
    let mut fold = |piece: &str| {
        for word in piece.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    };
    // Only a text with a comment opener can hold a comment node: the walk is skipped for
    // the others.
    if !whole.contains("//") && !whole.contains("/*") {
        fold(whole);
        return out;
    }
    let base = node.start_byte();
    let mut from = 0;
    for comment in comments_in(node) {
        let (start, end) = (comment.start_byte() - base, comment.end_byte() - base);
        fold(whole.get(from..start).unwrap_or(""));
        from = end;
    }
    fold(whole.get(from..).unwrap_or(""));
    out
}

/// The comment nodes under `node`, in source order (a comment has no comment inside it).
fn comments_in(node: Node<'_>) -> Vec<Node<'_>> {
    let mut found = Vec::new();
    let mut cursor = node.walk();
    let mut descending = true;
    loop {
        if descending && cursor.node().kind() == "comment" {
            found.push(cursor.node());
        } else if descending && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descending = true;
            continue;
        }
        if !cursor.goto_parent() || cursor.node() == node {
            return found;
        }
        descending = false;
    }
}

/// The type of a `type_annotation`-like child (`: T`), without the colon.
pub(super) fn annotation(node: Option<Node<'_>>, source: &[u8]) -> String {
    let Some(node) = node else {
        return String::new();
    };
    let folded = folded(node, source);
    folded
        .strip_prefix(':')
        .map(|t| t.trim_start().to_owned())
        .unwrap_or(folded)
}

/// `name: Type` strings for the parameters of a function-like node, including the bare
/// `x => …` form.
pub(super) fn parameters(callable: Node<'_>, source: &[u8]) -> Vec<String> {
    if let Some(single) = callable.child_by_field_name("parameter") {
        return vec![text(single, source).to_owned()];
    }
    let Some(params) = callable.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut cursor = params.walk();
    let mut out = Vec::new();
    for param in params.named_children(&mut cursor) {
        let optional = match param.kind() {
            "required_parameter" => false,
            "optional_parameter" => true,
            _ => continue,
        };
        let Some(pattern) = param.child_by_field_name("pattern") else {
            continue;
        };
        let mut entry = folded(pattern, source);
        if optional {
            entry.push('?');
        }
        let ty = annotation(param.child_by_field_name("type"), source);
        if !ty.is_empty() {
            entry.push_str(": ");
            entry.push_str(&ty);
        }
        out.push(entry);
    }
    out
}

/// Flags and visibility from the keyword children of a declaration or member.
pub(super) fn modifiers(node: Node<'_>, source: &[u8]) -> (u16, u8) {
    let mut flags = NodeFlags::default();
    let mut visibility = Visibility::Default;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "async" => flags.set(NodeFlags::ASYNC, true),
            "static" => flags.set(NodeFlags::STATIC, true),
            "readonly" => flags.set(NodeFlags::READONLY, true),
            "abstract" => flags.set(NodeFlags::ABSTRACT, true),
            "?" => flags.set(NodeFlags::OPTIONAL, true),
            "accessibility_modifier" => {
                visibility = match text(child, source) {
                    "private" => Visibility::Private,
                    "protected" => Visibility::Protected,
                    _ => Visibility::Public,
                }
            }
            _ => {}
        }
    }
    if node
        .child_by_field_name("name")
        .is_some_and(|n| n.kind() == "private_property_identifier")
    {
        visibility = Visibility::Private;
    }
    (flags.0, visibility.as_u8())
}

/// The string value of a `string` node (the module specifier of an import), quotes removed.
pub(super) fn string_value(node: Node<'_>, source: &[u8]) -> String {
    let raw = text(node, source);
    raw.trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_owned()
}
