//! The Graphviz DOT encoder for `export`: one `digraph`, a statement per node (labelled
//! with its symbol and kind) and per edge (labelled with its kind), every property of the
//! shared schema as an attribute, written as the query streams them.
//!
//! Every ID and value is a quoted string, with `"` and `\` escaped and line breaks written
//! as `\n`, so any ID is a valid DOT identifier. Lists are strings, items separated by `,`.
//! The node property `name` is written as `symbolName`: readers that build nodes from
//! keyword arguments (pydot) reserve `name` for the node's identifier.

use std::io::Write;

use tsgraph_query::engine::NodeView;
use tsgraph_query::{EdgeInfo, Header, NodeInfo, ResultSink, SinkError, Summary};

use super::node_fields::label;
use super::properties::{EDGE_PROPERTIES, NODE_PROPERTIES, Value, edge_values, node_values};

/// Writes the graph as Graphviz DOT.
pub struct DotSink<W: Write> {
    out: W,
    text: String,
}

impl<W: Write> DotSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> DotSink<W> {
        DotSink {
            out,
            text: String::new(),
        }
    }

    /// `, name="value"` into the statement being built.
    fn attribute(&mut self, name: &str, value: Value<'_>) {
        self.text.push_str(", ");
        self.text.push_str(name);
        self.text.push_str("=\"");
        value.join(",", &mut self.text, escape_dot);
        self.text.push('"');
    }
}

impl<W: Write> ResultSink for DotSink<W> {
    fn begin(&mut self, _header: &Header<'_>) -> Result<(), SinkError> {
        self.out
            .write_all(b"digraph tsgraph {\n  node [shape=box, fontname=\"monospace\"];\n")?;
        Ok(())
    }

    fn node(&mut self, node: &NodeView<'_>, _info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.text.clear();
        self.text.push_str("  \"");
        escape_dot(node.id(), &mut self.text);
        self.text.push_str("\" [label=\"");
        escape_dot(label(node), &mut self.text);
        self.text.push_str("\\n");
        self.text.push_str(node.kind().as_str());
        self.text.push('"');
        for ((name, _), value) in NODE_PROPERTIES.iter().zip(node_values(node)) {
            // Renamed: see the module documentation.
            let name = if *name == "name" { "symbolName" } else { name };
            self.attribute(name, value);
        }
        self.text.push_str("];\n");
        self.out.write_all(self.text.as_bytes())?;
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        self.text.clear();
        self.text.push_str("  \"");
        escape_dot(edge.source, &mut self.text);
        self.text.push_str("\" -> \"");
        escape_dot(edge.target, &mut self.text);
        self.text.push_str("\" [label=\"");
        self.text.push_str(edge.kind.as_str());
        self.text.push('"');
        for (column, value) in edge_values(edge) {
            self.attribute(EDGE_PROPERTIES[column].0, value);
        }
        self.text.push_str("];\n");
        self.out.write_all(self.text.as_bytes())?;
        Ok(true)
    }

    fn finish(&mut self, _summary: &Summary) -> Result<(), SinkError> {
        self.out.write_all(b"}\n")?;
        Ok(self.out.flush()?)
    }
}

/// Appends `text` escaped for a DOT quoted string.
fn escape_dot(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape_dot;

    #[test]
    fn quotes_backslashes_and_line_breaks_are_escaped() {
        let mut out = String::new();
        escape_dot("a\"b\\c\r\nd", &mut out);
        assert_eq!(out, "a\\\"b\\\\c\\nd");
    }
}
