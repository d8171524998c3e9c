//! Tabular detection: whether the objects of an array (or the entry values of an object) share
//! one column layout, and writing that layout as a header and as rows.
//!
//! The layout comes from the first object: a primitive value makes a leaf column, a non-empty
//! object a column group (`customer{name,country}`) built the same way, recursively; an array
//! or an empty object rules the table out. Every other object must have exactly the same keys
//! at every level (in any order), primitives under leaves and non-empty objects under groups.
//! Objects whose keys come in the header's order — every struct — are checked and written in
//! one linear walk each; other orders fall back to a search per key.

use std::io;

use super::tape::{Corrupt, Key, Node, Tape};
use crate::toon::EncodeError;
use crate::toon::writer::Writer;

/// One column in pre-order: a group is followed by its columns, and `end` is the index past
/// its subtree (for a leaf, its own index + 1).
#[derive(Debug, Clone, Copy)]
struct Col<'t> {
    key: Key<'t>,
    end: usize,
    /// Direct child columns; 0 for a leaf.
    width: usize,
}

/// The column layout of the table being checked or written, with scratch space reused across
/// the arrays of one document.
pub(crate) struct Schema<'t> {
    cols: Vec<Col<'t>>,
    /// Top-level columns.
    width: usize,
    /// `seen[c] == stamp` marks column `c` as matched by the object being checked out of order.
    seen: Vec<u32>,
    stamp: u32,
    /// Every checked object had its keys in column order, so rows can be written without
    /// looking at keys.
    ordered: bool,
}

/// A row that does not match the layout it was checked against: an encoder bug.
const BROKEN: Corrupt = Corrupt;

impl<'t> Schema<'t> {
    pub(crate) fn new() -> Self {
        Schema {
            cols: Vec::new(),
            width: 0,
            seen: Vec::new(),
            stamp: 0,
            ordered: true,
        }
    }

    /// If the array whose content starts at `body` is tabular, its number of rows; the
    /// layout is kept for [`write_header`](Self::write_header) and
    /// [`write_row`](Self::write_row).
    pub(crate) fn fit_array(
        &mut self,
        tape: &'t Tape,
        body: usize,
    ) -> Result<Option<usize>, Corrupt> {
        let mut pos = body;
        let Some(Node::Object(first)) = tape.next_item(&mut pos)? else {
            return Ok(None);
        };
        if !self.build_root(tape, first)? {
            return Ok(None);
        }
        let mut count = 1;
        if tape.is_uniform(body) {
            // The serializer saw every element with the first one's keys, in order, and only
            // primitive values: what the check below would find, without the walk.
            while tape.next_item(&mut pos)?.is_some() {
                count += 1;
            }
            return Ok(Some(count));
        }
        while let Some(node) = tape.next_item(&mut pos)? {
            if !self.fits(tape, 0, self.cols.len(), self.width, node)? {
                return Ok(None);
            }
            count += 1;
        }
        Ok(Some(count))
    }

    /// If the object whose content starts at `body` takes the keyed table form (two or more
    /// entries whose values share a layout), its number of entries.
    pub(crate) fn fit_object(
        &mut self,
        tape: &'t Tape,
        body: usize,
    ) -> Result<Option<usize>, Corrupt> {
        let mut pos = body;
        let Some((_, Node::Object(first))) = tape.next_field(&mut pos)? else {
            return Ok(None);
        };
        if tape.at_end(pos)? || !self.build_root(tape, first)? {
            return Ok(None);
        }
        let mut count = 1;
        while let Some((_, node)) = tape.next_field(&mut pos)? {
            if !self.fits(tape, 0, self.cols.len(), self.width, node)? {
                return Ok(None);
            }
            count += 1;
        }
        Ok(Some(count))
    }

    /// Writes the checked layout's columns into an open table header.
    pub(crate) fn write_header<W: io::Write>(
        &self,
        tape: &'t Tape,
        w: &mut Writer<W>,
    ) -> Result<(), EncodeError> {
        self.write_columns(tape, w, 0, self.cols.len())
    }

    /// Writes the cells of one object of the checked table into an open row.
    pub(crate) fn write_row<W: io::Write>(
        &self,
        tape: &'t Tape,
        w: &mut Writer<W>,
        body: usize,
    ) -> Result<(), EncodeError> {
        if self.ordered && self.cols.len() == self.width {
            // Flat columns and every row in column order (every struct): the fields are the
            // cells, one after the other.
            return Ok(tape.for_each_flat_value(body, |atom| w.cell_verified(atom))?);
        }
        self.write_cells(tape, w, 0, self.cols.len(), body)
    }

    fn build_root(&mut self, tape: &'t Tape, body: usize) -> Result<bool, Corrupt> {
        self.cols.clear();
        self.ordered = true;
        match self.build(tape, body)? {
            Some(width) => {
                self.width = width;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Appends the columns of the object at `body`; `None` if it cannot head a table.
    fn build(&mut self, tape: &'t Tape, body: usize) -> Result<Option<usize>, Corrupt> {
        let start = self.cols.len();
        let mut width = 0;
        let mut pos = body;
        while let Some((key, node)) = tape.next_field(&mut pos)? {
            // A repeated key would make a repeated column name.
            if self.find(tape, start, self.cols.len(), key).is_some() {
                return Ok(None);
            }
            let at = self.cols.len();
            self.cols.push(Col {
                key,
                end: at + 1,
                width: 0,
            });
            let group_width = match node {
                Node::Object(inner) => match self.build(tape, inner)? {
                    Some(group_width) => group_width,
                    None => return Ok(None),
                },
                Node::Array(_) => return Ok(None),
                _ => 0,
            };
            let end = self.cols.len();
            if let Some(col) = self.cols.get_mut(at) {
                col.end = end;
                col.width = group_width;
            }
            width += 1;
        }
        // Empty objects neither head a table nor make a column group.
        Ok((width > 0).then_some(width))
    }

    /// The column among the siblings `first..end` named `key`.
    fn find(&self, tape: &Tape, first: usize, end: usize, key: Key<'_>) -> Option<usize> {
        let mut c = first;
        while c < end {
            let col = self.cols.get(c)?;
            if tape.key_eq(col.key, key) {
                return Some(c);
            }
            c = col.end;
        }
        None
    }

    /// Whether `node` is an object matching the `width` sibling columns `first..end`.
    fn fits(
        &mut self,
        tape: &'t Tape,
        first: usize,
        end: usize,
        width: usize,
        node: Node<'t>,
    ) -> Result<bool, Corrupt> {
        let Node::Object(body) = node else {
            return Ok(false);
        };
        let mut pos = body;
        let mut c = first;
        let mut count = 0;
        while !tape.at_end(pos)? {
            let (key, value_at) = tape.key(pos)?;
            let Some(col) = self.cols.get(c).copied().filter(|_| c < end) else {
                // More fields than columns.
                return Ok(false);
            };
            if !tape.key_eq(col.key, key) {
                return self.fits_any_order(tape, first, end, width, body);
            }
            if col.width == 0 {
                match tape.skip_primitive(value_at)? {
                    Some(next) => pos = next,
                    None => return Ok(false),
                }
            } else {
                let (value, next) = tape.node(value_at)?;
                if !self.fits(tape, c + 1, col.end, col.width, value)? {
                    return Ok(false);
                }
                pos = next;
            }
            c = col.end;
            count += 1;
        }
        Ok(count == width)
    }

    /// [`fits`](Self::fits) for objects whose keys are not in the header's order.
    fn fits_any_order(
        &mut self,
        tape: &'t Tape,
        first: usize,
        end: usize,
        width: usize,
        body: usize,
    ) -> Result<bool, Corrupt> {
        self.ordered = false;
        let stamp = self.next_stamp();
        let mut pos = body;
        let mut count = 0;
        while let Some((key, value)) = tape.next_field(&mut pos)? {
            count += 1;
            if count > width {
                return Ok(false);
            }
            let Some(c) = self.find(tape, first, end, key) else {
                return Ok(false);
            };
            match self.seen.get_mut(c) {
                // The same key twice: some column is missing.
                Some(mark) if *mark == stamp => return Ok(false),
                Some(mark) => *mark = stamp,
                None => return Err(BROKEN),
            }
            let Some(col) = self.cols.get(c).copied() else {
                return Err(BROKEN);
            };
            if !self.cell_fits(tape, c, col, value)? {
                return Ok(false);
            }
        }
        Ok(count == width)
    }

    fn cell_fits(
        &mut self,
        tape: &'t Tape,
        at: usize,
        col: Col<'t>,
        value: Node<'t>,
    ) -> Result<bool, Corrupt> {
        if col.width == 0 {
            Ok(!matches!(value, Node::Object(_) | Node::Array(_)))
        } else {
            self.fits(tape, at + 1, col.end, col.width, value)
        }
    }

    fn next_stamp(&mut self) -> u32 {
        if self.seen.len() < self.cols.len() {
            self.seen.resize(self.cols.len(), 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    fn write_columns<W: io::Write>(
        &self,
        tape: &'t Tape,
        w: &mut Writer<W>,
        first: usize,
        end: usize,
    ) -> Result<(), EncodeError> {
        let mut c = first;
        while let Some(col) = self.cols.get(c).filter(|_| c < end) {
            let name = tape.key_bytes(col.key);
            if col.width == 0 {
                w.column_bytes(name)?;
            } else {
                w.begin_group_bytes(name)?;
                self.write_columns(tape, w, c + 1, col.end)?;
                w.end_group()?;
            }
            c = col.end;
        }
        Ok(())
    }

    fn write_cells<W: io::Write>(
        &self,
        tape: &'t Tape,
        w: &mut Writer<W>,
        first: usize,
        end: usize,
        body: usize,
    ) -> Result<(), EncodeError> {
        // `cursor` follows the object's fields; while they come in column order each column's
        // value is simply the next field.
        let mut cursor = body;
        let mut c = first;
        while let Some(col) = self.cols.get(c).filter(|_| c < end) {
            let value_at = if self.ordered {
                tape.skip_key(cursor)?
            } else {
                match next_value_if(tape, cursor, col.key)? {
                    Some(at) => at,
                    None => lookup(tape, body, col.key)?.ok_or(BROKEN)?,
                }
            };
            if col.width == 0 {
                let (atom, next) = tape.atom(value_at)?.ok_or(BROKEN)?;
                w.cell_atom(atom)?;
                cursor = next;
            } else {
                let (Node::Object(inner), next) = tape.node(value_at)? else {
                    return Err(BROKEN.into());
                };
                self.write_cells(tape, w, c + 1, col.end, inner)?;
                cursor = next;
            }
            c = col.end;
        }
        Ok(())
    }
}

/// The position of the value of the field at `pos` if that field is named `key`.
#[inline]
fn next_value_if(tape: &Tape, pos: usize, key: Key<'_>) -> Result<Option<usize>, Corrupt> {
    if tape.at_end(pos)? {
        return Ok(None);
    }
    let (k, value_at) = tape.key(pos)?;
    Ok(tape.key_eq(k, key).then_some(value_at))
}

/// The position of the value of field `key` in the object at `body`.
fn lookup(tape: &Tape, body: usize, key: Key<'_>) -> Result<Option<usize>, Corrupt> {
    let mut pos = body;
    while !tape.at_end(pos)? {
        let (k, value_at) = tape.key(pos)?;
        if tape.key_eq(k, key) {
            return Ok(Some(value_at));
        }
        pos = tape.node(value_at)?.1;
    }
    Ok(None)
}
