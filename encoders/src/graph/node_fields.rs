//! Facts every encoder derives the same way from a node: the line count for a Read tool,
//! the `a-b` line cell, the one-string signature, kind group names, short IDs and the note
//! on unresolved calls.

use tsgraph_query::engine::{NodeFlags, NodeKind, NodeView, Visibility};

/// The `limit` an agent passes to its Read tool with `offset` = start line: the line count.
pub(crate) fn line_count(node: &NodeView<'_>) -> u32 {
    node.end_line()
        .saturating_sub(node.start_line())
        .saturating_add(1)
}

/// `start-end`, or `start` for a one-line node, into `out` (cleared first).
pub(crate) fn lines_cell(node: &NodeView<'_>, out: &mut String) {
    out.clear();
    let mut number = itoa::Buffer::new();
    out.push_str(number.format(node.start_line()));
    if node.start_line() != node.end_line() {
        out.push('-');
        out.push_str(number.format(node.end_line()));
    }
}

/// What a diagram labels a node with: its symbol path, or its ID for a file (no symbol).
pub(crate) fn label<'a>(node: &NodeView<'a>) -> &'a str {
    if node.symbol().is_empty() {
        node.id()
    } else {
        node.symbol()
    }
}

/// Whether the kind has parameters and a return type.
pub(crate) fn is_callable(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Function | NodeKind::Method)
}

/// The modifiers a signature starts with, in source order.
pub(crate) fn modifiers(node: &NodeView<'_>) -> impl Iterator<Item = &'static str> {
    let flags = node.flags();
    let visibility = match node.visibility() {
        Visibility::Default => None,
        other => Some(other.as_str()),
    };
    visibility.into_iter().chain(
        [
            (NodeFlags::DEFAULT_EXPORT, "default"),
            (NodeFlags::STATIC, "static"),
            (NodeFlags::ABSTRACT, "abstract"),
            (NodeFlags::ASYNC, "async"),
            (NodeFlags::READONLY, "readonly"),
            (NodeFlags::CONST, "const"),
        ]
        .into_iter()
        .filter(move |(flag, _)| flags.has(*flag))
        .map(|(_, word)| word),
    )
}

/// The signature as one string, into `out` (cleared first): modifiers (visibility, then
/// `default` for the default export, `static`, `abstract`, `async`, `readonly`, `const`), then for functions
/// and methods `(parameters)` and `: return type`, for other kinds `?` when optional and
/// `: declared type`. Empty when the node has none of these facts.
///
/// `public static async (id: string, n?: number): Promise<User>`, `readonly?: string`.
pub(crate) fn signature(node: &NodeView<'_>, out: &mut String) {
    out.clear();
    if node.kind() == NodeKind::File || !tsgraph_query::has_signature(node) {
        return;
    }
    for word in modifiers(node) {
        out.push_str(word);
        out.push(' ');
    }
    if is_callable(node.kind()) {
        out.push('(');
        for (i, parameter) in node.parameters().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(parameter);
        }
        out.push(')');
    } else {
        // A modifier with nothing after it keeps its space off the end.
        if out.ends_with(' ') && node.type_text().is_empty() && !optional(node) {
            out.pop();
        }
        if optional(node) {
            if out.ends_with(' ') {
                out.pop();
            }
            out.push('?');
        }
    }
    if !node.type_text().is_empty() {
        if out.ends_with(' ') {
            out.pop();
        }
        out.push_str(": ");
        out.push_str(node.type_text());
    }
}

fn optional(node: &NodeView<'_>) -> bool {
    node.flags().has(NodeFlags::OPTIONAL)
}

/// The plural, lower camel case name of a kind's group (`functions`, `typeAliases`).
pub(crate) fn plural(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::File => "files",
        NodeKind::Function => "functions",
        NodeKind::Class => "classes",
        NodeKind::Method => "methods",
        NodeKind::Interface => "interfaces",
        NodeKind::TypeAlias => "typeAliases",
        NodeKind::Variable => "variables",
        NodeKind::Property => "properties",
        NodeKind::Enum => "enums",
    }
}

/// The ID shown when every node shares `file`: the symbol path, or the path for the file
/// node itself.
pub(crate) fn short_id<'a>(id: &'a str, file: Option<&str>) -> &'a str {
    match file {
        Some(file) => id
            .strip_prefix(file)
            .and_then(|rest| rest.strip_prefix(':'))
            .unwrap_or(id),
        None => id,
    }
}

/// `2 call sites of `.save` could not be resolved and may reach it` (a member's name written
/// with its dot, since such calls go through a receiver).
pub(crate) fn unresolved_note(count: usize, node: &NodeView<'_>) -> String {
    let dot = if matches!(node.kind(), NodeKind::Method | NodeKind::Property) {
        "."
    } else {
        ""
    };
    let sites = if count == 1 {
        "call site"
    } else {
        "call sites"
    };
    format!(
        "{count} {sites} of `{dot}{}` could not be resolved and may reach it",
        node.name()
    )
}
