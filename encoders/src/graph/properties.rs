//! The properties a whole-graph export gives each node and edge, as one schema shared by
//! the GraphML, Graphviz DOT and Neo4j CSV encoders: each declares the columns (or keys)
//! from [`NODE_PROPERTIES`] and [`EDGE_PROPERTIES`] and writes the values that
//! [`node_values`] and [`edge_values`] hand it, so the three formats carry the same facts.

use std::fmt::Write as _;

use tsgraph_query::EdgeInfo;
use tsgraph_query::engine::{EdgeKind, EdgeRef, NodeView};

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
    Sites(EdgeRef<'a>),
    /// The imported names of the edge.
    Names(EdgeRef<'a>),
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

/// Calls `visit(column, value)` for each property of the node, in [`NODE_PROPERTIES`] order.
pub(super) fn node_values<'a>(node: &NodeView<'a>, mut visit: impl FnMut(usize, Value<'a>)) {
    let values = [
        Value::Text(node.kind().as_str()),
        Value::Text(node.name()),
        Value::Text(node.file()),
        Value::Text(node.module()),
        Value::Text(node.package()),
        Value::Int(node.start_line()),
        Value::Int(node.end_line()),
        Value::Bool(node.exported()),
    ];
    for (column, value) in values.into_iter().enumerate() {
        visit(column, value);
    }
}

/// Calls `visit(column, value)` for each property the edge has, in [`EDGE_PROPERTIES`]
/// order; `scratch` holds the text of enumerations.
pub(super) fn edge_values<'a>(
    edge: &EdgeInfo<'a>,
    scratch: &'a mut String,
    mut visit: impl FnMut(usize, Value<'_>),
) {
    visit(0, Value::Text(edge.kind.as_str()));
    let Some(stored) = edge.stored else {
        return;
    };
    match edge.kind {
        EdgeKind::Calls | EdgeKind::Includes => {
            visit(1, Value::Int(stored.count()));
            visit(2, Value::Sites(stored));
            if edge.kind == EdgeKind::Calls {
                scratch.clear();
                let _ = write!(scratch, "{}", stored.resolution());
                visit(3, Value::Text(scratch));
            }
        }
        EdgeKind::UsesType | EdgeKind::References => {
            scratch.clear();
            let _ = write!(scratch, "{}", stored.context());
            visit(4, Value::Text(scratch));
        }
        EdgeKind::Imports => {
            visit(5, Value::Names(stored));
            visit(6, Value::Bool(stored.type_only()));
        }
        _ => {}
    }
}
