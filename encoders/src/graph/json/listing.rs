//! JSON of an answer listed in part: `"listing"` after the summary (which part, at which
//! generation), and after the results `"unlisted"` (the files of what the page leaves out),
//! `"moreFiles"`/`"moreNodes"` and `"next"`, the offset and generation that continue it.

use std::io::{self, Write};

use tsgraph_query::{Header, Listing};

use super::{JsonSink, string};

impl<W: Write> JsonSink<W> {
    /// `"listing":{"offset","listed","total","budget","exact","generation"[,"staleFrom"]}`.
    pub(super) fn listing_object(&mut self, header: &Header<'_>) -> io::Result<()> {
        let Some(listing) = header.listing else {
            return Ok(());
        };
        write!(
            self.out,
            ",\"listing\":{{\"offset\":{},\"listed\":{},\"total\":{},\"budget\":",
            listing.offset, listing.listed, listing.total
        )?;
        if listing.budget == usize::MAX {
            self.out.write_all(b"null")?;
        } else {
            write!(self.out, "{}", listing.budget)?;
        }
        write!(
            self.out,
            ",\"exact\":{},\"generation\":{}",
            listing.exact, listing.generation
        )?;
        if let Some(stale) = listing.stale_from {
            write!(self.out, ",\"staleFrom\":{stale}")?;
        }
        self.out.write_all(b"}")
    }

    /// Keeps what follows the results (written by `finish`, after the arrays close).
    pub(super) fn keep_unlisted(&mut self, listing: &Listing<'_>) -> io::Result<()> {
        let tail = &mut self.tail;
        tail.clear();
        tail.extend_from_slice(b",\"unlisted\":[");
        for (i, count) in listing.unlisted_files.iter().enumerate() {
            if i > 0 {
                tail.push(b',');
            }
            tail.extend_from_slice(b"{\"file\":");
            string(&mut *tail, count.file)?;
            write!(tail, ",\"nodes\":{}}}", count.nodes)?;
        }
        write!(
            tail,
            "],\"moreFiles\":{},\"moreNodes\":{}",
            listing.more_files, listing.more_nodes
        )?;
        match listing.next_offset() {
            Some(offset) => write!(
                tail,
                ",\"next\":{{\"offset\":{offset},\"generation\":{}}}",
                listing.generation
            ),
            None => tail.write_all(b",\"next\":null"),
        }
    }
}
