//! The export encoder: every node and edge as one JSON object per line.
//!
//! `{"type":"node","id","kind","file","start","end","exported"}` per node, then
//! `{"type":"edge","kind","source","target"}` per edge, with `"count"` and `"sites"` for
//! CALLS and INCLUDES and `"names"` and `"typeOnly"` for IMPORTS.

use std::io::{self, Write};

use tsgraph_query::engine::{EdgeKind, NodeView};
use tsgraph_query::{EdgeInfo, Header, NodeInfo, ResultSink, Summary};

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
        serde_json::to_writer(&mut self.out, value).map_err(io::Error::from)
    }
}

impl<W: Write> ResultSink for JsonLinesSink<W> {
    fn begin(&mut self, _header: &Header<'_>) -> io::Result<()> {
        Ok(())
    }

    fn node(&mut self, node: &NodeView<'_>, _info: &NodeInfo<'_>) -> io::Result<bool> {
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

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> io::Result<bool> {
        write!(
            self.out,
            "{{\"type\":\"edge\",\"kind\":\"{}\",\"source\":",
            edge.kind
        )?;
        self.string(edge.source)?;
        self.out.write_all(b",\"target\":")?;
        self.string(edge.target)?;
        if let Some(stored) = edge.stored {
            match edge.kind {
                EdgeKind::Calls | EdgeKind::Includes => {
                    write!(self.out, ",\"count\":{},\"sites\":[", stored.count())?;
                    for (i, line) in stored.sites().enumerate() {
                        if i > 0 {
                            self.out.write_all(b",")?;
                        }
                        write!(self.out, "{line}")?;
                    }
                    self.out.write_all(b"]")?;
                    if edge.kind == EdgeKind::Calls {
                        write!(self.out, ",\"resolution\":\"{}\"", stored.resolution())?;
                    }
                }
                EdgeKind::UsesType | EdgeKind::References => {
                    write!(self.out, ",\"context\":\"{}\"", stored.context())?;
                }
                EdgeKind::Imports => {
                    self.out.write_all(b",\"names\":[")?;
                    for (i, name) in stored.names().enumerate() {
                        if i > 0 {
                            self.out.write_all(b",")?;
                        }
                        self.string(name)?;
                    }
                    write!(self.out, "],\"typeOnly\":{}", stored.type_only())?;
                }
                _ => {}
            }
        }
        self.out.write_all(b"}\n")?;
        Ok(true)
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.out.flush()
    }
}
