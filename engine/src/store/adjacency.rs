//! The stored form of an outgoing adjacency list.
//!
//! A traversal reads the kind and other end of every edge of every list it passes, and the
//! call sites or imported names of only the few edges it reports. So the list keeps the first
//! part in fixed-size entries that need no archive validation, and the rest beside them as one
//! small rkyv archive per edge, validated only when that edge's facts are asked for:
//!
//! ```text
//! u32 LE   n, the number of entries
//! n × 11   kind u8, other u32 LE, context u8, resolution u8, detail_end u32 LE
//! …        the details: entry i's is the rkyv archive of its `EdgeDetail` (count, sites,
//!          names, type_only) between entry i-1's detail_end (0 for the first) and its own,
//!          both relative to the start of this part; an empty range is the default detail
//! ```
//!
//! Entries are strictly ascending by (kind, other), so a list holds each edge once and one
//! edge is found by binary search. CONTAINS, EXTENDS, IMPLEMENTS and USES_TYPE edges have
//! nothing beyond kind, ends and context and cost their 11 bytes; CALLS, INCLUDES and
//! REFERENCES carry a count and sites, IMPORTS its sites, names and `import type`.

use rkyv::{Archive, Deserialize, Serialize};

use crate::error::StoreError;
use crate::model::{EdgeKind, NodeKey, Resolution, UseContext};
use crate::record::{EdgeEntry, EdgeFacts};

const HEADER: usize = 4;
const ENTRY: usize = 11;

/// The facts of an edge that do not fit in its fixed-size entry.
#[derive(Archive, Serialize, Deserialize, Debug, Default, PartialEq)]
pub(crate) struct EdgeDetail {
    count: u32,
    sites: Vec<u32>,
    names: Vec<String>,
    type_only: bool,
}

impl EdgeDetail {
    fn is_empty(&self) -> bool {
        self.count == 0 && self.sites.is_empty() && self.names.is_empty() && !self.type_only
    }
}

/// Writes `entries` (sorted by (kind, other), each edge once) as a stored list into `out`.
/// Their sites and names are moved out, not copied.
pub(crate) fn encode(
    entries: &mut [EdgeEntry],
    out: &mut rkyv::util::AlignedVec<16>,
) -> Result<(), StoreError> {
    debug_assert!(
        entries
            .windows(2)
            .all(|pair| (pair[0].kind, pair[0].other) < (pair[1].kind, pair[1].other)),
        "adjacency entries must be sorted and distinct"
    );
    let count = u32::try_from(entries.len())
        .map_err(|_| StoreError::TooLarge("more than u32::MAX edges from one node".into()))?;
    out.clear();
    out.extend_from_slice(&count.to_le_bytes());
    out.resize(HEADER + ENTRY * entries.len(), 0);
    let details = out.len();
    for (index, entry) in entries.iter_mut().enumerate() {
        let facts = &mut entry.facts;
        let detail = EdgeDetail {
            count: facts.count,
            sites: std::mem::take(&mut facts.sites),
            names: std::mem::take(&mut facts.names),
            type_only: facts.type_only,
        };
        if !detail.is_empty() {
            rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&detail, &mut *out)
                .map_err(|err| StoreError::corrupted("adjacency list", err))?;
        }
        let end = u32::try_from(out.len() - details)
            .map_err(|_| StoreError::TooLarge("edge facts of one node past 4 GiB".into()))?;
        let at = HEADER + ENTRY * index;
        let fixed = &mut out[at..at + ENTRY];
        fixed[0] = entry.kind;
        fixed[1..5].copy_from_slice(&entry.other.to_le_bytes());
        fixed[5] = facts.context;
        fixed[6] = facts.resolution;
        fixed[7..11].copy_from_slice(&end.to_le_bytes());
    }
    Ok(())
}

fn corrupt(detail: String) -> StoreError {
    StoreError::corrupted("adjacency list", detail)
}

/// A stored list whose fixed part was checked: sizes, kinds, order and detail ranges.
#[derive(Clone, Copy)]
pub(crate) struct ListView<'a> {
    fixed: &'a [u8],
    details: &'a [u8],
}

impl<'a> ListView<'a> {
    /// The list of a node with no outgoing edges.
    pub(crate) const EMPTY: ListView<'static> = ListView {
        fixed: &[],
        details: &[],
    };

    /// Checks `bytes` as a stored list: sizes, and every entry's kind, order and detail
    /// range. The details themselves are checked when read.
    pub(crate) fn parse(bytes: &'a [u8]) -> Result<ListView<'a>, StoreError> {
        let OpenedList(view) = OpenedList::open(bytes)?;
        let mut previous: Option<(u8, u32)> = None;
        let mut detail_start = 0;
        for index in 0..view.len() {
            let (kind, other, end) = view.fixed_at(index);
            if EdgeKind::from_u8(kind).is_none() {
                return Err(corrupt(format!("edge kind {kind}")));
            }
            if previous.is_some_and(|p| p >= (kind, other)) {
                return Err(corrupt(format!("entry {index} out of order")));
            }
            if end < detail_start || end > view.details.len() {
                return Err(corrupt(format!("entry {index}: detail end {end}")));
            }
            previous = Some((kind, other));
            detail_start = end;
        }
        if detail_start != view.details.len() {
            return Err(corrupt(format!(
                "{} bytes after the details",
                view.details.len() - detail_start
            )));
        }
        Ok(view)
    }

    pub(crate) fn len(&self) -> usize {
        self.fixed.len() / ENTRY
    }

    /// Kind byte, other end and detail end of entry `index`.
    fn fixed_at(&self, index: usize) -> (u8, u32, usize) {
        let e = &self.fixed[index * ENTRY..(index + 1) * ENTRY];
        let other = u32::from_le_bytes([e[1], e[2], e[3], e[4]]);
        let end = u32::from_le_bytes([e[7], e[8], e[9], e[10]]) as usize;
        (e[0], other, end)
    }

    /// Entry `index` (below [`ListView::len`]).
    pub(crate) fn get(&self, index: usize) -> EdgeRef<'a> {
        let (kind, other, end) = self.fixed_at(index);
        let start = match index {
            0 => 0,
            _ => self.fixed_at(index - 1).2,
        };
        let at = index * ENTRY;
        EdgeRef {
            // Kinds were checked by `parse`; the fallback is never taken.
            kind: EdgeKind::from_u8(kind).unwrap_or(EdgeKind::References),
            other,
            context: self.fixed[at + 5],
            resolution: self.fixed[at + 6],
            detail: &self.details[start..end],
        }
    }

    /// Every entry, in order.
    pub(crate) fn iter(self) -> impl ExactSizeIterator<Item = EdgeRef<'a>> {
        (0..self.len()).map(move |index| self.get(index))
    }

    /// Every entry with its facts as owned values (a writer changing the list).
    pub(crate) fn to_entries(self) -> Result<Vec<EdgeEntry>, StoreError> {
        self.iter()
            .map(|edge| {
                Ok(EdgeEntry {
                    kind: edge.kind.as_u8(),
                    other: edge.other,
                    facts: edge.facts()?,
                })
            })
            .collect()
    }
}

/// A stored list of which only the sizes were checked, for a reader that looks up one edge
/// in a long list without checking every entry: it offers only [`OpenedList::find`], which
/// checks the entry it returns.
pub(crate) struct OpenedList<'a>(ListView<'a>);

impl<'a> OpenedList<'a> {
    /// Checks only the sizes of `bytes` as a stored list.
    pub(crate) fn open(bytes: &'a [u8]) -> Result<OpenedList<'a>, StoreError> {
        let count = bytes
            .get(..HEADER)
            .map(|n| u32::from_le_bytes([n[0], n[1], n[2], n[3]]) as usize)
            .ok_or_else(|| corrupt(format!("{} bytes", bytes.len())))?;
        let fixed_end = count
            .checked_mul(ENTRY)
            .and_then(|size| size.checked_add(HEADER))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| corrupt(format!("{count} entries in {} bytes", bytes.len())))?;
        Ok(OpenedList(ListView {
            fixed: &bytes[HEADER..fixed_end],
            details: &bytes[fixed_end..],
        }))
    }

    /// The entry of `kind` to `other`, by binary search; only the entry found is checked.
    /// The order is trusted (a list whose order was damaged may miss an edge it has: the
    /// store's page checksums are what keep its bytes as written).
    pub(crate) fn find(
        &self,
        kind: EdgeKind,
        other: NodeKey,
    ) -> Result<Option<EdgeRef<'a>>, StoreError> {
        let wanted = (kind.as_u8(), other.0);
        let (mut low, mut high) = (0, self.0.len());
        while low < high {
            let middle = low + (high - low) / 2;
            let (k, o, _) = self.0.fixed_at(middle);
            match (k, o).cmp(&wanted) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return self.checked(middle).map(Some),
            }
        }
        Ok(None)
    }

    /// Entry `index` (below [`ListView::len`]) after checking its detail range (its kind was
    /// compared with a valid one).
    fn checked(&self, index: usize) -> Result<EdgeRef<'a>, StoreError> {
        let (_, _, end) = self.0.fixed_at(index);
        let start = match index {
            0 => 0,
            _ => self.0.fixed_at(index - 1).2,
        };
        if start > end || end > self.0.details.len() {
            return Err(corrupt(format!("entry {index}: detail end {end}")));
        }
        Ok(self.0.get(index))
    }
}

/// One edge of an adjacency list, read in place: its kind, other end, use context and
/// resolution. The call count, sites and imported names are read through
/// [`EdgeRef::view`]. Incoming edges carry no facts (they live once, with the source).
#[derive(Clone, Copy)]
pub struct EdgeRef<'a> {
    kind: EdgeKind,
    other: u32,
    context: u8,
    resolution: u8,
    detail: &'a [u8],
}

impl<'a> EdgeRef<'a> {
    pub(crate) fn incoming(kind: EdgeKind, other: u32) -> EdgeRef<'a> {
        EdgeRef {
            kind,
            other,
            context: 0,
            resolution: 0,
            detail: &[],
        }
    }

    /// The edge kind.
    pub fn kind(&self) -> EdgeKind {
        self.kind
    }
    /// The node at the other end (target for outgoing lists, source for incoming ones).
    pub fn other(&self) -> NodeKey {
        NodeKey(self.other)
    }
    /// USES_TYPE / REFERENCES: where.
    pub fn context(&self) -> UseContext {
        UseContext::from_stored(self.context)
    }
    /// CALLS: how the target was found.
    pub fn resolution(&self) -> Resolution {
        Resolution::from_stored(self.resolution)
    }
    /// Checks the edge's stored detail and views every fact in place.
    pub fn view(&self) -> Result<EdgeView<'a>, StoreError> {
        let detail = match self.detail {
            [] => None,
            bytes => Some(
                rkyv::access::<ArchivedEdgeDetail, rkyv::rancor::Error>(bytes)
                    .map_err(|err| StoreError::corrupted("edge facts", err))?,
            ),
        };
        Ok(EdgeView {
            edge: *self,
            detail,
        })
    }
    /// Every fact as an owned value (the defaults on incoming lists).
    pub fn facts(&self) -> Result<EdgeFacts, StoreError> {
        let view = self.view()?;
        Ok(EdgeFacts {
            count: view.count(),
            sites: view.sites().collect(),
            names: view.names().map(str::to_owned).collect(),
            type_only: view.type_only(),
            context: self.context,
            resolution: self.resolution,
        })
    }
}

impl std::fmt::Debug for EdgeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EdgeRef")
            .field("kind", &self.kind)
            .field("other", &self.other)
            .field("detail_bytes", &self.detail.len())
            .finish()
    }
}

/// One edge with all its facts, checked and read in place.
#[derive(Clone, Copy)]
pub struct EdgeView<'a> {
    edge: EdgeRef<'a>,
    detail: Option<&'a ArchivedEdgeDetail>,
}

impl<'a> EdgeView<'a> {
    /// The edge kind.
    pub fn kind(&self) -> EdgeKind {
        self.edge.kind
    }
    /// The node at the other end.
    pub fn other(&self) -> NodeKey {
        self.edge.other()
    }
    /// USES_TYPE / REFERENCES: where.
    pub fn context(&self) -> UseContext {
        self.edge.context()
    }
    /// CALLS: how the target was found.
    pub fn resolution(&self) -> Resolution {
        self.edge.resolution()
    }
    /// CALLS, INCLUDES, REFERENCES: how many times the source uses the target (0 on
    /// incoming lists).
    pub fn count(&self) -> u32 {
        self.detail.map_or(0, |d| d.count.to_native())
    }
    /// The lines of those uses (of the import statements for IMPORTS), ascending; empty on
    /// incoming lists.
    pub fn sites(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        let sites: &'a [rkyv::rend::unaligned::u32_ule] =
            self.detail.map_or(&[], |d| d.sites.as_slice());
        sites.iter().map(|line| line.to_native())
    }
    /// IMPORTS: imported names.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'a str> + 'a {
        let names: &'a [rkyv::string::ArchivedString] =
            self.detail.map_or(&[], |d| d.names.as_slice());
        names.iter().map(|name| name.as_str())
    }
    /// IMPORTS: `import type`.
    pub fn type_only(&self) -> bool {
        self.detail.is_some_and(|d| d.type_only)
    }
}

impl std::fmt::Debug for EdgeView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EdgeView")
            .field("kind", &self.kind())
            .field("other", &self.edge.other)
            .field("count", &self.count())
            .field("sites", &self.sites().collect::<Vec<_>>())
            .field("names", &self.names().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: EdgeKind, other: u32, facts: EdgeFacts) -> EdgeEntry {
        EdgeEntry {
            kind: kind.as_u8(),
            other,
            facts,
        }
    }

    fn sample() -> Vec<EdgeEntry> {
        vec![
            entry(EdgeKind::Contains, 4, EdgeFacts::default()),
            entry(
                EdgeKind::Imports,
                2,
                EdgeFacts {
                    names: vec!["default".into(), "*".into()],
                    type_only: true,
                    ..EdgeFacts::default()
                },
            ),
            entry(
                EdgeKind::Calls,
                1,
                EdgeFacts {
                    count: 3,
                    sites: vec![7, 9],
                    resolution: Resolution::Dispatch.as_u8(),
                    ..EdgeFacts::default()
                },
            ),
            entry(
                EdgeKind::UsesType,
                9,
                EdgeFacts {
                    context: UseContext::Return.as_u8(),
                    ..EdgeFacts::default()
                },
            ),
        ]
    }

    fn encoded(entries: &[EdgeEntry]) -> Vec<u8> {
        let mut out = rkyv::util::AlignedVec::new();
        encode(&mut entries.to_vec(), &mut out).unwrap();
        out.to_vec()
    }

    #[test]
    fn a_list_reads_back_as_written_and_facts_only_cost_bytes_where_there_are_some() {
        let entries = sample();
        let bytes = encoded(&entries);
        let view = ListView::parse(&bytes).unwrap();
        assert_eq!(view.to_entries().unwrap(), entries);
        // CONTAINS and USES_TYPE have no detail.
        assert!(view.get(0).detail.is_empty());
        assert!(view.get(3).detail.is_empty());
        assert!(!view.get(1).detail.is_empty());
        let opened = OpenedList::open(&bytes).unwrap();
        let calls = opened.find(EdgeKind::Calls, NodeKey(1)).unwrap().unwrap();
        let calls = calls.view().unwrap();
        assert_eq!(
            (calls.count(), calls.sites().collect::<Vec<_>>()),
            (3, vec![7, 9])
        );
        assert_eq!(calls.resolution(), Resolution::Dispatch);
        assert!(opened.find(EdgeKind::Calls, NodeKey(2)).unwrap().is_none());
        assert!(
            opened
                .find(EdgeKind::Extends, NodeKey(1))
                .unwrap()
                .is_none()
        );
        let found = opened.find(EdgeKind::Imports, NodeKey(2)).unwrap().unwrap();
        let names: Vec<&str> = found.view().unwrap().names().collect();
        assert_eq!(names, ["default", "*"]);
        // A found entry whose range is bad is refused: its end past the details, or below
        // the end of the entry before it.
        let mut past = bytes.clone();
        past[HEADER + ENTRY + 10] = 0xff; // the IMPORTS entry's detail end, high byte
        let opened = OpenedList::open(&past).unwrap();
        assert!(opened.find(EdgeKind::Imports, NodeKey(2)).is_err());
        let mut backwards = bytes.clone();
        backwards[HEADER + 2 * ENTRY + 7..HEADER + 2 * ENTRY + 11].fill(0); // CALLS ends at 0
        let opened = OpenedList::open(&backwards).unwrap();
        let err = opened
            .find(EdgeKind::Calls, NodeKey(1))
            .expect_err("refused");
        assert!(err.to_string().contains("detail end 0"), "{err}");
        let empty = encoded(&[]);
        assert_eq!(ListView::parse(&empty).unwrap().len(), 0);
    }

    #[test]
    fn damaged_lists_are_refused_before_any_entry_is_read() {
        let bytes = encoded(&sample());
        let refused = |bytes: &[u8]| ListView::parse(bytes).err().map(|e| e.to_string());
        assert!(refused(&bytes[..3]).unwrap().contains("3 bytes"));
        assert!(refused(&bytes[..20]).unwrap().contains("4 entries"));
        let mut bad_kind = bytes.clone();
        bad_kind[HEADER] = 200;
        assert!(refused(&bad_kind).unwrap().contains("edge kind 200"));
        let mut unordered = bytes.clone();
        unordered[HEADER + ENTRY] = 0; // IMPORTS → 2 becomes CONTAINS → 2, below CONTAINS → 4
        assert!(refused(&unordered).unwrap().contains("out of order"));
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert!(refused(&trailing).unwrap().contains("after the details"));
        let mut past = bytes.clone();
        past[HEADER + 10] = 0xff; // the high byte of the first detail end
        assert!(refused(&past).unwrap().contains("detail end"));
    }

    #[test]
    fn a_damaged_detail_is_an_error_when_read_not_a_wrong_answer() {
        let mut bytes = encoded(&sample());
        let view = ListView::parse(&bytes).unwrap();
        let (_, _, calls_start) = view.fixed_at(1);
        let (_, _, calls_end) = view.fixed_at(2);
        let details = HEADER + ENTRY * view.len();
        bytes[details + calls_start..details + calls_end].fill(0xff);
        let view = ListView::parse(&bytes).unwrap();
        // The IMPORTS detail just before the damaged one still reads.
        let imports = view.get(1).view().unwrap();
        assert_eq!(imports.names().count(), 2);
        let err = view.get(2).view().expect_err("refused");
        assert!(err.is_corrupted(), "{err}");
    }
}
