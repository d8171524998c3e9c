//! The words of identifiers and paths, for topic search: `createUserStore`,
//! `SessionStore`, `user_store`, `user-store.ts` and `HTMLParser2` are split at case changes,
//! punctuation and digits into lowercase words, and a plural is reduced to its singular
//! (`stores` → `store`, `entries` → `entry`, `boxes` → `box`), so that a query and a name meet
//! on the same form. The search index keeps every node's words as terms of their own
//! ([`word_term`]).

/// What starts a word term in the search index: a byte no name or path term begins with, so
/// word terms never meet a name lookup, and the FST of name terms leaves them out.
pub(crate) const WORD_MARK: char = '\u{1}';

/// The index term of `word` (a word as [`words`] gives it).
pub fn word_term(word: &str) -> String {
    let mut term = String::with_capacity(word.len() + 1);
    term.push(WORD_MARK);
    term.push_str(word);
    term
}

/// Whether `term` is a word term rather than a name or path term.
pub(crate) fn is_word_term(term: &str) -> bool {
    term.starts_with(WORD_MARK)
}

/// The words of `text`, lowercase and singular, each once, in order of first appearance.
///
/// ```
/// use tsgraph_engine::words;
/// assert_eq!(words("createUserStore"), ["create", "user", "store"]);
/// assert_eq!(words("HTMLParser2"), ["html", "parser", "2"]);
/// assert_eq!(words("src/user-stores/session_entries.ts"), ["src", "user", "store", "session", "entry", "ts"]);
/// ```
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for span in spans(text) {
        let word = singular(&span.to_lowercase());
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

/// How many words `text` has as [`words`] splits it, repeats included, without allocating
/// (the length of a name in topic search's ranking).
pub fn word_count(text: &str) -> usize {
    spans(text).count()
}

/// The words of `text` as written: runs of letters and digits, split where a lowercase
/// letter meets a capital, before the last capital of a run followed by a lowercase letter
/// (`HTMLParser` → `HTML`, `Parser`), and where letters meet digits.
fn spans(text: &str) -> impl Iterator<Item = &str> {
    let mut chars = text.char_indices().peekable();
    let mut start: Option<usize> = None;
    let mut previous: Option<char> = None;
    std::iter::from_fn(move || {
        while let Some((at, c)) = chars.next() {
            if !c.is_alphanumeric() {
                previous = None;
                if let Some(begun) = start.take() {
                    return Some(&text[begun..at]);
                }
                continue;
            }
            let boundary = previous.is_some_and(|p| {
                let next_lower = chars.peek().is_some_and(|&(_, n)| n.is_lowercase());
                (p.is_lowercase() && c.is_uppercase())
                    || (p.is_uppercase() && c.is_uppercase() && next_lower)
                    || (p.is_ascii_digit() != c.is_ascii_digit())
            });
            previous = Some(c);
            match start {
                None => start = Some(at),
                Some(begun) if boundary => {
                    start = Some(at);
                    return Some(&text[begun..at]);
                }
                Some(_) => {}
            }
        }
        start.take().map(|begun| &text[begun..])
    })
}

/// A plural reduced to its singular, by the common English endings; short words and words
/// that only look plural (`status`, `class`, `analysis`) are left alone.
fn singular(word: &str) -> String {
    let keep = word.len() <= 3
        || word.ends_with("ss")
        || word.ends_with("us")
        || word.ends_with("is")
        || !word.ends_with('s');
    if keep {
        return word.to_owned();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["ches", "shes", "xes", "zes", "sses"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    word[..word.len() - 1].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_case_digits_and_punctuation() {
        assert_eq!(words("SessionStore"), ["session", "store"]);
        assert_eq!(words("store"), ["store"]);
        assert_eq!(words("user_store"), ["user", "store"]);
        assert_eq!(words("USER_STORE"), ["user", "store"]);
        assert_eq!(words("getV2Users"), ["get", "v", "2", "user"]);
        assert_eq!(words("XMLHttpRequest"), ["xml", "http", "request"]);
        assert!(words("").is_empty());
        assert!(words("__").is_empty());
    }

    #[test]
    fn plurals_become_singular_and_look_alikes_stay() {
        for (plural, single) in [
            ("stores", "store"),
            ("entries", "entry"),
            ("boxes", "box"),
            ("matches", "match"),
            ("status", "status"),
            ("class", "class"),
            ("analysis", "analysis"),
            ("ids", "ids"),
        ] {
            assert_eq!(singular(plural), single, "{plural}");
        }
    }

    #[test]
    fn word_counts_agree_with_the_split() {
        for text in [
            "createUserStore",
            "HTMLParser2",
            "user_store",
            "a",
            "",
            "getV2Users",
            "XMLHttpRequest",
        ] {
            assert_eq!(word_count(text), words(text).len(), "{text}");
        }
        assert_eq!(word_count("storeStores"), 2);
    }

    #[test]
    fn a_word_appears_once() {
        assert_eq!(words("storeStores"), ["store"]);
    }
}
