//! The direct path for the commonest document: a root sequence of flat structs (a `Vec` of
//! rows) is written as a table straight from serde, without a tape.
//!
//! The table form needs the whole array checked before its header is written, so the value is
//! serialized twice: a [`Shape::probe`] pass that writes nothing and only checks that the root
//! is a non-empty sequence of known length whose elements are structs with the first one's
//! field names, in order, and only primitive values; then, if it is, a [`write_table`] pass
//! that writes the header and one row per element through the [`Writer`]. Probing costs a
//! fraction of recording a tape, and a table needs no memory besides its output.
//!
//! Anything else — maps, nested values, other field orders, sequences of unknown length, a
//! `Serialize` error — makes the probe say no, and the tape path encodes the value; so the
//! output is always what the layout pass would have produced. A `Serialize` implementation
//! that serializes another shape the second time (other field names or counts, a container)
//! gets an error, never a header that does not match its rows.

use std::fmt::{self, Display};
use std::io;

use serde::ser::{self, Impossible, Serialize};

use crate::toon::EncodeError;
use crate::toon::writer::{Atom, Writer};

/// The column layout found by [`Shape::probe`]; kept by the encoder so its buffer is reused.
#[derive(Debug, Default)]
pub(crate) struct Shape {
    names: Vec<&'static str>,
    rows: usize,
}

impl Shape {
    /// Whether `value` is a root table of flat structs; if so its columns and row count are
    /// kept for [`write_table`].
    pub(crate) fn probe<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        self.names.clear();
        self.rows = 0;
        let mut probe = Probe {
            shape: self,
            row: 0,
        };
        value.serialize(Root { pass: &mut probe }).is_ok()
    }
}

/// Writes `value`, which [`Shape::probe`] accepted as `shape`, as a root table.
pub(crate) fn write_table<W: io::Write, T: Serialize + ?Sized>(
    value: &T,
    shape: &Shape,
    w: &mut Writer<W>,
) -> Result<(), EncodeError> {
    w.begin_table_header(shape.rows)?;
    for name in &shape.names {
        w.column_bytes(name.as_bytes())?;
    }
    w.end_header()?;
    let mut rows = RowWriter {
        w,
        names: &shape.names,
    };
    match value.serialize(Root { pass: &mut rows }) {
        Ok(()) => {}
        Err(Stop::NotTable) => {
            return Err(EncodeError::Internal(
                "the value serialized differently the second time",
            ));
        }
        Err(Stop::Encode(e)) => return Err(e),
    }
    w.end()
}

/// Why a pass stopped.
#[derive(Debug)]
enum Stop {
    /// The value is not a table of flat structs.
    NotTable,
    Encode(EncodeError),
}

impl From<EncodeError> for Stop {
    fn from(e: EncodeError) -> Self {
        Stop::Encode(e)
    }
}

impl Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::NotTable => f.write_str("not a table of flat structs"),
            Stop::Encode(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: Display>(msg: T) -> Self {
        Stop::Encode(EncodeError::Custom(msg.to_string()))
    }
}

/// What a pass does with the events of a table.
trait Pass {
    /// The root sequence, of `len` elements.
    fn begin(&mut self, len: usize) -> Result<(), Stop>;
    /// Element `index` starts.
    fn row_begin(&mut self, index: usize) -> Result<(), Stop>;
    /// Field `index` of the current element is named `key`.
    fn field(&mut self, index: usize, key: &'static str) -> Result<(), Stop>;
    /// The value of the current field.
    fn cell(&mut self, atom: Atom<'_>);
    /// The current element ended after `fields` fields.
    fn row_end(&mut self, fields: usize) -> Result<(), Stop>;
    /// The root sequence ended after `rows` elements.
    fn end(&mut self, rows: usize) -> Result<(), Stop>;
}

/// The checking pass: records the first element's field names and compares the others'.
struct Probe<'s> {
    shape: &'s mut Shape,
    /// The element being checked.
    row: usize,
}

impl Pass for Probe<'_> {
    fn begin(&mut self, len: usize) -> Result<(), Stop> {
        // An empty array is not a table.
        self.shape.rows = len;
        if len == 0 {
            Err(Stop::NotTable)
        } else {
            Ok(())
        }
    }

    #[inline]
    fn row_begin(&mut self, index: usize) -> Result<(), Stop> {
        self.row = index;
        Ok(())
    }

    #[inline]
    fn field(&mut self, index: usize, key: &'static str) -> Result<(), Stop> {
        match self.shape.names.get(index) {
            // The same `&'static str` (every row of a derived struct) or the same text.
            Some(&known) if std::ptr::eq(known, key) || known == key => Ok(()),
            Some(_) => Err(Stop::NotTable),
            // The first element names the columns; a repeated name would repeat a column.
            None if self.row == 0 && !self.shape.names.contains(&key) => {
                self.shape.names.push(key);
                Ok(())
            }
            // A later element with more fields than the first.
            None => Err(Stop::NotTable),
        }
    }

    #[inline]
    fn cell(&mut self, _atom: Atom<'_>) {}

    #[inline]
    fn row_end(&mut self, fields: usize) -> Result<(), Stop> {
        // Empty objects do not head a table; later elements need every column.
        if fields == 0 || fields != self.shape.names.len() {
            return Err(Stop::NotTable);
        }
        Ok(())
    }

    fn end(&mut self, rows: usize) -> Result<(), Stop> {
        // A `Serialize` whose length hint was wrong: the header's count would be too.
        if rows == self.shape.rows {
            Ok(())
        } else {
            Err(Stop::NotTable)
        }
    }
}

/// The writing pass: one row per element, cells as they come (the probe checked them).
struct RowWriter<'w, W: io::Write> {
    w: &'w mut Writer<W>,
    /// The header's columns.
    names: &'w [&'static str],
}

impl<W: io::Write> Pass for RowWriter<'_, W> {
    fn begin(&mut self, _len: usize) -> Result<(), Stop> {
        Ok(())
    }

    #[inline]
    fn row_begin(&mut self, _index: usize) -> Result<(), Stop> {
        Ok(self.w.row_begin()?)
    }

    #[inline]
    fn field(&mut self, index: usize, key: &'static str) -> Result<(), Stop> {
        // One pointer comparison per cell, so that a value that changed since the probe is
        // an error rather than rows under the wrong header.
        match self.names.get(index) {
            Some(&known) if std::ptr::eq(known, key) || known == key => Ok(()),
            _ => Err(Stop::NotTable),
        }
    }

    #[inline]
    fn cell(&mut self, atom: Atom<'_>) {
        self.w.cell_verified(atom);
    }

    #[inline]
    fn row_end(&mut self, _fields: usize) -> Result<(), Stop> {
        // Checks the cell count, so a value that changed shape is an error, not bad TOON.
        Ok(self.w.row_end()?)
    }

    fn end(&mut self, _rows: usize) -> Result<(), Stop> {
        Ok(())
    }
}

/// Serde methods that answer "not a table", one per `name(argument types) -> output;`.
macro_rules! reject {
    ($($name:ident($($arg:ty),*) -> $ret:ty;)*) => {
        $(
            fn $name(self, $(_: $arg),*) -> Result<$ret, Stop> {
                Err(Stop::NotTable)
            }
        )*
    };
}

/// Rejects every primitive: the root and its elements must be containers.
macro_rules! reject_primitives {
    () => {
        reject! {
            serialize_bool(bool) -> ();
            serialize_i8(i8) -> ();
            serialize_i16(i16) -> ();
            serialize_i32(i32) -> ();
            serialize_i64(i64) -> ();
            serialize_u8(u8) -> ();
            serialize_u16(u16) -> ();
            serialize_u32(u32) -> ();
            serialize_u64(u64) -> ();
            serialize_f32(f32) -> ();
            serialize_f64(f64) -> ();
            serialize_char(char) -> ();
            serialize_str(&str) -> ();
            serialize_bytes(&[u8]) -> ();
            serialize_none() -> ();
            serialize_unit() -> ();
            serialize_unit_struct(&'static str) -> ();
            serialize_unit_variant(&'static str, u32, &'static str) -> ();
        }

        fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<(), Stop> {
            // `Some(x)` is `x`, but a root or element that is optional is rare enough to leave
            // to the tape.
            Err(Stop::NotTable)
        }

        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _value: &T,
        ) -> Result<(), Stop> {
            Err(Stop::NotTable)
        }

        fn collect_str<T: ?Sized + Display>(self, _value: &T) -> Result<(), Stop> {
            Err(Stop::NotTable)
        }
    };
}

/// The containers a table has no place for, at any level (tuples, the root's other kind of
/// sequence, are handled by each serializer).
macro_rules! reject_containers {
    () => {
        fn serialize_tuple_struct(
            self,
            _name: &'static str,
            _len: usize,
        ) -> Result<Impossible<(), Stop>, Stop> {
            Err(Stop::NotTable)
        }

        fn serialize_tuple_variant(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Impossible<(), Stop>, Stop> {
            Err(Stop::NotTable)
        }

        fn serialize_map(self, _len: Option<usize>) -> Result<Impossible<(), Stop>, Stop> {
            Err(Stop::NotTable)
        }

        fn serialize_struct_variant(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Impossible<(), Stop>, Stop> {
            Err(Stop::NotTable)
        }
    };
}

/// The root: only a sequence of known length.
struct Root<'p, P> {
    pass: &'p mut P,
}

/// The root sequence being serialized.
struct Elements<'p, P> {
    pass: &'p mut P,
    rows: usize,
}

impl<'p, P: Pass> ser::Serializer for Root<'p, P> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Elements<'p, P>;
    type SerializeTuple = Elements<'p, P>;
    type SerializeTupleStruct = Impossible<(), Stop>;
    type SerializeTupleVariant = Impossible<(), Stop>;
    type SerializeMap = Impossible<(), Stop>;
    type SerializeStruct = Impossible<(), Stop>;
    type SerializeStructVariant = Impossible<(), Stop>;

    reject_primitives!();
    reject_containers!();

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Elements<'p, P>, Stop> {
        // The header states the row count before any row, so it must be known up front.
        let len = len.ok_or(Stop::NotTable)?;
        self.pass.begin(len)?;
        Ok(Elements {
            pass: self.pass,
            rows: 0,
        })
    }

    /// Fixed-size arrays (`[Row; N]`) serialize as tuples; the tape records them as arrays.
    fn serialize_tuple(self, len: usize) -> Result<Elements<'p, P>, Stop> {
        self.serialize_seq(Some(len))
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Impossible<(), Stop>, Stop> {
        Err(Stop::NotTable)
    }
}

impl<P: Pass> ser::SerializeSeq for Elements<'_, P> {
    type Ok = ();
    type Error = Stop;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Stop> {
        self.pass.row_begin(self.rows)?;
        value.serialize(Element {
            pass: &mut *self.pass,
        })?;
        self.rows += 1;
        Ok(())
    }

    fn end(self) -> Result<(), Stop> {
        self.pass.end(self.rows)
    }
}

impl<P: Pass> ser::SerializeTuple for Elements<'_, P> {
    type Ok = ();
    type Error = Stop;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Stop> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Stop> {
        ser::SerializeSeq::end(self)
    }
}

/// An element of the root sequence: only a struct.
struct Element<'p, P> {
    pass: &'p mut P,
}

/// A struct being serialized as a row.
struct Fields<'p, P> {
    pass: &'p mut P,
    fields: usize,
}

impl<'p, P: Pass> ser::Serializer for Element<'p, P> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Impossible<(), Stop>;
    type SerializeTuple = Impossible<(), Stop>;
    type SerializeTupleStruct = Impossible<(), Stop>;
    type SerializeTupleVariant = Impossible<(), Stop>;
    type SerializeMap = Impossible<(), Stop>;
    type SerializeStruct = Fields<'p, P>;
    type SerializeStructVariant = Impossible<(), Stop>;

    reject_primitives!();
    reject_containers!();

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Impossible<(), Stop>, Stop> {
        Err(Stop::NotTable)
    }

    fn serialize_tuple(self, _len: usize) -> Result<Impossible<(), Stop>, Stop> {
        Err(Stop::NotTable)
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Fields<'p, P>, Stop> {
        Ok(Fields {
            pass: self.pass,
            fields: 0,
        })
    }
}

impl<P: Pass> ser::SerializeStruct for Fields<'_, P> {
    type Ok = ();
    type Error = Stop;

    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        self.pass.field(self.fields, key)?;
        value.serialize(Cell {
            pass: &mut *self.pass,
        })?;
        self.fields += 1;
        Ok(())
    }

    #[inline]
    fn end(self) -> Result<(), Stop> {
        self.pass.row_end(self.fields)
    }
}

/// A field value: only a primitive, mapped as the tape maps it.
struct Cell<'p, P> {
    pass: &'p mut P,
}

impl<P: Pass> Cell<'_, P> {
    #[inline(always)]
    fn atom(self, atom: Atom<'_>) -> Result<(), Stop> {
        self.pass.cell(atom);
        Ok(())
    }
}

impl<P: Pass> ser::Serializer for Cell<'_, P> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Impossible<(), Stop>;
    type SerializeTuple = Impossible<(), Stop>;
    type SerializeTupleStruct = Impossible<(), Stop>;
    type SerializeTupleVariant = Impossible<(), Stop>;
    type SerializeMap = Impossible<(), Stop>;
    type SerializeStruct = Impossible<(), Stop>;
    type SerializeStructVariant = Impossible<(), Stop>;

    reject_containers!();

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Stop> {
        self.atom(Atom::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<(), Stop> {
        self.atom(Atom::I64(i64::from(v)))
    }

    fn serialize_i16(self, v: i16) -> Result<(), Stop> {
        self.atom(Atom::I64(i64::from(v)))
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), Stop> {
        self.atom(Atom::I64(i64::from(v)))
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Stop> {
        self.atom(Atom::I64(v))
    }

    fn serialize_i128(self, v: i128) -> Result<(), Stop> {
        self.atom(Atom::Num(itoa::Buffer::new().format(v).as_bytes()))
    }

    fn serialize_u8(self, v: u8) -> Result<(), Stop> {
        self.atom(Atom::U64(u64::from(v)))
    }

    fn serialize_u16(self, v: u16) -> Result<(), Stop> {
        self.atom(Atom::U64(u64::from(v)))
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), Stop> {
        self.atom(Atom::U64(u64::from(v)))
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Stop> {
        self.atom(Atom::U64(v))
    }

    fn serialize_u128(self, v: u128) -> Result<(), Stop> {
        self.atom(Atom::Num(itoa::Buffer::new().format(v).as_bytes()))
    }

    fn serialize_f32(self, v: f32) -> Result<(), Stop> {
        self.atom(Atom::F32(v))
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Stop> {
        self.atom(Atom::F64(v))
    }

    fn serialize_char(self, v: char) -> Result<(), Stop> {
        self.atom(Atom::Str(v.encode_utf8(&mut [0; 4]).as_bytes()))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Stop> {
        self.atom(Atom::Str(v.as_bytes()))
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Stop> {
        // An array of numbers on the tape: not a cell.
        Err(Stop::NotTable)
    }

    fn serialize_none(self) -> Result<(), Stop> {
        self.atom(Atom::Null)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Stop> {
        self.atom(Atom::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Stop> {
        self.atom(Atom::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Stop> {
        self.atom(Atom::Str(variant.as_bytes()))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Stop> {
        // `{variant: value}` on the tape: a nested object.
        Err(Stop::NotTable)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Impossible<(), Stop>, Stop> {
        Err(Stop::NotTable)
    }

    fn serialize_tuple(self, _len: usize) -> Result<Impossible<(), Stop>, Stop> {
        Err(Stop::NotTable)
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Impossible<(), Stop>, Stop> {
        Err(Stop::NotTable)
    }

    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result<(), Stop> {
        // Rare in tables; the allocation keeps this path simple.
        let text = value.to_string();
        self.atom(Atom::Str(text.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell as StdCell;

    use serde::Serialize;

    use super::*;
    use crate::toon::encode::{Encoder, layout};
    use crate::toon::{Delimiter, Options};

    /// The value through the tape and the layout pass only, as if the direct path did not
    /// exist.
    fn via_tape<T: Serialize + ?Sized>(value: &T, opts: Options) -> Result<String, EncodeError> {
        let mut encoder = Encoder::new(opts);
        encoder.record(value)?;
        let mut w = Writer::with_buffer(io::sink(), opts, Vec::new(), usize::MAX);
        layout::write_document(&encoder.tape, &mut w)?;
        w.close_all()?;
        Ok(String::from_utf8(w.take_buffer()).expect("UTF-8"))
    }

    /// Asserts that `value` takes the direct path iff `direct`, and that every entry point
    /// writes what the tape path writes, under every delimiter.
    fn check<T: Serialize + ?Sized>(value: &T, direct: bool) {
        assert_eq!(Shape::default().probe(value), direct, "probe");
        for delimiter in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
            for indent in [1, 2, 4] {
                let opts = Options { indent, delimiter };
                let expected = via_tape(value, opts).expect("the tape path encodes");
                let mut encoder = Encoder::new(opts);
                assert_eq!(encoder.to_string(value).expect("to_string"), expected);
                let mut out = b"kept".to_vec();
                encoder.append_to_vec(&mut out, value).expect("append");
                assert_eq!(out.get(4..), Some(expected.as_bytes()));
                let mut out = Vec::new();
                encoder.to_writer(&mut out, value).expect("to_writer");
                assert_eq!(out, expected.as_bytes());
            }
        }
    }

    #[derive(Serialize)]
    enum Kind {
        Function,
    }

    #[derive(Serialize)]
    struct Id(u32);

    #[derive(Serialize)]
    struct Flat<'a> {
        id: u64,
        parent: i64,
        small: i8,
        line: u32,
        score: f64,
        ratio: f32,
        exported: bool,
        name: &'a str,
        doc: Option<&'a str>,
        initial: char,
        kind: Kind,
        wrapped: Id,
        big: u128,
        negative: i128,
        unit: (),
    }

    fn flat(i: u32, name: &str) -> Flat<'_> {
        Flat {
            id: u64::from(i) * 1_000_003,
            parent: -i64::from(i),
            small: -8,
            line: i,
            score: f64::from(i) / 3.0,
            ratio: 0.1,
            exported: i.is_multiple_of(2),
            name,
            doc: i.is_multiple_of(3).then_some("says \"hi\"\n"),
            initial: 'é',
            kind: Kind::Function,
            wrapped: Id(i),
            big: u128::MAX - u128::from(i),
            negative: i128::MIN + i128::from(i),
            unit: (),
        }
    }

    #[test]
    fn flat_structs_are_written_directly_as_the_tape_would() {
        let names = [
            "parse", "a, b", "", " x", "true", "-1", "42", "a|b", "a\tb", "[x]", "#", "1e5",
        ];
        let rows: Vec<Flat<'_>> = (0..24).map(|i| flat(i, names[i as usize % 12])).collect();
        check(&rows, true);
        check(&rows[..1], true);
        check(&[flat(1, "x"), flat(2, "y")], true);
        check(&vec![Id(3), Id(4)], false);
    }

    #[test]
    fn anything_else_takes_the_tape() {
        #[derive(Serialize)]
        struct Empty {}
        #[derive(Serialize)]
        struct Skips {
            a: u8,
            #[serde(skip_serializing_if = "Option::is_none")]
            b: Option<u8>,
        }
        #[derive(Serialize)]
        struct Inner {
            x: u8,
        }
        #[derive(Serialize)]
        struct Nested {
            a: u8,
            inner: Inner,
        }
        #[derive(Serialize)]
        struct Listy {
            a: u8,
            list: Vec<u8>,
        }
        #[derive(Serialize)]
        struct Twice {
            a: u8,
            #[serde(rename = "a")]
            b: u8,
        }
        #[derive(Serialize)]
        #[serde(untagged)]
        enum Either {
            Left { a: u8, b: u8 },
            Right { b: u8, a: u8 },
        }
        let no_rows: Vec<Skips> = Vec::new();
        check(&no_rows, false);
        check(&[Empty {}, Empty {}], false);
        check(
            &[Skips { a: 1, b: Some(2) }, Skips { a: 3, b: None }],
            false,
        );
        check(
            &[Skips { a: 1, b: None }, Skips { a: 3, b: Some(4) }],
            false,
        );
        check(
            &[Nested {
                a: 1,
                inner: Inner { x: 2 },
            }],
            false,
        );
        check(
            &[Listy {
                a: 1,
                list: vec![2],
            }],
            false,
        );
        check(&[Twice { a: 1, b: 2 }], false);
        check(
            &[Either::Left { a: 1, b: 2 }, Either::Right { b: 3, a: 4 }],
            false,
        );
        check(&[Some(Inner { x: 1 }), None], false);
        check(&(Inner { x: 1 }, Inner { x: 2 }), true);
        check(&(Inner { x: 1 }, 2), false);
        check(&std::iter::repeat_n(1u8, 3).collect::<Vec<_>>(), false);
        check(&Inner { x: 1 }, false);
        check(&serde_json::json!([{"x": 1}, {"x": 2}]), false);
    }

    /// A sequence whose length hint is wrong: the header's count would be wrong too.
    #[test]
    fn a_wrong_length_hint_takes_the_tape() {
        #[derive(Serialize)]
        struct One {
            x: u8,
        }
        struct Liar;
        impl Serialize for Liar {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeSeq;
                let mut seq = s.serialize_seq(Some(3))?;
                seq.serialize_element(&One { x: 1 })?;
                seq.end()
            }
        }
        check(&Liar, false);
    }

    /// Serializes one more field every time: the probe and the writing pass disagree.
    struct Fickle(StdCell<usize>);

    impl Serialize for Fickle {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeSeq, SerializeStruct};
            struct Row(usize);
            impl Serialize for Row {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut row = s.serialize_struct("Row", self.0)?;
                    for name in ["a", "b", "c", "d"].iter().take(self.0) {
                        row.serialize_field(name, &1)?;
                    }
                    row.end()
                }
            }
            let calls = self.0.get() + 1;
            self.0.set(calls);
            let mut seq = s.serialize_seq(Some(1))?;
            seq.serialize_element(&Row(calls))?;
            seq.end()
        }
    }

    #[test]
    fn a_value_that_changes_between_passes_is_an_error() {
        let err = crate::toon::to_string(&Fickle(StdCell::new(0)), &Options::default())
            .expect_err("the second pass sees another row");
        assert!(matches!(err, EncodeError::Internal(_)), "{err:?}");
    }

    #[test]
    fn serialize_errors_surface_from_the_tape_path() {
        struct Failing;
        impl Serialize for Failing {
            fn serialize<S: serde::Serializer>(&self, _s: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("no"))
            }
        }
        let err = crate::toon::to_string(&[Failing], &Options::default()).expect_err("fails");
        assert!(
            matches!(err, EncodeError::Custom(ref m) if m == "no"),
            "{err:?}"
        );
        assert!(
            Encoder::new(Options {
                indent: 0,
                delimiter: Delimiter::Comma
            })
            .to_string(&[Id(1)])
            .is_err()
        );
    }
}
