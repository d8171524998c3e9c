//! The TOON target: the decoder on arbitrary text, and the round trip of what it accepts.

use serde_json::{Number, Value};
use tsgraph_encoders::toon;
use tsgraph_encoders::toon::decode::{DecodeOptions, to_value_with};

/// Decodes `data` as TOON. The first byte picks the options (strict or lenient, indent 1 to
/// 4), the rest is the document (invalid UTF-8 is replaced, so every input reaches the
/// parser). A document that decodes must encode, and the encoding must decode, strictly and
/// with the default indent, to the same value. Panics otherwise.
pub fn toon(data: &[u8]) {
    let Some((&options, document)) = data.split_first() else {
        return;
    };
    let options = DecodeOptions {
        indent: 1 + usize::from(options & 3),
        strict: options & 4 == 0,
    };
    let text = String::from_utf8_lossy(document);
    let Ok(value) = to_value_with(&text, &options) else {
        return;
    };
    let encoded = match toon::to_string(&value, &toon::Options::default()) {
        Ok(encoded) => encoded,
        Err(err) => panic!("a decoded value does not encode: {err}\nvalue: {value}"),
    };
    match toon::to_value(&encoded) {
        Ok(again) => {
            if let Err(difference) = same_value(&again, &value, "$") {
                panic!(
                    "the round trip changed the value at {difference}\nvalue: {value}\nencoded:\n{encoded}"
                );
            }
        }
        Err(err) => panic!("the encoder's output does not decode: {err}\nencoded:\n{encoded}"),
    }
}

/// Compares two values, numbers by value; says where they differ. Object keys are compared in
/// order, except below the second and later entries of an array or an object: a uniform array
/// of objects (and a keyed table, an object of uniform objects) is laid out as a table whose
/// header follows the first entry's key order, so the other entries' own orders are not kept.
fn same_value(got: &Value, want: &Value, path: &str) -> Result<(), String> {
    compare(got, want, path, true)
}

fn compare(got: &Value, want: &Value, path: &str, ordered: bool) -> Result<(), String> {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            let same_keys = if ordered {
                g.keys().eq(w.keys())
            } else {
                g.len() == w.len() && g.keys().all(|key| w.contains_key(key))
            };
            if !same_keys {
                let (gk, wk): (Vec<&String>, Vec<&String>) =
                    (g.keys().collect(), w.keys().collect());
                return Err(format!("{path}: keys {gk:?}, want {wk:?}"));
            }
            g.iter()
                .enumerate()
                .try_for_each(|(i, (key, g))| match w.get(key) {
                    Some(w) => compare(g, w, &format!("{path}.{key}"), ordered && i == 0),
                    None => Err(format!("{path}: no key {key}")),
                })
        }
        (Value::Array(g), Value::Array(w)) => {
            if g.len() != w.len() {
                return Err(format!("{path}: {} items, want {}", g.len(), w.len()));
            }
            g.iter().zip(w).enumerate().try_for_each(|(i, (g, w))| {
                compare(g, w, &format!("{path}[{i}]"), ordered && i == 0)
            })
        }
        (Value::Number(g), Value::Number(w)) if same_number(g, w) => Ok(()),
        (g, w) if g == w && !g.is_number() => Ok(()),
        (g, w) => Err(format!("{path}: {g}, want {w}")),
    }
}

fn same_number(a: &Number, b: &Number) -> bool {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x == y,
        (_, _, Some(x), Some(y)) => x == y,
        // A float on either side: equal as doubles (a whole double may come back an integer).
        _ => a.as_f64() == b.as_f64(),
    }
}
