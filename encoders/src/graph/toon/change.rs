//! TOON of a change's impact, before its sections: the declarations it removed
//! (`removed[n]{id,kind,lines,renamedTo}`), the places that still name them
//! (`namedBy[n]{symbol,file,line,how}`) and the changed declarations the graph does not hold
//! (`notInGraph[n]: …`).

use std::io::Write;

use tsgraph_query::{Header, Question};

use super::ToonSink;
use crate::toon::EncodeError;

impl<W: Write> ToonSink<W> {
    /// The removed declarations and what still names them (change impact only).
    pub(super) fn change_header(&mut self, header: &Header<'_>) -> Result<(), EncodeError> {
        let Question::ChangeImpact(change) = &header.question else {
            return Ok(());
        };
        let w = self.writer()?;
        w.field("changed", change.changed)?;
        if !change.removed.is_empty() {
            w.key("removed")?;
            w.begin_table(change.removed.len(), &["id", "kind", "lines", "renamedTo"])?;
            for removed in change.removed {
                w.row_begin()?;
                w.cell_str(&removed.id)?;
                w.cell_str(removed.kind.as_str())?;
                let (start, end) = removed.lines;
                if start == end {
                    w.cell_u64(u64::from(start))?;
                } else {
                    w.cell_str(&format!("{start}-{end}"))?;
                }
                w.cell(removed.renamed_to.as_deref())?;
                w.row_end()?;
            }
            w.end()?;
        }
        if !change.named_at.is_empty() {
            w.key("namedBy")?;
            w.begin_table(change.named_at.len(), &["symbol", "file", "line", "how"])?;
            for place in change.named_at {
                w.row_begin()?;
                w.cell_str(place.symbol)?;
                w.cell_str(place.file)?;
                w.cell(place.line.map(u64::from))?;
                w.cell_str(place.how)?;
                w.row_end()?;
            }
            w.end()?;
        }
        if !change.unknown.is_empty() {
            w.key("notInGraph")?;
            w.begin_inline(change.unknown.len())?;
            for id in change.unknown {
                w.value(id.as_str())?;
            }
            w.end()?;
        }
        Ok(())
    }
}
