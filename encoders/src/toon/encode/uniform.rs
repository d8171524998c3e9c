//! Record-time detection of the commonest table: an array whose elements are all objects with
//! the first element's struct field names, in the same order, and only primitive values — a
//! `Vec` of flat structs. The serializer sees each key id as it records it, so comparing it with
//! the first element's costs one comparison per field; the layout then skips its own check for
//! arrays marked this way. Anything else (maps, nested objects, other orders) is left to the
//! layout's full check, so this is only ever a shortcut to the same answer.

/// One open container.
#[derive(Debug, Clone, Copy)]
enum Track {
    /// Outside any container.
    Root,
    Array {
        /// Where the first element's key ids start in [`Tracker::refs`].
        refs_at: usize,
        /// The first element's field count, once it has closed.
        first_len: Option<usize>,
        /// Every element so far conformed.
        uniform: bool,
    },
    Object {
        /// Fields seen so far.
        fields: usize,
        /// The object is an element of an array, every key so far was a struct field name
        /// matching the first element's, and every value so far was a primitive.
        ok: bool,
        /// The object is an element of an array (so it is being compared).
        element: bool,
        /// The enclosing array's `refs_at`, copied so keys need not look past this frame.
        refs_at: usize,
        /// The object is its array's first element: its keys become the reference.
        first: bool,
    },
}

/// A key of an array's first element: its interned id, and the address and length of the
/// `&'static str` it came from, so the same field of later elements is recognised (and its id
/// known) by comparing two words, without interning it again.
#[derive(Debug, Clone, Copy)]
struct Ref {
    addr: usize,
    len: usize,
    id: u32,
}

/// The uniformity tracker; kept by the encoder so its buffers are reused.
#[derive(Debug)]
pub(crate) struct Tracker {
    /// The innermost open container, kept out of `stack` so per-key work touches one value.
    cur: Track,
    /// The containers enclosing `cur`.
    stack: Vec<Track>,
    /// Keys of the first element of each open array, back to back.
    refs: Vec<Ref>,
    /// Whether the object that closed last conformed to its array's first element.
    conforming: bool,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker {
            cur: Track::Root,
            stack: Vec::new(),
            refs: Vec::new(),
            conforming: false,
        }
    }
}

impl Tracker {
    pub(crate) fn clear(&mut self) {
        self.cur = Track::Root;
        self.stack.clear();
        self.refs.clear();
        self.conforming = false;
    }

    #[inline]
    fn push(&mut self, track: Track) {
        // A container value makes the enclosing object non-flat.
        if let Track::Object { ok, .. } = &mut self.cur {
            *ok = false;
        }
        self.stack.push(std::mem::replace(&mut self.cur, track));
    }

    #[inline]
    fn pop(&mut self) -> Track {
        let parent = self.stack.pop().unwrap_or(Track::Root);
        std::mem::replace(&mut self.cur, parent)
    }

    #[inline]
    pub(crate) fn open_array(&mut self) {
        let refs_at = self.refs.len();
        self.push(Track::Array {
            refs_at,
            first_len: None,
            uniform: true,
        });
    }

    #[inline]
    pub(crate) fn open_object(&mut self) {
        let object = match self.cur {
            Track::Array {
                refs_at, first_len, ..
            } => Track::Object {
                fields: 0,
                ok: true,
                element: true,
                refs_at,
                first: first_len.is_none(),
            },
            Track::Root | Track::Object { .. } => Track::Object {
                fields: 0,
                ok: false,
                element: false,
                refs_at: 0,
                first: false,
            },
        };
        self.push(object);
    }

    /// The id of `key` if it is the field the first element had at this position (the common
    /// case in a table of structs), counting it as seen; `None` otherwise, and then the caller
    /// interns the key and reports it with [`static_key`](Self::static_key).
    #[inline]
    pub(crate) fn predict(&mut self, key: &'static str) -> Option<u32> {
        let Track::Object {
            fields,
            ok: true,
            refs_at,
            first: false,
            ..
        } = &mut self.cur
        else {
            return None;
        };
        let known = self.refs.get(*refs_at + *fields)?;
        if known.addr != key.as_ptr() as usize || known.len != key.len() {
            return None;
        }
        *fields += 1;
        Some(known.id)
    }

    /// A struct field name with its interned id, in the current object.
    #[inline]
    pub(crate) fn static_key(&mut self, key: &'static str, id: u32) {
        if let Track::Object {
            fields,
            ok: ok @ true,
            refs_at,
            first,
            ..
        } = &mut self.cur
        {
            if *first {
                self.refs.push(Ref {
                    addr: key.as_ptr() as usize,
                    len: key.len(),
                    id,
                });
            } else {
                // Ids are interned by content: a copy of the name elsewhere matches too.
                *ok = self
                    .refs
                    .get(*refs_at + *fields)
                    .is_some_and(|known| known.id == id);
            }
            *fields += 1;
        }
    }

    /// A map key: such objects are left to the layout's check.
    #[inline]
    pub(crate) fn dynamic_key(&mut self) {
        if let Track::Object { ok, .. } = &mut self.cur {
            *ok = false;
        }
    }

    #[inline]
    pub(crate) fn close_object(&mut self) {
        self.conforming = false;
        let Track::Object {
            fields,
            ok,
            element: true,
            ..
        } = self.pop()
        else {
            return;
        };
        if let Track::Array { first_len, .. } = &mut self.cur {
            match *first_len {
                None => {
                    *first_len = Some(fields);
                    self.conforming = ok && fields > 0;
                }
                Some(len) => self.conforming = ok && fields == len,
            }
        }
    }

    /// Closes the current array; `true` if it is a non-empty array of conforming objects.
    #[inline]
    pub(crate) fn close_array(&mut self) -> bool {
        self.conforming = false;
        match self.pop() {
            Track::Array {
                refs_at,
                first_len,
                uniform,
            } => {
                self.refs.truncate(refs_at);
                uniform && first_len.is_some()
            }
            Track::Root | Track::Object { .. } => false,
        }
    }

    /// Before an array element is serialized.
    #[inline]
    pub(crate) fn element_begin(&mut self) {
        self.conforming = false;
    }

    /// After an array element was serialized: it conforms only if it was an object that did.
    #[inline]
    pub(crate) fn element_end(&mut self) {
        if let Track::Array { uniform, .. } = &mut self.cur {
            *uniform &= self.conforming;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 8] = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"];

    fn object(t: &mut Tracker, keys: &[u32], nested: bool) {
        t.element_begin();
        t.open_object();
        for &k in keys {
            if t.predict(NAMES[k as usize]) != Some(k) {
                t.static_key(NAMES[k as usize], k);
            }
        }
        if nested {
            t.open_object();
            t.close_object();
        }
        t.close_object();
        t.element_end();
    }

    fn array(build: impl FnOnce(&mut Tracker)) -> bool {
        let mut t = Tracker::default();
        t.open_array();
        build(&mut t);
        t.close_array()
    }

    #[test]
    fn same_keys_in_order_are_uniform() {
        assert!(array(|t| {
            object(t, &[1, 2, 3], false);
            object(t, &[1, 2, 3], false);
        }));
    }

    #[test]
    fn anything_else_is_left_to_the_layout() {
        assert!(!array(|_| {}), "empty");
        assert!(!array(|t| object(t, &[], false)), "empty object");
        assert!(
            !array(|t| {
                object(t, &[1, 2], false);
                object(t, &[2, 1], false);
            }),
            "other order"
        );
        assert!(
            !array(|t| {
                object(t, &[1, 2], false);
                object(t, &[1], false);
            }),
            "fewer keys"
        );
        assert!(
            !array(|t| {
                object(t, &[1], false);
                object(t, &[1, 2], false);
            }),
            "more keys"
        );
        assert!(
            !array(|t| {
                object(t, &[1, 2], false);
                object(t, &[1, 3], false);
            }),
            "other key"
        );
        assert!(!array(|t| object(t, &[1], true)), "nested value");
        assert!(
            !array(|t| {
                object(t, &[1], false);
                t.element_begin();
                t.element_end();
            }),
            "primitive element"
        );
        assert!(
            !array(|t| {
                t.element_begin();
                t.open_object();
                t.dynamic_key();
                t.close_object();
                t.element_end();
            }),
            "map"
        );
    }

    #[test]
    fn inner_arrays_do_not_leak_into_outer_ones() {
        let mut t = Tracker::default();
        t.open_array();
        t.element_begin();
        t.open_array();
        object(&mut t, &[7], false);
        assert!(t.close_array(), "the inner array is uniform");
        t.element_end();
        assert!(
            !t.close_array(),
            "the outer array holds an array, not objects"
        );
    }
}
