//! Each answer node's ID as a TOON cell, encoded once. The edges between results name every
//! node several times over, and writing a string as a cell scans all of its bytes to learn
//! whether it is quoted (a symbol's ID holds `:`, so most are); a node's later cells copy the
//! bytes its first one made.

use crate::toon::Writer;

/// The cells made for one answer, by the place of their node among the answer's nodes
/// (`EdgeInfo::places`, the same for the same node from `begin` to `finish`).
#[derive(Debug, Default)]
pub(super) struct IdCells {
    /// By place: where the cell lies in `bytes`; `None` until it is made.
    spans: Vec<Option<(usize, usize)>>,
    bytes: Vec<u8>,
    /// How many places the answer has at most (its node count and a root).
    places: usize,
}

/// The bytes reserved per place when the first cell is made: more than most IDs take, so
/// that an answer's cells are made without growing the buffer again (a budgeted answer's
/// sink is made anew for every page it measures).
const RESERVED_PER_PLACE: usize = 128;

/// The most places reserved for at once: a whole-graph export has a place per node, and its
/// buffers grow as its cells are made rather than all up front.
const RESERVED_PLACES: usize = 4096;

impl IdCells {
    /// Forgets every cell: a new answer, of up to `nodes` nodes and a root, numbers its
    /// nodes anew.
    pub(super) fn clear(&mut self, nodes: usize) {
        self.spans.clear();
        self.bytes.clear();
        self.places = nodes.saturating_add(1);
    }

    /// The cell of the node at `place`, whose ID (as written) is `id`: made by `writer` the
    /// first time, copied after that.
    pub(super) fn cell<W: std::io::Write>(
        &mut self,
        place: u32,
        id: &str,
        writer: &Writer<W>,
    ) -> &[u8] {
        let place = place as usize;
        if self.spans.is_empty() {
            // Sized once per answer, when its first edge is written (most answers list none).
            let places = self.places.max(place + 1).min(RESERVED_PLACES);
            self.spans.reserve(places);
            self.bytes.reserve(places * RESERVED_PER_PLACE);
        }
        if self.spans.len() <= place {
            self.spans.resize(place + 1, None);
        }
        let (start, end) = *self.spans[place].get_or_insert_with(|| {
            let start = self.bytes.len();
            writer.encode_str_cell(id, &mut self.bytes);
            (start, self.bytes.len())
        });
        debug_assert!(
            {
                let mut fresh = Vec::new();
                writer.encode_str_cell(id, &mut fresh);
                fresh == self.bytes[start..end]
            },
            "place {place} was given another ID earlier in the answer"
        );
        &self.bytes[start..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toon::Options;

    #[test]
    fn a_place_keeps_the_cell_its_first_id_made() {
        let writer = Writer::new(Vec::new(), Options::default());
        let mut cells = IdCells::default();
        assert_eq!(cells.cell(3, "src/a.ts:f", &writer), b"\"src/a.ts:f\"");
        assert_eq!(cells.cell(0, "plain", &writer), b"plain");
        // The same place within one answer is the same node: its cell is copied.
        assert_eq!(cells.cell(3, "src/a.ts:f", &writer), b"\"src/a.ts:f\"");
        // A new answer numbers its nodes anew.
        cells.clear(4);
        assert_eq!(cells.cell(3, "other", &writer), b"other");
    }
}
