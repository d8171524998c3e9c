//! The layout pass: walks the tape, picks the TOON form of every array and object, and drives
//! the [`Writer`], which owns all quoting, headers and indentation.
//!
//! Arrays, first matching rule: empty; all primitives (inline); all objects sharing one column
//! layout (table); otherwise a list whose items are written like any value. Objects take the
//! keyed table form when they have two or more entries whose values share a layout. A value
//! that is itself a list item never takes a table form: an array item that is not inline is a
//! list (`- [N]:` then items), an object item lists its fields — as the reference encoder does,
//! and as decoders expect (a key-less table header is only valid at the root). The recursion follows the tape's nesting, which the
//! serializer bounded by [`MAX_DEPTH`](super::MAX_DEPTH).

use std::io;

use super::schema::Schema;
use super::tape::{Corrupt, Node, Tape};
use crate::toon::EncodeError;
use crate::toon::writer::Writer;

/// Writes the value recorded on `tape` as one document.
pub(crate) fn write_document<W: io::Write>(
    tape: &Tape,
    w: &mut Writer<W>,
) -> Result<(), EncodeError> {
    let (root, _) = tape.node(0)?;
    Layout {
        tape,
        w,
        schema: Schema::new(),
    }
    .value(root, false)
}

struct Layout<'t, 'w, W: io::Write> {
    tape: &'t Tape,
    w: &'w mut Writer<W>,
    schema: Schema<'t>,
}

/// What one pass over an array's elements found.
struct Shape {
    count: usize,
    primitives: bool,
}

/// A container where the layout checked for a primitive: an encoder bug.
const NOT_PRIMITIVE: Corrupt = Corrupt;

impl<'t, W: io::Write> Layout<'t, '_, W> {
    /// Writes a value where the writer is (after a key, as a list item, or at the root).
    fn value(&mut self, node: Node<'t>, as_item: bool) -> Result<(), EncodeError> {
        match node {
            Node::Object(body) => self.object(body, as_item),
            Node::Array(body) => self.array(body, as_item),
            primitive => self.w.atom(primitive.atom().ok_or(NOT_PRIMITIVE)?),
        }
    }

    fn object(&mut self, body: usize, as_item: bool) -> Result<(), EncodeError> {
        if !as_item && let Some(count) = self.schema.fit_object(self.tape, body)? {
            return self.keyed_table(body, count);
        }
        self.w.begin_object()?;
        let mut pos = body;
        while let Some((key, node)) = self.tape.next_field(&mut pos)? {
            self.w.key_bytes(self.tape.key_bytes(key))?;
            self.value(node, false)?;
        }
        self.w.end()
    }

    fn array(&mut self, body: usize, as_item: bool) -> Result<(), EncodeError> {
        let mut pos = body;
        let first = self.tape.next_item(&mut pos)?;
        // Objects are tried as a table straight away: the check also counts the rows, so a
        // table costs one pass to check (a count only, for arrays the serializer marked
        // uniform) and one to write.
        if !as_item
            && matches!(first, Some(Node::Object(_)))
            && let Some(count) = self.schema.fit_array(self.tape, body)?
        {
            self.w.begin_table_header(count)?;
            self.schema.write_header(self.tape, self.w)?;
            self.w.end_header()?;
            let mut pos = body;
            while let Some(node) = self.tape.next_item(&mut pos)? {
                self.row(node)?;
            }
            return self.w.end();
        }
        let shape = self.scan(body)?;
        let mut pos = body;
        if shape.primitives {
            // Also the empty array, which the writer prints in the canonical empty form of its
            // position (`key: []`, `[]`, `- [0]:`).
            self.w.begin_inline(shape.count)?;
            while let Some(node) = self.tape.next_item(&mut pos)? {
                self.w.atom(node.atom().ok_or(NOT_PRIMITIVE)?)?;
            }
        } else {
            self.w.begin_list(shape.count)?;
            while let Some(node) = self.tape.next_item(&mut pos)? {
                self.value(node, true)?;
            }
        }
        self.w.end()
    }

    fn keyed_table(&mut self, body: usize, count: usize) -> Result<(), EncodeError> {
        self.w.begin_keyed_table_header(count)?;
        self.schema.write_header(self.tape, self.w)?;
        self.w.end_header()?;
        let mut pos = body;
        while let Some((key, node)) = self.tape.next_field(&mut pos)? {
            self.w.key_bytes(self.tape.key_bytes(key))?;
            self.row(node)?;
        }
        self.w.end()
    }

    fn row(&mut self, node: Node<'t>) -> Result<(), EncodeError> {
        let Node::Object(body) = node else {
            return Err(Corrupt.into());
        };
        self.w.row_begin()?;
        self.schema.write_row(self.tape, self.w, body)?;
        self.w.row_end()
    }

    fn scan(&self, body: usize) -> Result<Shape, EncodeError> {
        let mut shape = Shape {
            count: 0,
            primitives: true,
        };
        let mut pos = body;
        while let Some(node) = self.tape.next_item(&mut pos)? {
            shape.count += 1;
            shape.primitives &= !matches!(node, Node::Object(_) | Node::Array(_));
        }
        Ok(shape)
    }
}
