//! Splitting text the way o200k's pre-tokenizer splits it: words at case changes, digits in
//! threes, punctuation runs, whitespace. Each byte's class comes from one table, since this
//! runs over every byte of every answer measured against a budget.

use super::known::is_known;

/// What a piece of text is, as o200k's pre-tokenizer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Lower-case letters (`offset`, `create`).
    Lower,
    /// An upper-case run then lower-case letters (`User`, `HTTPServer`).
    Capital,
    /// Upper-case letters only (`CALLS`).
    Upper,
    /// A word tsgraph writes itself, or a TypeScript keyword or common type: one token.
    Known,
    /// Punctuation, possibly after one space.
    Punct,
    /// Up to three digits: one token.
    Digits,
    /// A run of whitespace: one token.
    Space,
    /// `_` and a digit: the start of a Mermaid escape in a node id (`_2f`).
    Escape,
    /// Letters right after an escape's digit (`fdb` of `_2fdb`): the escape's hex letter
    /// glued to the word after it, which splits into odd pieces.
    Glued,
}

/// Bits of a byte's class in [`BYTES`].
const UPPER: u8 = 1;
/// `a`–`z` and every byte of a multi-byte character (counted as lower-case letters).
const LOWER: u8 = 2;
const LETTER: u8 = UPPER | LOWER;
const DIGIT: u8 = 4;
/// A space or a tab.
const SPACE: u8 = 8;
const NEWLINE: u8 = 16;
const HEX: u8 = 32;
/// Neither a letter, a digit, a space nor a newline.
const PUNCT: u8 = 64;

/// Each byte's class bits.
static BYTES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        let byte = b as u8;
        let mut bits = if byte.is_ascii_uppercase() {
            UPPER
        } else if byte.is_ascii_lowercase() || byte >= 0x80 {
            LOWER
        } else if byte.is_ascii_digit() {
            DIGIT
        } else if byte == b' ' || byte == b'\t' {
            SPACE
        } else if byte == b'\n' || byte == b'\r' {
            NEWLINE
        } else {
            PUNCT
        };
        if byte.is_ascii_hexdigit() {
            bits |= HEX;
        }
        table[b] = bits;
        b += 1;
    }
    table
};

/// The class bits of `b`.
fn bits(b: u8) -> u8 {
    BYTES[usize::from(b)]
}

/// Whether the byte at `i` (if any) has one of `wanted`'s bits.
fn at_is(text: &[u8], i: usize, wanted: u8) -> bool {
    text.get(i).is_some_and(|&b| bits(b) & wanted != 0)
}

/// Calls `f` with each piece of `text`: its class, whether a character joins it from the
/// left, and its length (for words, without that character).
pub(super) fn for_each_piece(text: &[u8], mut f: impl FnMut(Class, bool, usize)) {
    let mut i = 0;
    while i < text.len() {
        let (len, class, joined, piece_len) = piece_at(text, i);
        f(class, joined, piece_len);
        i += len.max(1);
    }
}

/// The piece starting at `i`: its length in bytes, its class, whether a character joins it
/// from the left, and its length as costed (for a joined word, without that character).
#[inline(always)]
fn piece_at(text: &[u8], i: usize) -> (usize, Class, bool, usize) {
    let b = text[i];
    let class = bits(b);
    if class & LETTER != 0 {
        let glued = i >= 2 && text[i - 2] == b'_' && bits(text[i - 1]) & DIGIT != 0;
        let (len, word) = word_at(text, i);
        if glued {
            return (len, Class::Glued, false, len);
        }
        return (len, known_or(word, &text[i..i + len]), false, len);
    }
    if b == b'_' && at_is(text, i + 1, DIGIT) && at_is(text, i + 2, HEX) {
        return (2, Class::Escape, false, 2);
    }
    // One non-letter, non-digit character joins the word after it (` foo`, `.ts`, `"src`).
    if class & (SPACE | PUNCT) != 0 && at_is(text, i + 1, LETTER) {
        let (len, word) = word_at(text, i + 1);
        return (
            1 + len,
            known_or(word, &text[i + 1..i + 1 + len]),
            true,
            len,
        );
    }
    if class & DIGIT != 0 {
        let len = text[i..]
            .iter()
            .take(3)
            .take_while(|&&b| bits(b) & DIGIT != 0)
            .count();
        return (len, Class::Digits, false, len);
    }
    if class & (SPACE | NEWLINE) != 0 {
        return (whitespace_len(text, i), Class::Space, false, 1);
    }
    // A punctuation run, with the newlines and slashes right after it; a single space before
    // it is taken by the whitespace rule below, which leaves it here.
    let mut end = i;
    while end < text.len() && bits(text[end]) & PUNCT != 0 {
        end += 1;
    }
    while end < text.len() && (bits(text[end]) & NEWLINE != 0 || text[end] == b'/') {
        end += 1;
    }
    let joined = i > 0 && text[i - 1] == b' ';
    (end - i, Class::Punct, joined, end - i)
}

/// `word`'s class, or [`Class::Known`] when it is one of the known words.
fn known_or(class: Class, word: &[u8]) -> Class {
    if is_known(word) { Class::Known } else { class }
}

/// A word from `start`, which is a letter: upper-case letters then lower-case ones.
fn word_at(text: &[u8], start: usize) -> (usize, Class) {
    let mut end = start;
    while end < text.len() && bits(text[end]) & UPPER != 0 {
        end += 1;
    }
    let upper = end - start;
    while end < text.len() && bits(text[end]) & LOWER != 0 {
        end += 1;
    }
    let class = match (upper, end - start - upper) {
        (_, 0) => Class::Upper,
        (0, _) => Class::Lower,
        _ => Class::Capital,
    };
    (end - start, class)
}

/// Whitespace from `i`: up to and including a newline run, or spaces up to (not including)
/// the last one before a word or punctuation, which joins what follows.
fn whitespace_len(text: &[u8], i: usize) -> usize {
    let mut end = i;
    while end < text.len() && bits(text[end]) & SPACE != 0 {
        end += 1;
    }
    if end < text.len() && bits(text[end]) & NEWLINE != 0 {
        while end < text.len() && bits(text[end]) & NEWLINE != 0 {
            end += 1;
        }
        return end - i;
    }
    let joins_next = end < text.len() && bits(text[end]) & DIGIT == 0 && end - i > 1;
    if joins_next { end - i - 1 } else { end - i }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-byte rules the table replaces, as first written: the scanner must split
    /// every text as they do.
    mod reference {
        use super::super::Class;

        fn ref_is_letter(b: u8) -> bool {
            b.is_ascii_alphabetic() || b >= 0x80
        }

        fn ref_is_lower(b: u8) -> bool {
            b.is_ascii_lowercase() || b >= 0x80
        }

        fn ref_is_newline(b: u8) -> bool {
            b == b'\n' || b == b'\r'
        }

        fn ref_is_space(b: u8) -> bool {
            b == b' ' || b == b'\t'
        }

        fn ref_is_punct(b: u8) -> bool {
            !ref_is_letter(b) && !b.is_ascii_digit() && !ref_is_space(b) && !ref_is_newline(b)
        }

        /// Calls `f` with each piece of `text`: its class, whether a character joins it from the
        /// left, and its length (for words, without that character).
        pub(super) fn ref_for_each_piece(text: &[u8], mut f: impl FnMut(Class, bool, usize)) {
            let mut i = 0;
            while i < text.len() {
                let (len, piece) = ref_piece_at(text, i);
                if let Some((class, joined, piece_len)) = piece {
                    f(class, joined, piece_len);
                }
                i += len.max(1);
            }
        }

        /// The piece starting at `i`: its length in bytes, and its class, joining and length
        /// (`None` for whitespace and digits, which cost one token each).
        fn ref_piece_at(text: &[u8], i: usize) -> (usize, Option<(Class, bool, usize)>) {
            let b = text[i];
            let next = text.get(i + 1).copied();
            let escape = b == b'_'
                && next.is_some_and(|d| d.is_ascii_digit())
                && text.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
            if escape {
                return (2, Some((Class::Escape, false, 2)));
            }
            let glued =
                i >= 2 && text[i - 2] == b'_' && text[i - 1].is_ascii_digit() && ref_is_letter(b);
            if glued {
                let (len, _) = ref_word_at(text, i);
                return (len, Some((Class::Glued, false, len)));
            }
            // One non-letter, non-digit character joins the word after it (` foo`, `.ts`, `"src`).
            let joined = !ref_is_letter(b)
                && !b.is_ascii_digit()
                && !ref_is_newline(b)
                && next.is_some_and(ref_is_letter);
            if ref_is_letter(b) || joined {
                let start = i + usize::from(joined);
                let (len, class) = ref_word_at(text, start);
                let word = &text[start..start + len];
                let class = if super::is_known(word) {
                    Class::Known
                } else {
                    class
                };
                return (start + len - i, Some((class, joined, len)));
            }
            if b.is_ascii_digit() {
                let len = text[i..]
                    .iter()
                    .take(3)
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                return (len, Some((Class::Digits, false, len)));
            }
            if ref_is_space(b) || ref_is_newline(b) {
                return (ref_whitespace_len(text, i), Some((Class::Space, false, 1)));
            }
            // A punctuation run, with the newlines and slashes right after it; a single space before
            // it is taken by the whitespace rule below, which leaves it here.
            let mut end = i;
            while end < text.len() && ref_is_punct(text[end]) {
                end += 1;
            }
            while end < text.len() && (ref_is_newline(text[end]) || text[end] == b'/') {
                end += 1;
            }
            let joined = i > 0 && text[i - 1] == b' ';
            (end - i, Some((Class::Punct, joined, end - i)))
        }

        /// A word from `start`: upper-case letters then lower-case ones.
        fn ref_word_at(text: &[u8], start: usize) -> (usize, Class) {
            let mut end = start;
            while end < text.len() && text[end].is_ascii_uppercase() {
                end += 1;
            }
            let upper = end - start;
            while end < text.len() && ref_is_lower(text[end]) {
                end += 1;
            }
            if end == start {
                return (1, Class::Lower);
            }
            let class = match (upper, end - start - upper) {
                (_, 0) => Class::Upper,
                (0, _) => Class::Lower,
                _ => Class::Capital,
            };
            (end - start, class)
        }

        /// Whitespace from `i`: up to and including a newline run, or spaces up to (not including)
        /// the last one before a word or punctuation, which joins what follows.
        fn ref_whitespace_len(text: &[u8], i: usize) -> usize {
            let mut end = i;
            while end < text.len() && ref_is_space(text[end]) {
                end += 1;
            }
            if end < text.len() && ref_is_newline(text[end]) {
                while end < text.len() && ref_is_newline(text[end]) {
                    end += 1;
                }
                return end - i;
            }
            let joins_next = end < text.len() && !text[end].is_ascii_digit() && end - i > 1;
            if joins_next { end - i - 1 } else { end - i }
        }
    }

    /// A piece as [`for_each_piece`] hands it out.
    type Piece = (Class, bool, usize);

    /// A splitter: the table's or the reference's.
    type Split = fn(&[u8], &mut dyn FnMut(Class, bool, usize));

    fn pieces(text: &[u8], split: Split) -> Vec<Piece> {
        let mut out = Vec::new();
        split(text, &mut |class, joined, len| {
            out.push((class, joined, len))
        });
        out
    }

    #[test]
    fn the_table_splits_as_the_per_byte_rules_do() {
        // Bytes of every class, including the escape's `_`, hex digits, `/` and bytes of
        // multi-byte characters, drawn by a fixed xorshift so that a failure reproduces.
        let alphabet = b"_0129afAFgzGZ/ \t\n\r.:,\"{}[]()-\xc3\xa9\x80";
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..20_000 {
            let len = round % 40;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect();
            assert_eq!(
                pieces(&text, |t, f| for_each_piece(t, f)),
                pieces(&text, |t, f| reference::ref_for_each_piece(t, f)),
                "{:?}",
                String::from_utf8_lossy(&text)
            );
        }
        for text in [
            &b"callers: \"src/Hash.ts:hash\"\nfunctions[2]{id,lines}:\n  g,1-3\n"[..],
            b"flowchart LR\n  n_2fdb_2fsrc[\"Promise<Array<string>>\"]\n  callers",
            b"relationship transitive IMPLEMENTS HTTPServer buildUserStore 1234567",
        ] {
            assert_eq!(
                pieces(text, |t, f| for_each_piece(t, f)),
                pieces(text, |t, f| reference::ref_for_each_piece(t, f))
            );
        }
    }
}
