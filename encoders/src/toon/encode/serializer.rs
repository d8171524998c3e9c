//! A serde `Serializer` that records a value on the [`Tape`], enforcing the nesting limit.
//!
//! Mapping of the serde data model: `None`, `()` and unit structs are `null`; `Some(v)` and
//! newtype structs are `v`; unit variants are their name as a string; `newtype`, tuple and
//! struct variants are `{variant: value}` objects (as serde_json does); bytes are an array of
//! numbers; chars are strings; integers beyond 64 bits are written exactly.
//!
//! Serde's `Serialize` is recursive, so a deep value recurses on the stack whatever the encoder
//! does; the limit makes an absurdly deep value an error instead of a stack overflow.

use std::fmt::{self, Write as _};

use serde::ser::{self, Impossible, Serialize};

use super::tape::{Container, Tape};
use super::uniform::Tracker;
use crate::toon::{EncodeError, number};

/// Serializes into a tape, counting open containers and spotting tables of flat structs.
pub(crate) struct TapeSerializer<'t> {
    tape: &'t mut Tape,
    track: &'t mut Tracker,
    depth: usize,
    limit: usize,
}

impl<'t> TapeSerializer<'t> {
    /// A serializer appending to `tape` that refuses to nest more than `limit` containers.
    pub(crate) fn new(tape: &'t mut Tape, track: &'t mut Tracker, limit: usize) -> Self {
        track.clear();
        TapeSerializer {
            tape,
            track,
            depth: 0,
            limit,
        }
    }

    #[inline]
    fn open(&mut self, kind: Container) -> Result<usize, EncodeError> {
        if self.depth >= self.limit {
            return Err(EncodeError::DepthLimit { limit: self.limit });
        }
        self.depth += 1;
        match kind {
            Container::Array => self.track.open_array(),
            Container::Object => self.track.open_object(),
        }
        Ok(self.tape.open(kind))
    }

    #[inline]
    fn close(&mut self, at: usize, kind: Container) {
        self.tape.close(at);
        self.depth -= 1;
        match kind {
            Container::Array => {
                if self.track.close_array() {
                    self.tape.mark_uniform(at);
                }
            }
            Container::Object => self.track.close_object(),
        }
    }

    // Always inlined: it runs for every struct field, and as a call its prologue and epilogue
    // cost more than its body.
    #[inline(always)]
    fn static_key(&mut self, key: &'static str) {
        match self.track.predict(key) {
            Some(id) => self.tape.push_static_id(id),
            None => {
                let id = self.tape.push_static_key(key);
                self.track.static_key(key, id);
            }
        }
    }

    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.track.element_begin();
        value.serialize(&mut *self)?;
        self.track.element_end();
        Ok(())
    }

    /// `{variant: <container>}`: opens both and returns the compound that closes both.
    fn variant<'a>(
        &'a mut self,
        variant: &'static str,
        inner: Container,
    ) -> Result<Compound<'a, 't>, EncodeError> {
        let outer = self.open(Container::Object)?;
        self.static_key(variant);
        let at = self.open(inner)?;
        Ok(Compound {
            ser: self,
            at,
            kind: inner,
            outer: Some(outer),
        })
    }

    fn compound<'a>(&'a mut self, kind: Container) -> Result<Compound<'a, 't>, EncodeError> {
        let at = self.open(kind)?;
        Ok(Compound {
            ser: self,
            at,
            kind,
            outer: None,
        })
    }
}

/// Writes `Display` output into the tape's scratch string and hands it to `push`.
fn with_display<T: fmt::Display + ?Sized>(
    tape: &mut Tape,
    value: &T,
    push: fn(&mut Tape, &str),
) -> Result<(), EncodeError> {
    // The scratch string is taken out so `push` can borrow the tape; it goes back afterwards
    // so its capacity is reused.
    let mut text = std::mem::take(&mut tape.scratch);
    text.clear();
    let written = write!(text, "{value}");
    if written.is_ok() {
        push(tape, &text);
    }
    tape.scratch = text;
    written.map_err(|_| EncodeError::Custom("a Display implementation returned an error".into()))
}

/// An open array or object on the tape.
pub(crate) struct Compound<'a, 't> {
    ser: &'a mut TapeSerializer<'t>,
    at: usize,
    kind: Container,
    /// For tuple and struct variants: the wrapping `{variant: …}` object, closed after `at`.
    outer: Option<usize>,
}

impl Compound<'_, '_> {
    fn finish(self) -> Result<(), EncodeError> {
        self.ser.close(self.at, self.kind);
        if let Some(outer) = self.outer {
            self.ser.close(outer, Container::Object);
        }
        Ok(())
    }
}

impl<'a, 't> ser::Serializer for &'a mut TapeSerializer<'t> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Compound<'a, 't>;
    type SerializeTuple = Compound<'a, 't>;
    type SerializeTupleStruct = Compound<'a, 't>;
    type SerializeTupleVariant = Compound<'a, 't>;
    type SerializeMap = Compound<'a, 't>;
    type SerializeStruct = Compound<'a, 't>;
    type SerializeStructVariant = Compound<'a, 't>;

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.tape.push_bool(v);
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.serialize_i64(i64::from(v))
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.tape.push_i64(v);
        Ok(())
    }

    fn serialize_i128(self, v: i128) -> Result<(), EncodeError> {
        match i64::try_from(v) {
            Ok(small) => self.tape.push_i64(small),
            Err(_) => self.tape.push_num(|out| number::write_int(out, v)),
        }
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.serialize_u64(u64::from(v))
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.tape.push_u64(v);
        Ok(())
    }

    fn serialize_u128(self, v: u128) -> Result<(), EncodeError> {
        match u64::try_from(v) {
            Ok(small) => self.tape.push_u64(small),
            Err(_) => self.tape.push_num(|out| number::write_int(out, v)),
        }
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), EncodeError> {
        self.tape.push_f32(v);
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), EncodeError> {
        self.tape.push_f64(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        self.tape.push_str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.tape.push_str(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), EncodeError> {
        let at = self.open(Container::Array)?;
        for &b in v {
            self.tape.push_u64(u64::from(b));
        }
        self.close(at, Container::Array);
        Ok(())
    }

    fn serialize_none(self) -> Result<(), EncodeError> {
        self.tape.push_null();
        Ok(())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), EncodeError> {
        self.tape.push_null();
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        self.tape.push_null();
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.tape.push_str(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        let at = self.open(Container::Object)?;
        self.static_key(variant);
        value.serialize(&mut *self)?;
        self.close(at, Container::Object);
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 't>, EncodeError> {
        self.compound(Container::Array)
    }

    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a, 't>, EncodeError> {
        self.compound(Container::Array)
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 't>, EncodeError> {
        self.compound(Container::Array)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 't>, EncodeError> {
        self.variant(variant, Container::Array)
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 't>, EncodeError> {
        self.compound(Container::Object)
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 't>, EncodeError> {
        self.compound(Container::Object)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 't>, EncodeError> {
        self.variant(variant, Container::Object)
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), EncodeError> {
        with_display(self.tape, value, Tape::push_str)
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.ser.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.ser.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.ser.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.ser.element(value)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), EncodeError> {
        self.ser.track.dynamic_key();
        key.serialize(KeySerializer {
            tape: &mut *self.ser.tape,
        })
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;

    // Always inlined into the derived `Serialize`: per field, the call cost as much as the
    // recording.
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.ser.static_key(key);
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.ser.static_key(key);
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

/// Serializes a map key: strings and chars as they are; integers and bools as their text;
/// unit variants as their name; anything else is [`EncodeError::NonStringKey`].
struct KeySerializer<'a> {
    tape: &'a mut Tape,
}

impl KeySerializer<'_> {
    fn text(self, text: &str) -> Result<(), EncodeError> {
        self.tape.push_key(text);
        Ok(())
    }
}

type NoCompound = Impossible<(), EncodeError>;

impl ser::Serializer for KeySerializer<'_> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = NoCompound;
    type SerializeTuple = NoCompound;
    type SerializeTupleStruct = NoCompound;
    type SerializeTupleVariant = NoCompound;
    type SerializeMap = NoCompound;
    type SerializeStruct = NoCompound;
    type SerializeStructVariant = NoCompound;

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.text(if v { "true" } else { "false" })
    }

    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_i128(self, v: i128) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_u128(self, v: u128) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }

    fn serialize_f32(self, _v: f32) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("a float"))
    }

    fn serialize_f64(self, _v: f64) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("a float"))
    }

    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        self.text(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.text(v)
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("bytes"))
    }

    fn serialize_none(self) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("an option"))
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("an option"))
    }

    fn serialize_unit(self) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("unit"))
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("a unit struct"))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.tape.push_static_key(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), EncodeError> {
        Err(EncodeError::NonStringKey("an enum variant with data"))
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<NoCompound, EncodeError> {
        Err(EncodeError::NonStringKey("a sequence"))
    }

    fn serialize_tuple(self, _len: usize) -> Result<NoCompound, EncodeError> {
        Err(EncodeError::NonStringKey("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<NoCompound, EncodeError> {
        Err(EncodeError::NonStringKey("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<NoCompound, EncodeError> {
        Err(EncodeError::NonStringKey("an enum variant with data"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<NoCompound, EncodeError> {
        Err(EncodeError::NonStringKey("a map"))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<NoCompound, EncodeError> {
        Err(EncodeError::NonStringKey("a struct"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<NoCompound, EncodeError> {
        Err(EncodeError::NonStringKey("an enum variant with data"))
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), EncodeError> {
        with_display(self.tape, value, Tape::push_key)
    }
}
