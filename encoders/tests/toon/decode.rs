//! Decoder conformance: every decode fixture of the spec (strict and non-strict cases), with
//! values compared key order included and numbers by value; and the deep-nesting guards.

use serde_json::Value;
use tsgraph_encoders::toon::decode::{DecodeOptions, ErrorKind, MAX_DEPTH, to_value_with};

use crate::fixtures;

/// Compares `got` with `want`: object keys must come in the same order (serde_json's `Map`
/// equality ignores order), numbers compare by value (`1.0` equals `1`). Returns the path of
/// the first difference.
pub(crate) fn same_value(got: &Value, want: &Value, path: &str) -> Result<(), String> {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            let (gk, wk): (Vec<&String>, Vec<&String>) = (g.keys().collect(), w.keys().collect());
            if gk != wk {
                return Err(format!("{path}: keys {gk:?}, want {wk:?}"));
            }
            g.iter()
                .zip(w.values())
                .try_for_each(|((key, g), w)| same_value(g, w, &format!("{path}.{key}")))
        }
        (Value::Array(g), Value::Array(w)) => {
            if g.len() != w.len() {
                return Err(format!("{path}: {} items, want {}", g.len(), w.len()));
            }
            g.iter()
                .zip(w)
                .enumerate()
                .try_for_each(|(i, (g, w))| same_value(g, w, &format!("{path}[{i}]")))
        }
        (Value::Number(g), Value::Number(w)) if same_number(g, w) => Ok(()),
        (g, w) if g == w && !g.is_number() => Ok(()),
        (g, w) => Err(format!("{path}: {g}, want {w}")),
    }
}

fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x == y,
        (_, _, Some(x), Some(y)) => x == y,
        // At least one side is a float (or the two integers have opposite signs): compare as
        // f64, where -0.0 == 0.0 and a whole float equals its integer.
        _ => a.as_f64() == b.as_f64(),
    }
}

fn options_of(options: &Value) -> DecodeOptions {
    let defaults = DecodeOptions::default();
    DecodeOptions {
        indent: options
            .get("indentSize")
            .and_then(Value::as_u64)
            .map_or(defaults.indent, |n| n as usize),
        strict: options
            .get("strict")
            .and_then(Value::as_bool)
            .unwrap_or(defaults.strict),
    }
}

#[test]
fn decode_fixtures() {
    let cases = fixtures::load("decode");
    let mut failures = Vec::new();
    let mut passed = 0;
    for case in &cases {
        let Some(input) = case.input.as_str() else {
            failures.push(format!("{}: input is not a string", case.label));
            continue;
        };
        match (
            to_value_with(input, &options_of(&case.options)),
            case.should_error,
        ) {
            (Ok(got), false) => match same_value(&got, &case.expected, "$") {
                Ok(()) => passed += 1,
                Err(diff) => failures.push(format!("{}: {diff}", case.label)),
            },
            (Err(err), true) if err.line().is_some() => passed += 1,
            (Err(err), true) => {
                failures.push(format!("{}: error without a position: {err}", case.label))
            }
            (Ok(got), true) => {
                failures.push(format!("{}: decoded to {got}, want an error", case.label))
            }
            (Err(err), false) => failures.push(format!("{}: {err}", case.label)),
        }
    }
    eprintln!(
        "decode fixtures: {passed} passed, 0 skipped, {} failed of {}",
        failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} decode fixtures failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Asserts that decoding failed with `TooDeep` on the first line past the limit.
fn assert_too_deep(result: Result<Value, tsgraph_encoders::toon::DecodeError>, line: usize) {
    match result {
        Err(err) => {
            assert_eq!(
                err.kind(),
                &ErrorKind::TooDeep { limit: MAX_DEPTH },
                "{err}"
            );
            assert_eq!(err.line(), Some(line), "{err}");
        }
        // Not printed: the value may be deep and its Debug recursive.
        Ok(_) => panic!("a document nested past {MAX_DEPTH} levels must be refused"),
    }
}

/// A list nested 10 000 deep (`[1]:` / `- [1]:` / …) is refused at the depth limit instead
/// of overflowing the stack. An indent of 1 keeps the input at 50 MB instead of 100 MB.
#[test]
fn deeply_nested_list_is_refused_not_a_crash() {
    const LEVELS: usize = 10_000;
    let mut text = String::with_capacity(LEVELS * (LEVELS + 14) / 2);
    text.push_str("[1]:\n");
    for level in 1..LEVELS {
        text.extend(std::iter::repeat_n(' ', level));
        text.push_str("- [1]:\n");
    }
    text.extend(std::iter::repeat_n(' ', LEVELS));
    text.push_str("- x");
    // Line k + 1 is at depth k: the first refused line is the one at depth MAX_DEPTH + 1.
    assert_too_deep(
        to_value_with(
            &text,
            &DecodeOptions {
                indent: 1,
                strict: true,
            },
        ),
        MAX_DEPTH + 2,
    );
    assert_too_deep(
        to_value_with(
            &text,
            &DecodeOptions {
                indent: 1,
                strict: false,
            },
        ),
        MAX_DEPTH + 2,
    );
}

#[test]
fn deeply_nested_objects_and_list_item_objects_are_refused() {
    let mut objects = String::new();
    for level in 0..2_000 {
        objects.push_str(&"  ".repeat(level));
        objects.push_str("a:\n");
    }
    assert_too_deep(tsgraph_encoders::toon::to_value(&objects), MAX_DEPTH + 2);

    // Each `- a[1]:` item puts its inner items two levels deeper.
    let mut items = String::from("a[1]:\n");
    for level in 0..2_000 {
        items.push_str(&"  ".repeat(2 * level + 1));
        items.push_str("- a[1]:\n");
    }
    assert_too_deep(tsgraph_encoders::toon::to_value(&items), MAX_DEPTH / 2 + 2);
}

#[test]
fn deeply_nested_field_groups_are_refused() {
    let header = format!(
        "t[1]{{{}x{}}}:\n  1",
        "a{".repeat(10_000),
        "}".repeat(10_000)
    );
    assert_too_deep(tsgraph_encoders::toon::to_value(&header), 1);
}
