//! TOON of an answer listed in part: the totals of the whole answer before the rows, the
//! files of what the page leaves out after them, and how to continue.

use std::io::Write;

use tsgraph_query::{Header, Listing, QueryKind};

use super::ToonSink;
use crate::toon::EncodeError;

impl<W: Write> ToonSink<W> {
    /// The totals of a listed answer (`total`, `direct`, `transitive`, `depths`, `files`,
    /// `packages`, `rows` when results repeat across sections, `exact: false` for lower
    /// bounds), then which part is listed.
    pub(super) fn listing_header(&mut self, header: &Header<'_>) -> Result<(), EncodeError> {
        let Some(listing) = header.listing else {
            return Ok(());
        };
        let kind = header.kind();
        let w = self.writer()?;
        if let Some(walk) = header.walk() {
            let counts = walk.counts;
            w.field("total", counts.direct + counts.transitive)?;
            w.field("direct", counts.direct)?;
            if counts.transitive > 0 {
                w.field("transitive", counts.transitive)?;
            }
            if walk.by_depth.len() > 1 {
                w.key("depths")?;
                w.begin_inline(walk.by_depth.len())?;
                for count in walk.by_depth {
                    w.value(*count)?;
                }
                w.end()?;
            }
            w.field("files", counts.files)?;
            if counts.packages > 1 {
                w.field("packages", counts.packages)?;
            }
            // A result reached from several sections (methods of a class) is a row in each:
            // the listing counts rows.
            if listing.total != counts.direct + counts.transitive {
                w.field("rows", listing.total)?;
            }
        } else if kind != QueryKind::Search {
            // Search says its total and offset already.
            w.field("total", listing.total)?;
        }
        if !listing.exact && header.walk().is_some() {
            w.field("exact", false)?;
        }
        w.field("listed", listing.listed)?;
        if listing.offset > 0 && kind != QueryKind::Search {
            w.field("offset", listing.offset)?;
        }
        if let Some(stale) = listing.stale_from {
            w.field("staleFrom", stale)?;
        }
        Ok(())
    }

    /// After the rows: the files of the results the page leaves out, most first
    /// (`unlisted[n]{file,nodes}`, then `moreFiles`/`moreNodes` beyond them) and `next`, the
    /// offset and generation that continue the listing.
    pub(super) fn unlisted_rows(&mut self, listing: &Listing<'_>) -> Result<(), EncodeError> {
        self.close_sections()?;
        let file = self.file.clone();
        let w = self.writer()?;
        if !listing.unlisted_files.is_empty() {
            w.key("unlisted")?;
            w.begin_table(listing.unlisted_files.len(), &["file", "nodes"])?;
            for count in listing.unlisted_files {
                w.row_begin()?;
                // A file hoisted to the top is the one every result shares.
                w.cell_str(if file.as_deref() == Some(count.file) {
                    "-"
                } else {
                    count.file
                })?;
                w.cell_u64(count.nodes as u64)?;
                w.row_end()?;
            }
            w.end()?;
        }
        if listing.more_files > 0 {
            w.field("moreFiles", listing.more_files)?;
            w.field("moreNodes", listing.more_nodes)?;
        }
        if let Some(offset) = listing.next_offset() {
            w.key("next")?;
            w.begin_object()?;
            w.field("offset", offset)?;
            w.field("generation", listing.generation)?;
            w.end()?;
        }
        Ok(())
    }
}
