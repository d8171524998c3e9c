//! The tape: one serialized value as a compact, reusable byte sequence of events, so the
//! layout pass can look at a whole array before choosing its form.
//!
//! Each event is a tag byte, sometimes followed by a payload:
//!
//! | tag | payload | event |
//! |---|---|---|
//! | `NULL`, `FALSE`, `TRUE` | — | primitives |
//! | `0xC0 + n` | — | unsigned integer `n < 64` |
//! | `UINT` / `NINT` | LEB128 `v` | `v` / `-1 - v` |
//! | `F64` / `F32` | 8 / 4 bytes LE | floats |
//! | `NUM` | LEB128 len, ASCII | an integer beyond 64 bits, already printed |
//! | `0x40 + n` / `STR` | (LEB128 len,) UTF-8 | a string of `n < 64` / any length |
//! | `0x20 + n` / `KEY` | (LEB128 len,) UTF-8 | a map key of `n < 32` / any length |
//! | `0x80 + id` / `KEY_STATIC` | (LEB128 id) | a `&'static str` key (struct field), interned |
//! | `ARRAY` / `OBJECT` | u32 LE content length, content, `END` | containers |
//! | `UNIFORM` | as `ARRAY` | an array of flat objects with identical keys |
//!
//! Object content alternates key and value events. The content length lets the layout skip a
//! subtree in O(1); `u32::MAX` means "too long, walk to `END`", so there is no size limit.

use std::collections::HashMap;

use crate::toon::EncodeError;
use crate::toon::writer::Atom;

const NULL: u8 = 0x00;
const FALSE: u8 = 0x01;
const TRUE: u8 = 0x02;
const UINT: u8 = 0x03;
const NINT: u8 = 0x04;
const F64: u8 = 0x05;
const F32: u8 = 0x06;
const NUM: u8 = 0x07;
const STR: u8 = 0x08;
const KEY: u8 = 0x09;
const KEY_STATIC: u8 = 0x0A;
const ARRAY: u8 = 0x0B;
const OBJECT: u8 = 0x0C;
const END: u8 = 0x0D;
/// An `ARRAY` the serializer found to be a table of flat objects (see `uniform.rs`).
const UNIFORM: u8 = 0x0E;
const SHORT_KEY: u8 = 0x20;
const SHORT_STR: u8 = 0x40;
const SHORT_STATIC: u8 = 0x80;
const SMALL_UINT: u8 = 0xC0;

/// Content lengths at or above this are stored as "unknown".
const UNKNOWN_LEN: u32 = u32::MAX;

/// Slots of the pointer-keyed cache in front of the static-key interner.
const RECENT_SLOTS: usize = 256;

/// A container kind, for [`Tape::open`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Container {
    Array,
    Object,
}

/// One decoded event. Containers carry the position of their first child.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Node<'t> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    F32(f32),
    Num(&'t [u8]),
    Str(&'t [u8]),
    Array(usize),
    Object(usize),
}

impl<'t> Node<'t> {
    /// The primitive as the writer takes it; `None` for containers.
    #[inline]
    pub(crate) fn atom(self) -> Option<Atom<'t>> {
        Some(match self {
            Node::Null => Atom::Null,
            Node::Bool(b) => Atom::Bool(b),
            Node::U64(v) => Atom::U64(v),
            Node::I64(v) => Atom::I64(v),
            Node::F64(v) => Atom::F64(v),
            Node::F32(v) => Atom::F32(v),
            Node::Num(text) => Atom::Num(text),
            Node::Str(s) => Atom::Str(s),
            Node::Array(_) | Node::Object(_) => return None,
        })
    }
}

/// A decoded key.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Key<'t> {
    Static(u32),
    Bytes(&'t [u8]),
}

/// The serialized value plus the interned struct-field names it refers to.
#[derive(Default)]
pub(crate) struct Tape {
    bytes: Vec<u8>,
    statics: Vec<&'static str>,
    static_ids: HashMap<&'static str, u32>,
    /// `(address, length, id)` of recently interned keys, indexed by a hash of the address:
    /// a struct's field names hit here every row, so the hash map is consulted once per name.
    recent: Vec<(usize, usize, u32)>,
    /// Reused buffer for `collect_str`.
    pub(crate) scratch: String,
}

impl Tape {
    /// Forgets the previous value, keeping capacity and interned keys.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Bytes in use (for sizing output buffers).
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    // ---- building -----------------------------------------------------------------------

    pub(crate) fn push_null(&mut self) {
        self.bytes.push(NULL);
    }

    pub(crate) fn push_bool(&mut self, v: bool) {
        self.bytes.push(if v { TRUE } else { FALSE });
    }

    #[inline]
    pub(crate) fn push_u64(&mut self, v: u64) {
        if v < 64 {
            self.bytes.push(SMALL_UINT | v as u8);
        } else {
            self.bytes.push(UINT);
            self.put_varint(v);
        }
    }

    #[inline]
    pub(crate) fn push_i64(&mut self, v: i64) {
        if v >= 0 {
            self.push_u64(v as u64);
        } else {
            self.bytes.push(NINT);
            // -1 - v is in 0..=i64::MAX for every negative v, i64::MIN included.
            self.put_varint((-1 - v) as u64);
        }
    }

    pub(crate) fn push_f64(&mut self, v: f64) {
        self.bytes.push(F64);
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn push_f32(&mut self, v: f32) {
        self.bytes.push(F32);
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// An integer printed as canonical decimal text by `print` (at most 127 bytes, which
    /// covers every 128-bit integer), written straight onto the tape.
    pub(crate) fn push_num(&mut self, print: impl FnOnce(&mut Vec<u8>)) {
        self.bytes.push(NUM);
        let len_at = self.bytes.len();
        self.bytes.push(0);
        print(&mut self.bytes);
        let len = self.bytes.len() - len_at - 1;
        // A one-byte LEB128 length holds up to 127.
        let len = u8::try_from(len).ok().filter(|&n| n < 0x80).unwrap_or(0);
        if let Some(slot) = self.bytes.get_mut(len_at) {
            *slot = len;
        }
        if len == 0 {
            // Unreachable for integers; keep the tape well-formed by dropping the digits.
            self.bytes.truncate(len_at + 1);
        }
    }

    #[inline]
    pub(crate) fn push_str(&mut self, s: &str) {
        self.push_sized(s.as_bytes(), SHORT_STR, 64, STR);
    }

    #[inline]
    pub(crate) fn push_key(&mut self, s: &str) {
        self.push_sized(s.as_bytes(), SHORT_KEY, 32, KEY);
    }

    /// Pushes a struct field name (or variant name) as a key; returns its interned id.
    #[inline]
    pub(crate) fn push_static_key(&mut self, key: &'static str) -> u32 {
        let id = self.intern(key);
        self.push_static_id(id);
        id
    }

    /// Pushes a key already interned as `id`.
    #[inline]
    pub(crate) fn push_static_id(&mut self, id: u32) {
        if id < 64 {
            self.bytes.push(SHORT_STATIC | id as u8);
        } else {
            self.push_long_static(id);
        }
    }

    #[cold]
    #[inline(never)]
    fn push_long_static(&mut self, id: u32) {
        self.bytes.push(KEY_STATIC);
        self.put_varint(u64::from(id));
    }

    /// Starts a container; returns the position of its length field for [`close`](Self::close).
    #[inline]
    pub(crate) fn open(&mut self, kind: Container) -> usize {
        self.bytes.push(match kind {
            Container::Array => ARRAY,
            Container::Object => OBJECT,
        });
        let at = self.bytes.len();
        self.bytes.extend_from_slice(&[0; 4]);
        at
    }

    /// Ends the container opened at `at`, recording its content length.
    #[inline]
    pub(crate) fn close(&mut self, at: usize) {
        let content = self.bytes.len().saturating_sub(at + 4);
        let len = u32::try_from(content).unwrap_or(UNKNOWN_LEN);
        if let Some(field) = self.bytes.get_mut(at..at + 4) {
            field.copy_from_slice(&len.to_le_bytes());
        }
        self.bytes.push(END);
    }

    /// Marks the array opened at `at` as a table of flat objects with identical keys.
    pub(crate) fn mark_uniform(&mut self, at: usize) {
        if let Some(tag) = at.checked_sub(1).and_then(|i| self.bytes.get_mut(i)) {
            *tag = UNIFORM;
        }
    }

    /// Whether the array whose content starts at `body` was marked by
    /// [`mark_uniform`](Self::mark_uniform).
    pub(crate) fn is_uniform(&self, body: usize) -> bool {
        body.checked_sub(5).and_then(|i| self.bytes.get(i)) == Some(&UNIFORM)
    }

    #[inline]
    fn push_sized(&mut self, s: &[u8], short_tag: u8, short_limit: usize, tag: u8) {
        if s.len() < short_limit {
            self.bytes.push(short_tag | s.len() as u8);
        } else {
            self.bytes.push(tag);
            self.put_varint(s.len() as u64);
        }
        self.bytes.extend_from_slice(s);
    }

    #[inline]
    fn put_varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.bytes.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.bytes.push(v as u8);
    }

    #[inline]
    fn intern(&mut self, key: &'static str) -> u32 {
        // A `&'static str` never changes, so its address and length identify its content.
        let addr = key.as_ptr() as usize;
        // Fibonacci hashing: field names sit next to each other in read-only data, and the
        // multiplication spreads neighbouring addresses over the slots.
        let hash = ((addr ^ key.len().rotate_left(48)) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (hash >> 56) as usize % RECENT_SLOTS;
        match self.recent.get(slot) {
            Some(&(a, len, id)) if a == addr && len == key.len() => id,
            _ => self.intern_slow(key, slot),
        }
    }

    /// The interner's miss path, out of line so the hit path stays small enough to inline.
    #[cold]
    #[inline(never)]
    fn intern_slow(&mut self, key: &'static str, slot: usize) -> u32 {
        if self.recent.is_empty() {
            self.recent.resize(RECENT_SLOTS, (0, 0, 0));
        }
        let id = match self.static_ids.get(key) {
            Some(&id) => id,
            None => {
                // Distinct static strings are bounded by the program's binary, far below u32.
                let id = self.statics.len() as u32;
                self.statics.push(key);
                self.static_ids.insert(key, id);
                id
            }
        };
        if let Some(entry) = self.recent.get_mut(slot) {
            *entry = (key.as_ptr() as usize, key.len(), id);
        }
        id
    }

    // ---- reading ------------------------------------------------------------------------

    #[inline]
    fn byte(&self, pos: usize) -> Result<u8, Corrupt> {
        self.bytes.get(pos).copied().ok_or(CORRUPT)
    }

    #[inline]
    fn slice(&self, pos: usize, len: usize) -> Result<&[u8], Corrupt> {
        self.bytes
            .get(pos..pos.checked_add(len).ok_or(CORRUPT)?)
            .ok_or(CORRUPT)
    }

    #[inline]
    fn varint(&self, mut pos: usize) -> Result<(u64, usize), Corrupt> {
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.byte(pos)?;
            pos += 1;
            v |= u64::from(b & 0x7f).checked_shl(shift).ok_or(CORRUPT)?;
            if b < 0x80 {
                return Ok((v, pos));
            }
            shift += 7;
        }
    }

    #[inline]
    fn sized(&self, pos: usize) -> Result<(&[u8], usize), Corrupt> {
        let (len, start) = self.varint(pos)?;
        let len = usize::try_from(len).map_err(|_| Corrupt)?;
        Ok((self.slice(start, len)?, start + len))
    }

    /// Whether `pos` is the end of the enclosing container.
    #[inline]
    pub(crate) fn at_end(&self, pos: usize) -> Result<bool, Corrupt> {
        Ok(self.byte(pos)? == END)
    }

    /// The value at `pos` and the position after it (after the `END` of a container).
    #[inline]
    pub(crate) fn node(&self, pos: usize) -> Result<(Node<'_>, usize), Corrupt> {
        let tag = self.byte(pos)?;
        let next = pos + 1;
        Ok(match tag {
            SMALL_UINT..=0xFF => (Node::U64(u64::from(tag & 0x3f)), next),
            SHORT_STR..SHORT_STATIC => {
                let len = usize::from(tag & 0x3f);
                (Node::Str(self.slice(next, len)?), next + len)
            }
            NULL => (Node::Null, next),
            FALSE => (Node::Bool(false), next),
            TRUE => (Node::Bool(true), next),
            UINT => {
                let (v, next) = self.varint(next)?;
                (Node::U64(v), next)
            }
            NINT => {
                let (v, next) = self.varint(next)?;
                let v = i64::try_from(v).map_err(|_| Corrupt)?;
                (Node::I64(-1 - v), next)
            }
            F64 => {
                let raw = self.slice(next, 8)?.try_into().map_err(|_| Corrupt)?;
                (Node::F64(f64::from_le_bytes(raw)), next + 8)
            }
            F32 => {
                let raw = self.slice(next, 4)?.try_into().map_err(|_| Corrupt)?;
                (Node::F32(f32::from_le_bytes(raw)), next + 4)
            }
            NUM => {
                let (text, next) = self.sized(next)?;
                (Node::Num(text), next)
            }
            STR => {
                let (s, next) = self.sized(next)?;
                (Node::Str(s), next)
            }
            ARRAY | UNIFORM | OBJECT => {
                let body = next + 4;
                let end = self.container_end(next)?;
                let node = if tag == OBJECT {
                    Node::Object(body)
                } else {
                    Node::Array(body)
                };
                (node, end)
            }
            _ => return Err(CORRUPT),
        })
    }

    /// The position after the primitive at `pos`; `None` if a container starts there. The
    /// table check calls this for every cell, so it decodes lengths and nothing else.
    #[inline]
    pub(crate) fn skip_primitive(&self, pos: usize) -> Result<Option<usize>, Corrupt> {
        let tag = self.byte(pos)?;
        let next = pos + 1;
        Ok(Some(match tag {
            SMALL_UINT..=0xFF | NULL | FALSE | TRUE => next,
            SHORT_STR..SHORT_STATIC => next + usize::from(tag & 0x3f),
            UINT | NINT => self.varint(next)?.1,
            F64 => next + 8,
            F32 => next + 4,
            NUM | STR => {
                let (len, start) = self.varint(next)?;
                start + usize::try_from(len).map_err(|_| Corrupt)?
            }
            ARRAY | UNIFORM | OBJECT => return Ok(None),
            _ => return Err(Corrupt),
        }))
    }

    /// The primitive at `pos` as the writer takes it, and the position after it; `None` if a
    /// container starts there.
    #[inline]
    pub(crate) fn atom(&self, pos: usize) -> Result<Option<(Atom<'_>, usize)>, Corrupt> {
        let tag = self.byte(pos)?;
        let next = pos + 1;
        Ok(Some(match tag {
            SMALL_UINT..=0xFF => (Atom::U64(u64::from(tag & 0x3f)), next),
            SHORT_STR..SHORT_STATIC => {
                let len = usize::from(tag & 0x3f);
                (Atom::Str(self.slice(next, len)?), next + len)
            }
            UINT => {
                let (v, next) = self.varint(next)?;
                (Atom::U64(v), next)
            }
            NINT => {
                let (v, next) = self.varint(next)?;
                (Atom::I64(-1 - i64::try_from(v).map_err(|_| Corrupt)?), next)
            }
            F64 => {
                let raw = self.slice(next, 8)?.try_into().map_err(|_| Corrupt)?;
                (Atom::F64(f64::from_le_bytes(raw)), next + 8)
            }
            TRUE => (Atom::Bool(true), next),
            FALSE => (Atom::Bool(false), next),
            NULL => (Atom::Null, next),
            ARRAY | UNIFORM | OBJECT => return Ok(None),
            _ => {
                let (node, next) = self.node(pos)?;
                (node.atom().ok_or(Corrupt)?, next)
            }
        }))
    }

    /// Calls `cell` with each value of the object at `body`, in field order, skipping the
    /// keys. For the rows of a checked table whose columns are flat and in field order (every
    /// struct), so a cell costs one tag dispatch: the common tags are decoded here, inlined
    /// into the caller's writing, and the rest by [`atom`](Self::atom). A container value is
    /// [`Corrupt`] (the table check ruled it out).
    #[inline(always)]
    pub(crate) fn for_each_flat_value(
        &self,
        body: usize,
        mut cell: impl FnMut(Atom<'_>),
    ) -> Result<(), Corrupt> {
        let mut rest = self.bytes.get(body..).ok_or(CORRUPT)?;
        loop {
            let value = match rest.split_first().ok_or(CORRUPT)? {
                (&END, _) => return Ok(()),
                (SHORT_STATIC..SMALL_UINT, value) => value,
                _ => self.rest_at(self.key(self.offset_of(rest))?.1)?,
            };
            let (&tag, after) = value.split_first().ok_or(CORRUPT)?;
            rest = match tag {
                SMALL_UINT..=0xFF => {
                    cell(Atom::U64(u64::from(tag & 0x3f)));
                    after
                }
                SHORT_STR..SHORT_STATIC => {
                    let (s, after) = after
                        .split_at_checked(usize::from(tag & 0x3f))
                        .ok_or(CORRUPT)?;
                    cell(Atom::Str(s));
                    after
                }
                UINT => {
                    let (v, after) = varint_in(after)?;
                    cell(Atom::U64(v));
                    after
                }
                NINT => {
                    let (v, after) = varint_in(after)?;
                    cell(Atom::I64(-1 - i64::try_from(v).map_err(|_| Corrupt)?));
                    after
                }
                F64 => {
                    let (raw, after) = after.split_first_chunk::<8>().ok_or(CORRUPT)?;
                    cell(Atom::F64(f64::from_le_bytes(*raw)));
                    after
                }
                TRUE => {
                    cell(Atom::Bool(true));
                    after
                }
                FALSE => {
                    cell(Atom::Bool(false));
                    after
                }
                _ => {
                    let (atom, next) = self.atom(self.offset_of(value))?.ok_or(CORRUPT)?;
                    cell(atom);
                    self.rest_at(next)?
                }
            };
        }
    }

    /// The position of `rest`, a suffix of the tape.
    #[inline]
    fn offset_of(&self, rest: &[u8]) -> usize {
        self.bytes.len() - rest.len()
    }

    /// The tape from `pos` on.
    #[inline]
    fn rest_at(&self, pos: usize) -> Result<&[u8], Corrupt> {
        self.bytes.get(pos..).ok_or(CORRUPT)
    }

    /// The position of the value of the key at `pos`, without decoding the key.
    #[inline]
    pub(crate) fn skip_key(&self, pos: usize) -> Result<usize, Corrupt> {
        match self.byte(pos)? {
            SHORT_STATIC..SMALL_UINT => Ok(pos + 1),
            _ => Ok(self.key(pos)?.1),
        }
    }

    /// The key at `pos` and the position of its value.
    #[inline]
    pub(crate) fn key(&self, pos: usize) -> Result<(Key<'_>, usize), Corrupt> {
        let tag = self.byte(pos)?;
        let next = pos + 1;
        Ok(match tag {
            SHORT_STATIC..SMALL_UINT => (Key::Static(u32::from(tag & 0x3f)), next),
            SHORT_KEY..SHORT_STR => {
                let len = usize::from(tag & 0x1f);
                (Key::Bytes(self.slice(next, len)?), next + len)
            }
            KEY => {
                let (s, next) = self.sized(next)?;
                (Key::Bytes(s), next)
            }
            KEY_STATIC => {
                let (id, next) = self.varint(next)?;
                (Key::Static(u32::try_from(id).map_err(|_| Corrupt)?), next)
            }
            _ => return Err(CORRUPT),
        })
    }

    /// The next element of an array at `*pos`, advancing past it; `None` at the array's end.
    #[inline]
    pub(crate) fn next_item(&self, pos: &mut usize) -> Result<Option<Node<'_>>, Corrupt> {
        if self.at_end(*pos)? {
            return Ok(None);
        }
        let (node, next) = self.node(*pos)?;
        *pos = next;
        Ok(Some(node))
    }

    /// The next field of an object at `*pos`, advancing past it; `None` at the object's end.
    #[inline]
    pub(crate) fn next_field(
        &self,
        pos: &mut usize,
    ) -> Result<Option<(Key<'_>, Node<'_>)>, Corrupt> {
        if self.at_end(*pos)? {
            return Ok(None);
        }
        let (key, value_at) = self.key(*pos)?;
        let (node, next) = self.node(value_at)?;
        *pos = next;
        Ok(Some((key, node)))
    }

    /// The bytes of a key.
    pub(crate) fn key_bytes<'k>(&'k self, key: Key<'k>) -> &'k [u8] {
        match key {
            Key::Bytes(b) => b,
            Key::Static(id) => self
                .statics
                .get(id as usize)
                .map_or(&[][..], |s| s.as_bytes()),
        }
    }

    /// Whether two keys have the same text (ids are interned by content, so equal ids suffice).
    #[inline]
    pub(crate) fn key_eq(&self, a: Key<'_>, b: Key<'_>) -> bool {
        match (a, b) {
            (Key::Static(x), Key::Static(y)) => x == y,
            _ => self.key_bytes(a) == self.key_bytes(b),
        }
    }

    /// Position after the `END` of the container whose length field is at `at`.
    #[inline]
    fn container_end(&self, at: usize) -> Result<usize, Corrupt> {
        let raw = self.slice(at, 4)?.try_into().map_err(|_| Corrupt)?;
        let len = u32::from_le_bytes(raw);
        let body = at + 4;
        if len == UNKNOWN_LEN {
            return self.walk_to_end(body);
        }
        let end = body + len as usize;
        if self.byte(end)? != END {
            return Err(CORRUPT);
        }
        Ok(end + 1)
    }

    /// Position after the `END` closing the container whose content starts at `pos`, found
    /// by walking (iteratively: the nesting depth of the tape is bounded, but this path is
    /// only for containers longer than 4 GiB, where a length field could not be trusted).
    fn walk_to_end(&self, mut pos: usize) -> Result<usize, Corrupt> {
        let mut depth = 1usize;
        while depth > 0 {
            let tag = self.byte(pos)?;
            match tag {
                END => {
                    depth -= 1;
                    pos += 1;
                }
                ARRAY | UNIFORM | OBJECT => {
                    depth += 1;
                    pos += 5;
                }
                SHORT_STATIC..SMALL_UINT | SHORT_KEY..SHORT_STR | KEY | KEY_STATIC => {
                    pos = self.key(pos)?.1;
                }
                _ => pos = self.node(pos)?.1,
            }
        }
        Ok(pos)
    }
}

/// A LEB128 value at the start of `bytes`, and the bytes after it.
#[inline]
fn varint_in(bytes: &[u8]) -> Result<(u64, &[u8]), Corrupt> {
    let mut v = 0u64;
    let mut shift = 0u32;
    let mut rest = bytes;
    loop {
        let (&b, after) = rest.split_first().ok_or(CORRUPT)?;
        rest = after;
        v |= u64::from(b & 0x7f).checked_shl(shift).ok_or(CORRUPT)?;
        if b < 0x80 {
            return Ok((v, rest));
        }
        shift += 7;
    }
}

/// The tape does not hold what the serializer put there: an encoder bug, reported as
/// [`EncodeError::Internal`]. A zero-sized error keeps the reader's hot path free of
/// constructing and dropping `EncodeError` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Corrupt;

const CORRUPT: Corrupt = Corrupt;

impl From<Corrupt> for EncodeError {
    fn from(_: Corrupt) -> Self {
        EncodeError::Internal("malformed tape")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(f: impl FnOnce(&mut Tape)) -> Tape {
        let mut tape = Tape::default();
        f(&mut tape);
        tape
    }

    #[test]
    fn scalars_round_trip() {
        let tape = build(|t| {
            let at = t.open(Container::Array);
            for v in [0, 63, 64, 300, u64::MAX] {
                t.push_u64(v);
            }
            for v in [-1, -64, i64::MIN] {
                t.push_i64(v);
            }
            t.push_f64(-0.5);
            t.push_f32(0.25);
            t.push_str("");
            t.push_str(&"x".repeat(63));
            t.push_str(&"y".repeat(200));
            t.push_num(|out| out.extend_from_slice(b"123456789012345678901234567890"));
            t.push_null();
            t.push_bool(true);
            t.close(at);
        });
        let (Node::Array(body), end) = tape.node(0).expect("root") else {
            panic!("not an array");
        };
        assert_eq!(end, tape.len());
        let mut pos = body;
        let mut seen = Vec::new();
        while let Some(node) = tape.next_item(&mut pos).expect("item") {
            seen.push(format!("{node:?}"));
        }
        let expected_tail = [
            "F64(-0.5)".to_owned(),
            "F32(0.25)".to_owned(),
            "Str([])".to_owned(),
        ];
        assert_eq!(seen.len(), 16);
        assert_eq!(
            &seen[..5],
            [
                "U64(0)",
                "U64(63)",
                "U64(64)",
                "U64(300)",
                "U64(18446744073709551615)"
            ]
        );
        assert_eq!(
            &seen[5..8],
            ["I64(-1)", "I64(-64)", "I64(-9223372036854775808)"]
        );
        assert_eq!(&seen[8..11], expected_tail);
        assert_eq!(seen[14], "Null");
        assert_eq!(seen[15], "Bool(true)");
    }

    #[test]
    fn static_keys_are_interned_by_content() {
        let owned = String::from("name");
        let leaked: &'static str = Box::leak(owned.into_boxed_str());
        let tape = build(|t| {
            let at = t.open(Container::Object);
            for _ in 0..3 {
                t.push_static_key("name");
                t.push_null();
            }
            t.push_static_key(leaked);
            t.push_null();
            t.push_key("name");
            t.push_null();
            t.close(at);
        });
        let (Node::Object(body), _) = tape.node(0).expect("root") else {
            panic!("not an object");
        };
        let mut pos = body;
        let mut keys = Vec::new();
        while let Some((key, _)) = tape.next_field(&mut pos).expect("field") {
            keys.push(key);
        }
        assert_eq!(keys.len(), 5);
        assert!(matches!(keys[0], Key::Static(0)));
        // A different address with the same text gets the same id.
        assert!(matches!(keys[3], Key::Static(0)));
        assert!(matches!(keys[4], Key::Bytes(b"name")));
        assert!(keys.iter().all(|&k| tape.key_eq(k, keys[0])));
    }

    #[test]
    fn skipping_uses_lengths_and_walking_agrees() {
        let tape = build(|t| {
            let outer = t.open(Container::Array);
            let inner = t.open(Container::Object);
            t.push_key("k");
            let list = t.open(Container::Array);
            t.push_str("v");
            t.close(list);
            t.close(inner);
            t.push_u64(7);
            t.close(outer);
        });
        let (Node::Array(body), end) = tape.node(0).expect("root") else {
            panic!("not an array");
        };
        assert_eq!(tape.walk_to_end(body).expect("walk"), end);
        let mut pos = body;
        assert!(matches!(
            tape.next_item(&mut pos),
            Ok(Some(Node::Object(_)))
        ));
        assert!(matches!(tape.next_item(&mut pos), Ok(Some(Node::U64(7)))));
        assert!(matches!(tape.next_item(&mut pos), Ok(None)));
    }

    #[test]
    fn truncated_tape_is_an_error_not_a_panic() {
        let mut tape = build(|t| {
            let at = t.open(Container::Array);
            t.push_str("hello");
            t.close(at);
        });
        tape.bytes.truncate(7);
        assert_eq!(tape.node(0).err(), Some(Corrupt));
        tape.bytes = vec![UINT, 0xff, 0xff];
        assert_eq!(tape.node(0).err(), Some(Corrupt));
    }
}
