//! Property tests: the encoder→decoder round trip, and fuzzing the decoder with arbitrary and
//! mutated documents (it must return `Ok` or `Err`, never panic).
//!
//! Each property runs 256 cases by default. For a long on-demand fuzzing run set
//! `TOON_PROPTEST_CASES`, e.g.
//!
//! ```text
//! TOON_PROPTEST_CASES=200000 cargo test -p tsgraph-encoders --no-default-features -- roundtrip
//! ```
//!
//! proptest shrinks a failing input and records its seed in
//! `tests/toon/proptest-regressions/roundtrip.txt`; commit that file so the case is replayed on
//! every run.

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Number, Value};
use tsgraph_encoders::toon::decode::{DecodeOptions, from_slice, to_value_with};
use tsgraph_encoders::toon::{Delimiter, Options, to_string};

use crate::decode::same_value;

const DELIMITERS: [Delimiter; 3] = [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe];

fn config() -> ProptestConfig {
    let cases = std::env::var("TOON_PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// The spec's normalisation of a JSON value before encoding: `-0` becomes `0`. (Non-finite
/// floats already became `null` when the `Value` was built, and whole floats that come back as
/// integers compare equal by value.)
fn normalise(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.as_f64() == Some(0.0) => Value::from(0),
        Value::Array(items) => Value::Array(items.iter().map(normalise).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), normalise(v))).collect())
        }
        other => other.clone(),
    }
}

/// Strings that exercise quoting: structural characters, delimiters, look-alikes of other
/// types, control characters, whitespace at the ends, Unicode.
fn text() -> impl Strategy<Value = String> {
    let samples = [
        "",
        " ",
        "true",
        "false",
        "null",
        "42",
        "-3.14",
        "1e-6",
        "05",
        "-",
        "- x",
        "-x",
        "#x",
        "#",
        "[5]",
        "{key}",
        "a:b",
        "a,b",
        "a|b",
        "a\tb",
        "line\nbreak",
        "cr\rx",
        "quote\"d",
        "back\\slash",
        "café",
        "你好",
        "🚀 launch",
        " padded ",
        "\u{a0}nbsp",
        "[]",
        "\u{1}ctl",
        "key: value",
        "- [2]: a,b",
        "NaN",
        "Infinity",
        "0x10",
        "1_000",
        "+1",
        ".5",
        "1.",
        "a \"b\" c",
    ];
    let chars = [
        'a', 'Z', '0', '9', ' ', ',', '|', '\t', ':', '"', '\\', '[', ']', '{', '}', '-', '#',
        '\n', '\r', 'é', '🚀', '\u{0}', '\u{1f}', '\u{7f}', '.', 'e', '+', '\u{a0}',
    ];
    prop_oneof![
        3 => "[a-zA-Z0-9 ]{0,8}",
        2 => prop::sample::select(samples.to_vec()).prop_map(String::from),
        2 => prop::collection::vec(prop::sample::select(chars.to_vec()), 0..10).prop_map(|c| c.into_iter().collect()),
    ]
}

/// Object keys: mostly bare identifiers, some dotted, some needing quotes.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z_][a-z0-9_]{0,6}",
        1 => "[a-z]{1,3}\\.[a-z]{1,3}",
        2 => text(),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    let floats = [
        0.0,
        -0.0,
        1.5,
        -2.25,
        0.1,
        1e20,
        1e21,
        1e-6,
        1e-7,
        123_456.789,
        1e300,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
    ];
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1000i64..1000).prop_map(Value::from),
        // Non-finite floats become `null` here, as the spec's normalisation asks.
        any::<f64>().prop_map(Value::from),
        prop::sample::select(floats.to_vec()).prop_map(Value::from),
    ]
}

fn primitive() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => number(),
        4 => text().prop_map(Value::String),
    ]
}

/// Column layout of a uniform table: a column is a primitive or a group of sub-columns.
type Schema = Vec<(String, Option<Vec<String>>)>;

fn schema() -> impl Strategy<Value = Schema> {
    prop::collection::vec(
        (
            key(),
            prop::option::weighted(0.25, prop::collection::vec(key(), 1..3)),
        ),
        1..4,
    )
    .prop_map(|mut columns| {
        let mut seen = HashSet::new();
        columns.retain(|(name, _)| seen.insert(name.clone()));
        for (_, group) in &mut columns {
            if let Some(names) = group {
                let mut seen = HashSet::new();
                names.retain(|name| seen.insert(name.clone()));
            }
        }
        columns
    })
}

/// One row of `schema`, built from its leaf cells in order.
fn row(schema: &Schema, cells: Vec<Value>) -> Value {
    let mut cells = cells.into_iter();
    let mut object = Map::new();
    for (name, group) in schema {
        let value = match group {
            Some(names) => Value::Object(
                names
                    .iter()
                    .map(|n| (n.clone(), cells.next().unwrap_or(Value::Null)))
                    .collect(),
            ),
            None => cells.next().unwrap_or(Value::Null),
        };
        object.insert(name.clone(), value);
    }
    Value::Object(object)
}

fn leaves(schema: &Schema) -> usize {
    schema
        .iter()
        .map(|(_, group)| group.as_ref().map_or(1, Vec::len))
        .sum()
}

/// Arrays of uniform objects (the tabular form) and objects of uniform objects (the keyed
/// form).
fn table() -> impl Strategy<Value = Value> {
    (schema(), 1usize..4, any::<bool>()).prop_flat_map(|(schema, rows, keyed)| {
        let width = leaves(&schema);
        let rows = prop::collection::vec((key(), prop::collection::vec(primitive(), width)), rows);
        rows.prop_map(move |rows| {
            if keyed {
                Value::Object(
                    rows.into_iter()
                        .map(|(key, cells)| (key, row(&schema, cells)))
                        .collect(),
                )
            } else {
                Value::Array(
                    rows.into_iter()
                        .map(|(_, cells)| row(&schema, cells))
                        .collect(),
                )
            }
        })
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    primitive().prop_recursive(4, 64, 5, |inner| {
        prop_oneof![
            2 => prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            2 => prop::collection::vec((key(), inner), 0..5).prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
            1 => prop::collection::vec(primitive(), 0..5).prop_map(Value::Array),
            2 => table(),
        ]
    })
}

fn fail(what: &str, detail: impl std::fmt::Display, text: &str) -> TestCaseError {
    TestCaseError::fail(format!("{what}: {detail}\n--- document ---\n{text}\n---"))
}

/// One edit of a document, positions taken modulo its length.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize),
    Insert(usize, char),
    Replace(usize, char),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Indent(usize, bool),
}

fn edit() -> impl Strategy<Value = Edit> {
    let chars = [
        ' ', '-', ':', ',', '|', '\t', '"', '\\', '[', ']', '{', '}', '#', '\n', '0', 'x',
    ];
    let ch = prop::sample::select(chars.to_vec());
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::SwapLines(i, j)),
        (any::<usize>(), any::<bool>()).prop_map(|(i, deeper)| Edit::Indent(i, deeper)),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    let n = lines.len();
    match *edit {
        Edit::Delete(i) if !chars.is_empty() => {
            chars.remove(i % chars.len());
        }
        Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
        Edit::Replace(i, c) if !chars.is_empty() => {
            let i = i % chars.len();
            chars[i] = c;
        }
        Edit::DuplicateLine(i) => {
            let line = lines[i % n].clone();
            lines.insert(i % n, line);
            return lines.join("\n");
        }
        Edit::SwapLines(i, j) => {
            lines.swap(i % n, j % n);
            return lines.join("\n");
        }
        Edit::Indent(i, deeper) => {
            let line = &mut lines[i % n];
            if deeper {
                line.insert_str(0, "  ");
            } else if let Some(rest) = line.strip_prefix("  ") {
                *line = rest.to_owned();
            }
            return lines.join("\n");
        }
        _ => {}
    }
    chars.into_iter().collect()
}

/// Fragments that make arbitrary text look like TOON often enough to reach deep code paths.
fn toonish_text() -> impl Strategy<Value = String> {
    let fragments = [
        "- ",
        "-",
        "[",
        "]",
        "{",
        "}",
        ":",
        ": ",
        ",",
        "|",
        "\t",
        "\"",
        "\\",
        "\\u",
        "\\uD800",
        "#",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\n  ",
        "\n    - ",
        "a",
        "key",
        "1",
        "0",
        "05",
        "-1e3",
        "e",
        "[2]:",
        "[0]:",
        "[1]{a}:",
        "[2:]{a,b}:",
        "[2|]",
        "{a{b}}",
        "null",
        "true",
        "é",
        "🚀",
        "\u{0}",
        "[]",
    ];
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(fragments.to_vec()), 0..40).prop_map(|parts| parts.concat()),
        1 => any::<String>(),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// decode(encode(v)) == normalise(v) for every delimiter and indents 2 and 4.
    #[test]
    fn encode_then_decode_round_trips(value in json_value()) {
        let want = normalise(&value);
        for delimiter in DELIMITERS {
            for indent in [2, 4] {
                let text = to_string(&value, &Options { indent, delimiter })
                    .map_err(|e| TestCaseError::fail(format!("encode failed ({delimiter:?}, indent {indent}): {e}")))?;
                let got = to_value_with(&text, &DecodeOptions { indent, strict: true })
                    .map_err(|e| fail(&format!("decode failed ({delimiter:?}, indent {indent})"), e, &text))?;
                same_value(&got, &want, "$").map_err(|diff| fail(&format!("round trip differs ({delimiter:?}, indent {indent})"), diff, &text))?;
            }
        }
    }

    /// Arbitrary, TOON-flavoured text and bytes: `Ok` or `Err`, never a panic.
    #[test]
    fn decoder_never_panics_on_arbitrary_text(text in toonish_text(), indent in 1usize..5, strict in any::<bool>()) {
        let _ = to_value_with(&text, &DecodeOptions { indent, strict });
    }

    #[test]
    fn decoder_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = from_slice(&bytes);
    }

    /// Valid documents with a few random edits: the decoder must not panic, and whatever it
    /// accepts must survive another encode→decode unchanged.
    #[test]
    fn decoder_never_panics_on_mutated_documents(
        value in json_value(),
        edits in prop::collection::vec(edit(), 1..4),
        delimiter in prop::sample::select(DELIMITERS.to_vec()),
        strict in any::<bool>(),
    ) {
        let options = Options { indent: 2, delimiter };
        let Ok(original) = to_string(&value, &options) else { return Ok(()) };
        let text = edits.iter().fold(original, |text, edit| apply(&text, edit));
        if let Ok(decoded) = to_value_with(&text, &DecodeOptions { indent: 2, strict }) {
            let again = to_string(&decoded, &options).map_err(|e| fail("re-encode failed", e, &text))?;
            let back = to_value_with(&again, &DecodeOptions::default()).map_err(|e| fail("re-decode failed", e, &again))?;
            same_value(&back, &decoded, "$").map_err(|diff| fail("re-encoded value differs", diff, &again))?;
        }
    }
}

#[test]
fn normalise_turns_negative_zero_into_zero() {
    let value = serde_json::json!({"a": [-0.0, 1.0, {"b": -0.0}]});
    let want = serde_json::json!({"a": [0, 1, {"b": 0}]});
    assert_eq!(same_value(&normalise(&value), &want, "$"), Ok(()));
    assert!(
        Number::from_f64(f64::NAN).is_none(),
        "non-finite floats cannot reach the encoder as numbers"
    );
}
