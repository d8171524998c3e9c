//! The properties a whole-graph export gives each node and edge, as one schema shared by
//! the GraphML, Graphviz DOT and Neo4j CSV encoders: each declares the columns (or keys)
//! from [`NODE_PROPERTIES`] and [`EDGE_PROPERTIES`] and writes the values that
//! [`node_values`] and [`edge_values`] hand it, so the three formats carry the same facts.

use tsgraph_query::EdgeInfo;
use tsgraph_query::engine::{EdgeKind, EdgeView, NodeView};

/// The type of a property, as graph engines declare it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PropertyType {
    Text,
    Int,
    Bool,
    /// A list of integers (call-site lines).
    Ints,
    /// A list of strings (imported names).
    Texts,
}

/// Node properties beside the ID, in column order.
pub(super) const NODE_PROPERTIES: &[(&str, PropertyType)] = &[
    ("kind", PropertyType::Text),
    ("name", PropertyType::Text),
    ("file", PropertyType::Text),
    ("module", PropertyType::Text),
    ("package", PropertyType::Text),
    ("startLine", PropertyType::Int),
    ("endLine", PropertyType::Int),
    ("exported", PropertyType::Bool),
];

/// Edge properties beside source and target, in column order. An edge has `kind` and only
/// the facts of its kind: `count`, `sites` and (CALLS) `resolution` for CALLS and INCLUDES,
/// `context` for USES_TYPE and REFERENCES, `names` and `typeOnly` for IMPORTS.
pub(super) const EDGE_PROPERTIES: &[(&str, PropertyType)] = &[
    ("kind", PropertyType::Text),
    ("count", PropertyType::Int),
    ("sites", PropertyType::Ints),
    ("resolution", PropertyType::Text),
    ("context", PropertyType::Text),
    ("names", PropertyType::Texts),
    ("typeOnly", PropertyType::Bool),
];

/// One property's value.
#[derive(Clone, Copy)]
pub(super) enum Value<'a> {
    Text(&'a str),
    Int(u32),
    Bool(bool),
    /// The call-site lines of the edge.
    Sites(EdgeView<'a>),
    /// The imported names of the edge.
    Names(EdgeView<'a>),
}

impl Value<'_> {
    /// The items of a list value, each written by `item` into `out`, separated by
    /// `separator`; a scalar is written as one item.
    pub(super) fn join(
        &self,
        separator: &str,
        out: &mut String,
        mut item: impl FnMut(&str, &mut String),
    ) {
        let mut number = itoa::Buffer::new();
        match self {
            Value::Text(text) => item(text, out),
            Value::Int(value) => item(number.format(*value), out),
            Value::Bool(value) => item(if *value { "true" } else { "false" }, out),
            Value::Sites(edge) => {
                for (i, line) in edge.sites().enumerate() {
                    if i > 0 {
                        out.push_str(separator);
                    }
                    item(number.format(line), out);
                }
            }
            Value::Names(edge) => {
                for (i, name) in edge.names().enumerate() {
                    if i > 0 {
                        out.push_str(separator);
                    }
                    item(name, out);
                }
            }
        }
    }
}

/// The node's properties, in [`NODE_PROPERTIES`] order.
pub(super) fn node_values<'a>(node: &NodeView<'a>) -> [Value<'a>; NODE_PROPERTIES.len()] {
    [
        Value::Text(node.kind().as_str()),
        Value::Text(node.name()),
        Value::Text(node.file()),
        Value::Text(node.module()),
        Value::Text(node.package()),
        Value::Int(node.start_line()),
        Value::Int(node.end_line()),
        Value::Bool(node.exported()),
    ]
}

/// The properties the edge has, as `(column, value)` in [`EDGE_PROPERTIES`] order.
pub(super) fn edge_values<'a>(edge: &EdgeInfo<'a>) -> impl Iterator<Item = (usize, Value<'a>)> {
    let facts = match (edge.kind, edge.stored) {
        (EdgeKind::Calls | EdgeKind::Includes, Some(stored)) => [
            Some((1, Value::Int(stored.count()))),
            Some((2, Value::Sites(stored))),
            (edge.kind == EdgeKind::Calls).then(|| (3, Value::Text(stored.resolution().as_str()))),
        ],
        (EdgeKind::UsesType | EdgeKind::References, Some(stored)) => [
            Some((4, Value::Text(stored.context().as_str()))),
            None,
            None,
        ],
        (EdgeKind::Imports, Some(stored)) => [
            Some((5, Value::Names(stored))),
            Some((6, Value::Bool(stored.type_only()))),
            None,
        ],
        _ => [None, None, None],
    };
    std::iter::once((0, Value::Text(edge.kind.as_str()))).chain(facts.into_iter().flatten())
}
