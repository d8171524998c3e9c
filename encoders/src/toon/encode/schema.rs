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

use super::tape::{Key, Node, Tape};
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
}

const BROKEN: EncodeError = EncodeError::Internal("table row does not match its checked layout");

impl<'t> Schema<'t> {
    pub(crate) fn new() -> Self {
        Schema {
            cols: Vec::new(),
            width: 0,
            seen: Vec::new(),
            stamp: 0,
        }
    }

    /// Whether the array whose content starts at `body` is tabular; if so the layout is kept
    /// for [`write_header`](Self::write_header) and [`write_row`](Self::write_row).
    pub(crate) fn fit_array(&mut self, tape: &'t Tape, body: usize) -> Result<bool, EncodeError> {
        let mut pos = body;
        let Some(Node::Object(first)) = tape.next_item(&mut pos)? else {
            return Ok(false);
        };
        if !self.build_root(tape, first)? {
            return Ok(false);
        }
        while let Some(node) = tape.next_item(&mut pos)? {
            if !self.fits(tape, 0, self.cols.len(), self.width, node)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// If the object whose content starts at `body` takes the keyed table form (two or more
    /// entries whose values share a layout), its number of entries.
    pub(crate) fn fit_object(
        &mut self,
        tape: &'t Tape,
        body: usize,
    ) -> Result<Option<usize>, EncodeError> {
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
        self.write_cells(tape, w, 0, self.cols.len(), body)
    }

    fn build_root(&mut self, tape: &'t Tape, body: usize) -> Result<bool, EncodeError> {
        self.cols.clear();
        match self.build(tape, body)? {
            Some(width) => {
                self.width = width;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Appends the columns of the object at `body`; `None` if it cannot head a table.
    fn build(&mut self, tape: &'t Tape, body: usize) -> Result<Option<usize>, EncodeError> {
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
    ) -> Result<bool, EncodeError> {
        let Node::Object(body) = node else {
            return Ok(false);
        };
        let mut pos = body;
        let mut c = first;
        let mut count = 0;
        while let Some((key, value)) = tape.next_field(&mut pos)? {
            if c >= end {
                return Ok(false);
            }
            let Some(col) = self.cols.get(c).copied() else {
                return Ok(false);
            };
            if !tape.key_eq(col.key, key) {
                return self.fits_any_order(tape, first, end, width, body);
            }
            if !self.cell_fits(tape, c, col, value)? {
                return Ok(false);
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
    ) -> Result<bool, EncodeError> {
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
    ) -> Result<bool, EncodeError> {
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
            let mut next = cursor;
            let value = match tape.next_field(&mut next)? {
                Some((key, value)) if tape.key_eq(key, col.key) => {
                    cursor = next;
                    value
                }
                _ => lookup(tape, body, col.key)?.ok_or(BROKEN)?,
            };
            if col.width == 0 {
                w.cell_atom(value.atom().ok_or(BROKEN)?)?;
            } else {
                let Node::Object(inner) = value else {
                    return Err(BROKEN);
                };
                self.write_cells(tape, w, c + 1, col.end, inner)?;
            }
            c = col.end;
        }
        Ok(())
    }
}

/// The value of field `key` in the object at `body`.
fn lookup<'t>(tape: &'t Tape, body: usize, key: Key<'_>) -> Result<Option<Node<'t>>, EncodeError> {
    let mut pos = body;
    while let Some((k, value)) = tape.next_field(&mut pos)? {
        if tape.key_eq(k, key) {
            return Ok(Some(value));
        }
    }
    Ok(None)
}
