//! The words that cost one o200k token whatever comes after them, and the lookup of a word
//! among them, which runs for every word of every answer measured against a budget (several
//! times per answer while a cut is sought).

/// Words of tsgraph's own answers and of TypeScript signatures, each a single o200k token
/// (alone or after a space); sorted by bytes, so that the words of one first letter are one
/// range of [`KNOWN_BY_FIRST`].
pub(super) const KNOWN: &[&str] = &[
    "Array",
    "CALLS",
    "CONTAINS",
    "Class",
    "EXTENDS",
    "File",
    "Function",
    "IMPLEMENTS",
    "IMPORTS",
    "INCLUDES",
    "Interface",
    "Map",
    "Method",
    "Partial",
    "Promise",
    "Property",
    "REFERENCES",
    "Readonly",
    "Record",
    "Set",
    "TYPE",
    "Type",
    "USES",
    "Variable",
    "add",
    "and",
    "any",
    "args",
    "async",
    "at",
    "be",
    "boolean",
    "by",
    "call",
    "callee",
    "callees",
    "caller",
    "callers",
    "calls",
    "cjs",
    "class",
    "classDef",
    "classes",
    "config",
    "const",
    "could",
    "create",
    "data",
    "delete",
    "dependents",
    "depth",
    "direct",
    "dist",
    "edges",
    "error",
    "export",
    "exported",
    "false",
    "file",
    "files",
    "fill",
    "flowchart",
    "fn",
    "from",
    "function",
    "functions",
    "get",
    "has",
    "id",
    "in",
    "index",
    "interface",
    "interfaces",
    "is",
    "it",
    "js",
    "kind",
    "lib",
    "limit",
    "lines",
    "may",
    "method",
    "methods",
    "mjs",
    "module",
    "name",
    "never",
    "new",
    "nodes",
    "not",
    "null",
    "number",
    "of",
    "offset",
    "on",
    "options",
    "or",
    "package",
    "properties",
    "property",
    "props",
    "queried",
    "reach",
    "readonly",
    "relationship",
    "remove",
    "resolved",
    "result",
    "return",
    "set",
    "sig",
    "sites",
    "source",
    "src",
    "state",
    "static",
    "string",
    "stroke",
    "target",
    "test",
    "this",
    "through",
    "to",
    "transitive",
    "true",
    "ts",
    "tsx",
    "type",
    "types",
    "undefined",
    "unknown",
    "unresolved",
    "update",
    "use",
    "value",
    "variable",
    "variables",
    "via",
    "void",
    "width",
    "with",
];

/// The longest of [`KNOWN`]: a longer word is not looked up.
const LONGEST: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < KNOWN.len() {
        if KNOWN[i].len() > longest {
            longest = KNOWN[i].len();
        }
        i += 1;
    }
    longest
};

// A known word must pack into 16 bytes.
const _: () = assert!(LONGEST <= 16);

/// A word of at most 16 bytes as one number (its bytes little endian, zeros after), so a
/// candidate is compared in one step instead of a call to compare memory.
const fn packed(word: &[u8]) -> u128 {
    let mut value = 0u128;
    let mut i = 0;
    while i < word.len() {
        value |= (word[i] as u128) << (8 * i);
        i += 1;
    }
    value
}

/// Each of [`KNOWN`], packed, with its length.
static KNOWN_PACKED: [(u8, u128); KNOWN.len()] = {
    let mut table = [(0u8, 0u128); KNOWN.len()];
    let mut i = 0;
    while i < KNOWN.len() {
        table[i] = (KNOWN[i].len() as u8, packed(KNOWN[i].as_bytes()));
        i += 1;
    }
    table
};

/// For each first byte, the range of [`KNOWN`] whose words start with it (the list is
/// sorted by bytes, so they are one range).
static KNOWN_BY_FIRST: [(u8, u8); 128] = {
    let mut ranges = [(0u8, 0u8); 128];
    let mut i = 0;
    while i < KNOWN.len() {
        let first = KNOWN[i].as_bytes()[0] as usize;
        if ranges[first].1 == 0 {
            ranges[first].0 = i as u8;
        }
        ranges[first].1 = i as u8 + 1;
        i += 1;
    }
    ranges
};

/// Whether `word` is one of [`KNOWN`]: among the few of its first letter, by length, then
/// by its packed bytes.
pub(super) fn is_known(word: &[u8]) -> bool {
    let (Some(&first), true) = (word.first(), word.len() <= LONGEST) else {
        return false;
    };
    let Some(&(start, end)) = KNOWN_BY_FIRST.get(usize::from(first)) else {
        return false;
    };
    let candidates = &KNOWN_PACKED[usize::from(start)..usize::from(end)];
    let len = word.len() as u8;
    if !candidates.iter().any(|&(known, _)| known == len) {
        return false;
    }
    let word = packed(word);
    candidates
        .iter()
        .any(|&(known, bytes)| known == len && bytes == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_words_are_sorted_so_that_each_first_letter_is_one_range() {
        assert!(KNOWN.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
        assert!(KNOWN.len() < usize::from(u8::MAX));
        assert!(KNOWN.iter().all(|k| !k.is_empty() && k.is_ascii()));
    }

    #[test]
    fn every_known_word_and_nothing_else_is_known() {
        for known in KNOWN {
            assert!(is_known(known.as_bytes()), "{known}");
            let longer = format!("{known}s");
            assert_eq!(
                is_known(longer.as_bytes()),
                KNOWN.contains(&longer.as_str())
            );
            assert!(
                !is_known(&known.as_bytes()[..known.len() - 1])
                    || KNOWN.contains(&&known[..known.len() - 1])
            );
            // A word that packs alike but for a trailing zero byte is another word.
            let padded = format!("{known}\0");
            assert!(!is_known(padded.as_bytes()), "{known} with a zero byte");
        }
        for other in [
            "",
            "zzz",
            "Arra",
            "é",
            "\u{80}",
            "relationshipsXYZW",
            "cal",
            "CALLs",
        ] {
            assert!(!is_known(other.as_bytes()), "{other}");
        }
    }
}
