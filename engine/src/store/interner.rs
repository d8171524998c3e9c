//! Distinct strings held once, numbered in the order they first came: what a bulk load
//! gathers its search terms and callable names into. A million-node load has millions of
//! term occurrences but far fewer distinct terms (a name recurs across files, a word across
//! names), so each occurrence costs a number rather than its text.

use hashbrown::HashTable;

/// Distinct strings, each with a number (its index in the order it first came).
#[derive(Default)]
pub(super) struct Interner {
    /// The strings one after another.
    text: String,
    /// Where each string ends in `text`.
    ends: Vec<u32>,
    /// The numbers, found by the hash of their string.
    numbers: HashTable<u32>,
    /// Where a string made of parts is put together before it is looked up.
    scratch: String,
}

impl Interner {
    /// The number of the string made of `parts` one after another, given it if it is new;
    /// `None` when the strings would pass 4 GiB.
    pub(super) fn intern(&mut self, parts: &[&str]) -> Option<u32> {
        if let [whole] = parts {
            return self.intern_str(whole);
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        parts.iter().for_each(|part| scratch.push_str(part));
        let number = self.intern_str(&scratch);
        self.scratch = scratch;
        number
    }

    fn intern_str(&mut self, string: &str) -> Option<u32> {
        let hash = hash_of(string);
        let (text, ends) = (&self.text, &self.ends);
        let found = self
            .numbers
            .find(hash, |&number| string_at(text, ends, number) == string);
        if let Some(&number) = found {
            return Some(number);
        }
        let number = u32::try_from(self.ends.len()).ok()?;
        self.text.push_str(string);
        self.ends.push(u32::try_from(self.text.len()).ok()?);
        let (text, ends) = (&self.text, &self.ends);
        self.numbers.insert_unique(hash, number, |&number| {
            hash_of(string_at(text, ends, number))
        });
        Some(number)
    }

    /// The string numbered `number` ("" for a number never given).
    pub(super) fn get(&self, number: u32) -> &str {
        string_at(&self.text, &self.ends, number)
    }

    /// How many distinct strings it holds.
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Each number's rank among the strings in byte order: `ranks[number]`.
    pub(super) fn ranks(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.ends.len())
            .filter_map(|n| n.try_into().ok())
            .collect();
        order.sort_unstable_by(|&a, &b| self.get(a).cmp(self.get(b)));
        let mut ranks = vec![0; order.len()];
        for (rank, &number) in (0u32..).zip(&order) {
            ranks[number as usize] = rank;
        }
        ranks
    }
}

fn string_at<'a>(text: &'a str, ends: &[u32], number: u32) -> &'a str {
    let index = number as usize;
    let Some(&end) = ends.get(index) else {
        return "";
    };
    let start = index.checked_sub(1).map_or(0, |before| ends[before]);
    text.get(start as usize..end as usize).unwrap_or("")
}

fn hash_of(string: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(string.as_bytes())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use super::*;

    #[test]
    fn a_string_keeps_the_number_it_first_got_whatever_its_parts() {
        let mut strings = Interner::default();
        let ab = strings.intern(&["a", "b"]).unwrap();
        let c = strings.intern(&["c"]).unwrap();
        assert_ne!(ab, c);
        assert_eq!(strings.intern(&["ab"]), Some(ab));
        assert_eq!(strings.intern(&["", "a", "b", ""]), Some(ab));
        assert_eq!(strings.intern(&["c"]), Some(c));
        assert_eq!(
            (strings.get(ab), strings.get(c), strings.len()),
            ("ab", "c", 2)
        );
        assert_eq!(strings.get(7), "");
        // Enough strings for the table to grow several times: every one still found.
        let numbers: Vec<u32> = (0..5000)
            .map(|i| strings.intern(&[&i.to_string()]).unwrap())
            .collect();
        for (i, number) in numbers.iter().enumerate() {
            assert_eq!(strings.intern(&[&i.to_string()]), Some(*number));
            assert_eq!(strings.get(*number), i.to_string());
        }
    }

    #[test]
    fn ranks_follow_byte_order() {
        let mut strings = Interner::default();
        for s in ["b", "B", "ab", "a", ""] {
            strings.intern(&[s]).unwrap();
        }
        // Byte order: "", "B", "a", "ab", "b".
        assert_eq!(strings.ranks(), vec![4, 1, 3, 2, 0]);
    }
}
