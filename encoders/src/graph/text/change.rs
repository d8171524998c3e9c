//! Text of a change's impact, before its sections: what the change is measured against,
//! how many symbols it touched and how many results depend on them, the declarations it
//! removed with the places that still name them, and the changed declarations the graph
//! does not hold.

use std::io::{self, Write};

use tsgraph_query::ChangeQuestion;

use super::TextSink;

impl<W: Write> TextSink<'_, W> {
    /// The head of a change impact answer.
    pub(super) fn change_lines(&mut self, change: &ChangeQuestion<'_>) -> io::Result<()> {
        writeln!(
            self.out,
            "impact of the changes against {}: {} changed, {} removed",
            change.diff,
            change.changed,
            change.removed.len()
        )?;
        self.counts_line(&change.walk.counts)?;
        for removed in change.removed {
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
            for place in change.named_at.iter().filter(|p| p.symbol == removed.id) {
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
        for id in change.unknown {
            writeln!(self.out, "not in the graph: {id} (index the project again)")?;
        }
        Ok(())
    }
}
