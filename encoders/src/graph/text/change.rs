//! Text of a change's impact, before its sections: what the change is measured against,
//! how many symbols it touched and how many results depend on them, the declarations it
//! removed with the places that still name them, and the changed declarations the graph
//! does not hold.

use std::io::{self, Write};

use tsgraph_query::Header;

use super::TextSink;

impl<W: Write> TextSink<'_, W> {
    /// The head of a change impact answer.
    pub(super) fn change_lines(&mut self, header: &Header<'_>) -> io::Result<()> {
        let base = header.subject.unwrap_or("");
        writeln!(
            self.out,
            "impact of the changes against {base}: {} changed, {} removed",
            header.changed,
            header.removed.len()
        )?;
        self.counts_line(&header.counts)?;
        for removed in header.removed {
            let (start, end) = removed.lines;
            write!(
                self.out,
                "removed: {} ({}, was lines {start}-{end})",
                removed.id,
                removed.kind.as_str()
            )?;
            if let Some(to) = &removed.renamed_to {
                write!(self.out, ", probably renamed to {to}")?;
            }
            writeln!(self.out)?;
            for place in header.named_at.iter().filter(|p| p.symbol == removed.id) {
                match place.line {
                    Some(line) => writeln!(
                        self.out,
                        "  still named at {}:{line} ({})",
                        place.file, place.how
                    )?,
                    None => writeln!(self.out, "  still named in {} ({})", place.file, place.how)?,
                }
            }
        }
        for id in header.unknown {
            writeln!(self.out, "not in the graph: {id} (index the project again)")?;
        }
        Ok(())
    }
}
