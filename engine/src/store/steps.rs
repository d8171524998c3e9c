//! Adjacency as a traversal walks it: the kind, other end and resolution of each entry,
//! iterated by value. An [`AdjacencyGuard`](super::AdjacencyGuard) lends its entries for as
//! long as the guard lives; a graph algorithm written against petgraph's visit traits asks
//! for an iterator it owns, so [`Steps`] carries what it reads: a graph file's lists are
//! borrowed from the mapping (which outlives the snapshot's borrow), and only a list read
//! from a redb page (a node the overlay rewrote, or a store with no graph file) is copied.

use super::adjacency::ListView;
use super::mapped::InEntries;
use super::overlay::Overlay;
use crate::model::{EdgeKind, NodeKey, Resolution};

/// One adjacency entry without its facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The edge kind.
    pub kind: EdgeKind,
    /// The node at the other end (target for outgoing lists, source for incoming ones).
    pub other: NodeKey,
    /// CALLS: how the target was found. Outgoing lists say; a graph file's incoming entries
    /// (also where merged with the overlay) say as the file was built, and are `None` where
    /// the source's list changed since or the entry is the overlay's own; redb's incoming
    /// lists carry no facts and say `None`.
    pub resolution: Option<Resolution>,
}

/// The entries of one adjacency list, sorted by (kind, other end).
pub struct Steps<'s>(Source<'s>);

enum Source<'s> {
    /// An outgoing list in the graph file, checked when it was opened.
    Listed { list: ListView<'s>, next: usize },
    /// Incoming entries in the graph file, checked when they were opened, with the overlay
    /// that says which sources' call resolutions changed since.
    Mapped {
        entries: InEntries<'s>,
        overlay: &'s Overlay,
        next: usize,
    },
    /// Incoming entries gathered from redb or merged with the overlay (then with the file's
    /// entries, for the resolutions of calls whose source the overlay did not rewrite).
    Gathered {
        entries: std::vec::IntoIter<(EdgeKind, u32)>,
        file: Option<(InEntries<'s>, &'s Overlay)>,
    },
    /// An outgoing list copied out of a redb page.
    Copied(std::vec::IntoIter<Step>),
}

impl<'s> Steps<'s> {
    /// No entries.
    pub fn empty() -> Steps<'s> {
        Steps(Source::Copied(Vec::new().into_iter()))
    }

    pub(super) fn listed(list: ListView<'s>) -> Steps<'s> {
        Steps(Source::Listed { list, next: 0 })
    }

    pub(super) fn mapped(entries: InEntries<'s>, overlay: &'s Overlay) -> Steps<'s> {
        Steps(Source::Mapped {
            entries,
            overlay,
            next: 0,
        })
    }

    pub(super) fn gathered(
        entries: Vec<(EdgeKind, u32)>,
        file: Option<(InEntries<'s>, &'s Overlay)>,
    ) -> Steps<'s> {
        Steps(Source::Gathered {
            entries: entries.into_iter(),
            file,
        })
    }

    pub(super) fn copied(list: ListView<'_>) -> Steps<'s> {
        let steps: Vec<Step> = list.iter().map(|edge| outgoing(&edge)).collect();
        Steps(Source::Copied(steps.into_iter()))
    }
}

fn outgoing(edge: &super::EdgeRef<'_>) -> Step {
    Step {
        kind: edge.kind(),
        other: edge.other(),
        resolution: Some(edge.resolution()),
    }
}

fn incoming((kind, other): (EdgeKind, u32)) -> Step {
    Step {
        kind,
        other: NodeKey(other),
        resolution: None,
    }
}

impl Iterator for Steps<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        match &mut self.0 {
            Source::Listed { list, next } => {
                let step = (*next < list.len()).then(|| outgoing(&list.get(*next)))?;
                *next += 1;
                Some(step)
            }
            Source::Mapped {
                entries,
                overlay,
                next,
            } => {
                // Every kind byte was checked when the entries were opened; an entry that
                // reads as none ends the list rather than inventing an edge.
                let (kind, source, resolution) = (*next < entries.len())
                    .then(|| entries.entry(*next))
                    .flatten()?;
                *next += 1;
                Some(Step {
                    resolution: current(resolution, source, overlay),
                    ..incoming((kind, source))
                })
            }
            Source::Gathered { entries, file } => {
                let entry = entries.next()?;
                // An entry the file has (binary search) keeps the file's resolution. The
                // file's entries were checked whole when they were merged.
                let resolution = file.and_then(|(mapped, overlay)| {
                    let (_, _, resolution) = mapped.find(entry.0, entry.1).ok().flatten()?;
                    current(resolution, entry.1, overlay)
                });
                Some(Step {
                    resolution,
                    ..incoming(entry)
                })
            }
            Source::Copied(steps) => steps.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = match &self.0 {
            Source::Listed { list, next } => list.len() - next,
            Source::Mapped { entries, next, .. } => entries.len() - next,
            Source::Gathered { entries, .. } => entries.len(),
            Source::Copied(steps) => steps.len(),
        };
        (left, Some(left))
    }
}

impl ExactSizeIterator for Steps<'_> {}

/// A graph file entry's call `resolution`, unless the overlay rewrote its `source`'s list
/// since the file (then `None`, and a reader asks that list).
fn current(resolution: Option<Resolution>, source: u32, overlay: &Overlay) -> Option<Resolution> {
    resolution.filter(|_| !overlay.rewrote(source))
}
