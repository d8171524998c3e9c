//! The GraphML encoder for `export`: the whole graph as one directed `<graph>`, keys
//! declared up front from the shared property schema, one `<node>` per node and one `<edge>`
//! per edge, written as the query streams them.
//!
//! Lists (call-site lines, imported names) have no GraphML type: they are strings, items
//! separated by `,`. Text is escaped for XML 1.0; a control character XML cannot carry
//! becomes U+FFFD.

use std::io::{self, Write};

use tsgraph_query::engine::NodeView;
use tsgraph_query::{EdgeInfo, Header, NodeInfo, ResultSink, SinkError, Summary};

use super::properties::{
    EDGE_PROPERTIES, NODE_PROPERTIES, PropertyType, Value, edge_values, node_values,
};

/// Writes the graph as GraphML.
pub struct GraphMlSink<W: Write> {
    out: W,
    value: String,
}

impl<W: Write> GraphMlSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> GraphMlSink<W> {
        GraphMlSink {
            out,
            value: String::new(),
        }
    }

    /// One `<data>` element; `prefix` tells edge keys from node keys.
    fn data(&mut self, prefix: &str, key: &str, value: Value<'_>) -> io::Result<()> {
        self.value.clear();
        value.join(",", &mut self.value, escape_xml);
        write!(
            self.out,
            "<data key=\"{prefix}{key}\">{}</data>",
            self.value
        )
    }
}

/// The GraphML `attr.type` of a property.
fn graphml_type(kind: PropertyType) -> &'static str {
    match kind {
        PropertyType::Int => "int",
        PropertyType::Bool => "boolean",
        PropertyType::Text | PropertyType::Ints | PropertyType::Texts => "string",
    }
}

impl<W: Write> ResultSink for GraphMlSink<W> {
    fn begin(&mut self, _header: &Header<'_>) -> Result<(), SinkError> {
        self.out.write_all(
            b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
              <graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
              xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
              xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns \
              http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
        )?;
        // Node and edge keys live in one id space: edge keys get an `e_` prefix.
        for (name, kind) in NODE_PROPERTIES {
            writeln!(
                self.out,
                "  <key id=\"{name}\" for=\"node\" attr.name=\"{name}\" attr.type=\"{}\"/>",
                graphml_type(*kind)
            )?;
        }
        for (name, kind) in EDGE_PROPERTIES {
            writeln!(
                self.out,
                "  <key id=\"e_{name}\" for=\"edge\" attr.name=\"{name}\" attr.type=\"{}\"/>",
                graphml_type(*kind)
            )?;
        }
        self.out
            .write_all(b"  <graph id=\"tsgraph\" edgedefault=\"directed\">\n")?;
        Ok(())
    }

    fn node(&mut self, node: &NodeView<'_>, _info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.value.clear();
        escape_xml(node.id(), &mut self.value);
        write!(self.out, "    <node id=\"{}\">", self.value)?;
        for (column, value) in node_values(node).into_iter().enumerate() {
            self.data("", NODE_PROPERTIES[column].0, value)?;
        }
        self.out.write_all(b"</node>\n")?;
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        self.value.clear();
        escape_xml(edge.source, &mut self.value);
        self.value.push_str("\" target=\"");
        escape_xml(edge.target, &mut self.value);
        write!(self.out, "    <edge source=\"{}\">", self.value)?;
        for (column, value) in edge_values(edge) {
            self.data("e_", EDGE_PROPERTIES[column].0, value)?;
        }
        self.out.write_all(b"</edge>\n")?;
        Ok(true)
    }

    fn finish(&mut self, _summary: &Summary) -> Result<(), SinkError> {
        self.out.write_all(b"  </graph>\n</graphml>\n")?;
        Ok(self.out.flush()?)
    }
}

/// Appends `text` escaped for XML 1.0 content and attribute values.
fn escape_xml(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => {
                // Kept literally they would be normalised to spaces in attributes.
                out.push_str("&#");
                out.push_str(itoa::Buffer::new().format(c as u32));
                out.push(';');
            }
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape_xml;

    #[test]
    fn text_is_escaped_for_xml() {
        let mut out = String::new();
        escape_xml("a<b>&\"c'\td\u{1}", &mut out);
        assert_eq!(out, "a&lt;b&gt;&amp;&quot;c&apos;&#9;d\u{FFFD}");
    }
}
