//! The export encoder: every node and edge as one JSON object per line.
//!
//! `{"type":"node","id","kind","file","start","end","exported"}` per node, then
//! `{"type":"edge","kind","source","target"}` per edge, with the stored facts JSON gives an
//! edge (see [`super::json`]), the call count named `"count"`.

use std::io::{self, Write};

use tsgraph_query::engine::NodeView;
use tsgraph_query::{EdgeInfo, Header, NodeInfo, ResultSink, SinkError, Summary};

/// Writes JSON lines.
pub struct JsonLinesSink<W: Write> {
    out: W,
}

impl<W: Write> JsonLinesSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> JsonLinesSink<W> {
        JsonLinesSink { out }
    }

    fn string(&mut self, value: &str) -> io::Result<()> {
        super::json::string(&mut self.out, value)
    }
}

impl<W: Write> ResultSink for JsonLinesSink<W> {
    fn begin(&mut self, _header: &Header<'_>) -> Result<(), SinkError> {
        Ok(())
    }

    fn node(&mut self, node: &NodeView<'_>, _info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.out.write_all(b"{\"type\":\"node\",\"id\":")?;
        self.string(node.id())?;
        write!(self.out, ",\"kind\":\"{}\",\"file\":", node.kind())?;
        self.string(node.file())?;
        writeln!(
            self.out,
            ",\"start\":{},\"end\":{},\"exported\":{}}}",
            node.start_line(),
            node.end_line(),
            node.exported()
        )?;
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        write!(
            self.out,
            "{{\"type\":\"edge\",\"kind\":\"{}\",\"source\":",
            edge.kind
        )?;
        self.string(edge.source)?;
        self.out.write_all(b",\"target\":")?;
        self.string(edge.target)?;
        if let Some(stored) = edge.stored {
            super::json::edge_fact_fields(&mut self.out, edge.kind, stored, "count")?;
        }
        self.out.write_all(b"}\n")?;
        Ok(true)
    }

    fn finish(&mut self, _summary: &Summary) -> Result<(), SinkError> {
        Ok(self.out.flush()?)
    }
}
