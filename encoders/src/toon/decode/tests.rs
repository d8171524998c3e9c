//! Decoder unit tests through the public entry points: error messages with their positions,
//! and edge cases the spec fixtures do not pin down.

use serde_json::{Value, json};

use super::*;

/// `(input, expected Display of the error)`.
fn check_errors(cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (input, want) in cases {
        match to_value(input) {
            Ok(value) => failures.push(format!(
                "{input:?}: decoded to {value}, wanted error {want:?}"
            )),
            Err(err) if err.to_string() != *want => failures.push(format!(
                "{input:?}: got {:?}, wanted {want:?}",
                err.to_string()
            )),
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_carry_line_and_column() {
    check_errors(&[
        (
            "items[2]:\n  - a\n  - b\n  - c",
            "4:3: expected 2 list items, found 3",
        ),
        ("items[3]:\n  - a", "1:6: expected 3 list items, found 1"),
        ("t[2]{a}:\n  1\n  2\n  3", "4:3: expected 2 rows, found 3"),
        ("tags[2]: a,b,c", "1:14: expected 2 values, found 3"),
        ("t[1]{a,b}:\n  1", "2:3: expected 2 cells in row, found 1"),
        (
            "t[1]{a,b}:\n  1,2,3",
            "2:7: expected 2 cells in row, found 3",
        ),
        (
            "m[1:]{v}:\n  a:",
            "2:5: entry row has no cells after its key",
        ),
        ("m[2:]{v}:\n  a: 1\n  5", "3:4: expected ':' after key"),
        ("a:\n  user", "2:7: expected ':' after key"),
        ("name: \"bad\\xe\"", "1:11: invalid escape sequence \\x"),
        ("k: \"é\\q\"", "1:6: invalid escape sequence \\q"),
        ("a: \"open", "1:4: unterminated string"),
        (
            "a:\n   b: 1",
            "2:4: indentation of 3 spaces is not a multiple of 2",
        ),
        ("a:\n\tb: 1", "2:1: tab character in indentation"),
        ("a:\n    b: 1", "2:5: unexpected indentation"),
        (
            "items[2]:\n  - a\n\n  - b",
            "3:1: blank line inside an array",
        ),
        ("name: Ada\nname: Bob", "2:1: duplicate key \"name\""),
        ("t[1]{a,b,a}:\n  1,2,3", "1:10: duplicate field name \"a\""),
        (
            "x[03]: a",
            "1:3: malformed array header: length has leading zeros",
        ),
        (
            "a: 1\n[2]: x,y",
            "2:1: array header without a key is only allowed at the root or as a list item",
        ),
        (
            "[2]: 1,2\njunk: 3",
            "2:1: unexpected content after the root value",
        ),
        (
            "t[1]{a}: 1",
            "1:10: unexpected values after a tabular header",
        ),
        (
            "a: 1\n- b",
            "2:1: list item where an object field was expected",
        ),
        ("items[1]:\n  b: 1", "2:3: expected a list item"),
        ("hello\nworld", "1:6: expected ':' after key"),
        (": x", "1:1: empty key"),
        ("\"a\" junk: 1", "1:4: expected ':' after key"),
        (
            "a: \"x\" y",
            "1:7: unexpected characters after closing quote",
        ),
    ]);
}

#[test]
fn invalid_utf8_is_reported_at_its_position() {
    let err = from_slice(b"a: 1\nb: caf\xc3\xa9 \xc3")
        .map(|_| ())
        .map_err(|e| e.to_string());
    assert_eq!(err, Err("2:9: invalid UTF-8".to_owned()));
    assert_eq!(from_slice(b"a: 1").ok(), Some(json!({"a": 1})));
}

#[test]
fn error_accessors_expose_the_position_and_kind() {
    let Err(err) = to_value("a: 1\na: 2") else {
        panic!("duplicate keys must fail")
    };
    assert_eq!((err.line(), err.column()), (Some(2), Some(1)));
    assert_eq!(err.kind(), &ErrorKind::DuplicateKey("a".into()));
    let Err(err) = from_str::<Vec<u8>>("a: 1") else {
        panic!("type mismatch must fail")
    };
    assert_eq!((err.line(), err.column()), (None, None));
    assert!(matches!(err.kind(), ErrorKind::Deserialize(_)), "{err}");
}

#[test]
fn zero_indent_is_an_options_error() {
    let err = to_value_with(
        "a: 1",
        &DecodeOptions {
            indent: 0,
            strict: true,
        },
    )
    .map_err(|e| e.to_string());
    assert_eq!(
        err,
        Err("invalid options: indent must be at least 1".to_owned())
    );
}

#[test]
fn decodes_edge_cases() {
    let cases: &[(&str, Value)] = &[
        ("", json!({})),
        (
            "big: 18446744073709551615\nneg: -9223372036854775808",
            json!({"big": u64::MAX, "neg": i64::MIN}),
        ),
        ("f: 1e21", json!({"f": 1e21})),
        ("huge: 1e400", json!({"huge": "1e400"})),
        ("pair: \"\\ud83d\\ude80\"", json!({"pair": "🚀"})),
        (
            "items[2]:\n  - [2|]: a|b\n  - x",
            json!({"items": [["a", "b"], "x"]}),
        ),
        (
            "items[1]:\n  - a:\n      b: 1\n    c: 2",
            json!({"items": [{"a": {"b": 1}, "c": 2}]}),
        ),
        ("[1]:\n  - [1]:\n    - [0]:", json!([[[]]])),
        ("a:\n  b: []\n  c[0]:", json!({"a": {"b": [], "c": []}})),
        ("k: a \"b\" c", json!({"k": "a \"b\" c"})),
    ];
    for (input, want) in cases {
        let got = to_value(input);
        assert_eq!(got.as_ref().ok(), Some(want), "{input:?}: {got:?}");
    }
}

#[test]
fn keeps_key_order() {
    let Ok(Value::Object(map)) = to_value("z: 1\na: 2\nm:\n  y: 1\n  b: 2") else {
        panic!("decode")
    };
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(keys, ["z", "a", "m"]);
}

#[test]
fn deserializes_into_types() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Row {
        id: u64,
        score: f64,
        tags: Vec<String>,
    }
    let rows: Result<Vec<Row>, _> = from_str("[1]:\n  - id: 7\n    score: 1e1\n    tags[2]: a,b");
    assert_eq!(
        rows,
        Ok(vec![Row {
            id: 7,
            score: 10.0,
            tags: vec!["a".into(), "b".into()]
        }])
    );
}

/// Input nested to exactly the limit decodes; one level more is an error, not a stack overflow.
/// Run on a thread with a small stack: the parser keeps its frames on the heap, so only the
/// value's recursive `Drop` uses stack in proportion to the depth.
#[test]
fn depth_limit_is_an_error_with_stack_to_spare() {
    fn nested(levels: usize) -> String {
        let mut text = String::new();
        for level in 0..levels {
            text.push_str(&"  ".repeat(level));
            text.push_str("a:\n");
        }
        text
    }
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let ok = to_value(&nested(MAX_DEPTH + 1)).is_ok();
            let deep = to_value(&nested(MAX_DEPTH + 2))
                .map(|_| ())
                .map_err(|e| e.to_string());
            (ok, deep)
        })
        .expect("spawn test thread");
    let (ok, deep) = handle
        .join()
        .expect("decoder thread must not overflow its stack");
    assert!(ok, "{MAX_DEPTH} levels of nesting must decode");
    assert_eq!(
        deep,
        Err(format!(
            "{}:{}: nesting deeper than {MAX_DEPTH} levels",
            MAX_DEPTH + 2,
            2 * (MAX_DEPTH + 1) + 1
        ))
    );
}
