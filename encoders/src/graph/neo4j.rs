//! The Neo4j encoder for `export`: the two CSV files `neo4j-admin database import full`
//! reads — nodes (`id:ID`, `:LABEL` = the node kind, then the properties) and relationships
//! (`:START_ID`, `:END_ID`, `:TYPE` = the edge kind, then the facts) — with typed headers
//! from the shared property schema. Lists use Neo4j's default array delimiter `;`; a fact an
//! edge does not have is an empty field, which the importer leaves unset.

use std::io::{self, Write};

use tsgraph_query::engine::NodeView;
use tsgraph_query::{EdgeInfo, Header, NodeInfo, ResultSink, SinkError, Summary};

use super::properties::{EDGE_PROPERTIES, NODE_PROPERTIES, PropertyType, edge_values, node_values};

/// Writes nodes and relationships as Neo4j admin-import CSV, each into its own writer.
pub struct Neo4jCsvSink<N: Write, R: Write> {
    nodes: csv::Writer<N>,
    relationships: csv::Writer<R>,
    /// The current row's fields.
    fields: Vec<String>,
}

impl<N: Write, R: Write> Neo4jCsvSink<N, R> {
    /// A sink writing the node file into `nodes` and the relationship file into
    /// `relationships`.
    pub fn new(nodes: N, relationships: R) -> Neo4jCsvSink<N, R> {
        Neo4jCsvSink {
            nodes: csv::Writer::from_writer(nodes),
            relationships: csv::Writer::from_writer(relationships),
            fields: Vec::new(),
        }
    }

    fn clear_fields(&mut self, count: usize) {
        self.fields.resize_with(count, String::new);
        for field in &mut self.fields {
            field.clear();
        }
    }
}

/// A typed header column: `name`, `name:int`, `name:boolean`, `name:int[]`, `name:string[]`.
fn column(name: &str, kind: PropertyType) -> String {
    let suffix = match kind {
        PropertyType::Text => "",
        PropertyType::Int => ":int",
        PropertyType::Bool => ":boolean",
        PropertyType::Ints => ":int[]",
        PropertyType::Texts => ":string[]",
    };
    format!("{name}{suffix}")
}

fn push_text(text: &str, out: &mut String) {
    out.push_str(text);
}

impl<N: Write, R: Write> ResultSink for Neo4jCsvSink<N, R> {
    fn begin(&mut self, _header: &Header<'_>) -> Result<(), SinkError> {
        let mut header = vec!["id:ID".to_owned(), ":LABEL".to_owned()];
        header.extend(
            NODE_PROPERTIES
                .iter()
                .map(|(name, kind)| column(name, *kind)),
        );
        self.nodes.write_record(&header).map_err(io::Error::from)?;
        // The edge kind is the relationship type, not a property.
        let mut header = vec![
            ":START_ID".to_owned(),
            ":END_ID".to_owned(),
            ":TYPE".to_owned(),
        ];
        header.extend(
            EDGE_PROPERTIES[1..]
                .iter()
                .map(|(name, kind)| column(name, *kind)),
        );
        self.relationships
            .write_record(&header)
            .map_err(io::Error::from)?;
        Ok(())
    }

    fn node(&mut self, node: &NodeView<'_>, _info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.clear_fields(2 + NODE_PROPERTIES.len());
        self.fields[0].push_str(node.id());
        self.fields[1].push_str(node.kind().as_str());
        for (column, value) in node_values(node).into_iter().enumerate() {
            value.join(";", &mut self.fields[2 + column], push_text);
        }
        self.nodes
            .write_record(&self.fields)
            .map_err(io::Error::from)?;
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        // Columns: start, end, then EDGE_PROPERTIES (its `kind` is the :TYPE column).
        self.clear_fields(2 + EDGE_PROPERTIES.len());
        self.fields[0].push_str(edge.source);
        self.fields[1].push_str(edge.target);
        for (column, value) in edge_values(edge) {
            value.join(";", &mut self.fields[2 + column], push_text);
        }
        self.relationships
            .write_record(&self.fields)
            .map_err(io::Error::from)?;
        Ok(true)
    }

    fn finish(&mut self, _summary: &Summary) -> Result<(), SinkError> {
        self.nodes.flush()?;
        Ok(self.relationships.flush()?)
    }
}
