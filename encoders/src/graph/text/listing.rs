//! Text of an answer listed in part: which results the page holds (direct first), the
//! results per depth, the files of what it leaves out and how to continue; and the
//! completeness line every answer ends with.

use std::io::{self, Write};

use tsgraph_query::{Header, Listing, Summary};

use super::TextSink;

impl<W: Write> TextSink<'_, W> {
    /// After the counts line: results per depth, then which part is listed.
    pub(super) fn listing_lines(&mut self, header: &Header<'_>) -> io::Result<()> {
        let Some(listing) = header.listing else {
            return Ok(());
        };
        let by_depth = header.walk().map_or(&[][..], |walk| walk.by_depth);
        if by_depth.len() > 1 {
            self.out.write_all(b"by depth:")?;
            for (depth, count) in by_depth.iter().enumerate() {
                let sep = if depth == 0 { "" } else { "," };
                write!(self.out, "{sep} {}: {count}", depth + 1)?;
            }
            writeln!(self.out)?;
        }
        if !listing.exact && header.walk().is_some() {
            writeln!(
                self.out,
                "counts are lower bounds: the walk stopped at its node limit"
            )?;
        }
        write!(
            self.out,
            "listed: {}-{} of {}",
            listing.offset + usize::from(listing.listed > 0),
            listing.offset + listing.listed,
            listing.total
        )?;
        if header.walk().is_some() {
            self.out.write_all(b", nearest first")?;
        }
        if listing.budget != usize::MAX {
            write!(self.out, " (budget {} tokens)", listing.budget)?;
        }
        writeln!(self.out)?;
        if let Some(stale) = listing.stale_from {
            writeln!(
                self.out,
                "note: the offset was given at generation {stale}, the graph is at {}: results may have moved between pages",
                listing.generation
            )?;
        }
        Ok(())
    }

    /// After the rows: the files of the results left out after the page, and the options
    /// that continue the listing.
    pub(super) fn unlisted_lines(&mut self, listing: &Listing<'_>) -> io::Result<()> {
        let after = listing.after();
        if after == 0 {
            return Ok(());
        }
        write!(self.out, "\nnot listed: {after} more")?;
        if listing.unlisted_files.is_empty() {
            writeln!(self.out)?;
        } else {
            writeln!(self.out, ", by file:")?;
            for count in listing.unlisted_files {
                writeln!(self.out, "  {} ({})", count.file, count.nodes)?;
            }
            if listing.more_files > 0 {
                writeln!(
                    self.out,
                    "  and {} more files ({})",
                    listing.more_files, listing.more_nodes
                )?;
            }
        }
        if let Some(offset) = listing.next_offset() {
            writeln!(
                self.out,
                "next: offset {offset}, generation {}",
                listing.generation
            )?;
        }
        Ok(())
    }

    /// The last line: whether anything was left out, and what.
    pub(super) fn completeness_line(&mut self, summary: &Summary) -> io::Result<()> {
        if summary.complete() {
            return writeln!(self.out, "\ncomplete: every result is listed");
        }
        let mut reasons: Vec<&str> = Vec::new();
        if summary.partial {
            reasons.push("part of the results is listed");
        }
        if summary.truncated {
            reasons.push("the node limit cut the walk");
        }
        if summary.deeper().is_some() {
            reasons.push("more lies past the depth bound");
        }
        if summary.stopped {
            reasons.push("the output stopped early");
        }
        writeln!(self.out, "\nincomplete: {}", reasons.join("; "))
    }
}
