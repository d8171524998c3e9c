//! Encoder conformance: every encode fixture of the spec, the serde data model, bad input
//! (non-string keys, custom errors, NaN, nesting depth), and the streaming `Writer`.

use std::collections::BTreeMap;
use std::io;

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Value, json};
use tsgraph_encoders::toon::{
    self, Delimiter, EncodeError, Encoder, MAX_DEPTH, Options, Scalar, Writer,
};

use crate::fixtures;

const ENCODE_CASES: usize = 173;

fn options_of(case: &fixtures::Case) -> Options {
    let delimiter = match case.options.get("delimiter").and_then(Value::as_str) {
        None | Some(",") => Delimiter::Comma,
        Some("\t") => Delimiter::Tab,
        Some("|") => Delimiter::Pipe,
        Some(other) => panic!("{}: unknown delimiter {other:?}", case.label),
    };
    let indent = match case.options.get("indentSize").and_then(Value::as_u64) {
        Some(indent) => usize::try_from(indent).expect("small indent"),
        None => Options::default().indent,
    };
    Options { indent, delimiter }
}

/// Runs every encode fixture through `encode` and reports all failures at once.
fn check_fixtures(mut encode: impl FnMut(&Value, &Options) -> Result<String, EncodeError>) {
    let cases = fixtures::load("encode");
    if !cases.is_empty() {
        assert_eq!(cases.len(), ENCODE_CASES, "the fixture set changed");
    }
    let mut failures = Vec::new();
    for case in &cases {
        let expected = case.expected.as_str().expect("encode fixtures expect text");
        match encode(&case.input, &options_of(case)) {
            Ok(got) if got == expected => {}
            Ok(got) => failures.push(format!(
                "{}\n  input:    {}\n  expected: {expected:?}\n  got:      {got:?}",
                case.label, case.input
            )),
            Err(err) => failures.push(format!(
                "{}\n  input:    {}\n  expected: {expected:?}\n  error:    {err}",
                case.label, case.input
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} encode fixtures failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn encode_fixtures_to_string() {
    check_fixtures(toon::to_string);
}

#[test]
fn encode_fixtures_to_writer_with_a_reused_encoder() {
    let mut encoders: Vec<Encoder> = Vec::new();
    check_fixtures(|input, opts| {
        let at = match encoders.iter().position(|e| e.options() == opts) {
            Some(at) => at,
            None => {
                encoders.push(Encoder::new(*opts));
                encoders.len() - 1
            }
        };
        let mut out = Vec::new();
        encoders[at].to_writer(&mut out, input)?;
        Ok(String::from_utf8(out).expect("UTF-8"))
    });
}

fn encode<T: Serialize + ?Sized>(value: &T) -> String {
    toon::to_string(value, &Options::default()).expect("encodes")
}

#[derive(Serialize)]
struct Row<'a> {
    id: u64,
    parent: i64,
    line: u32,
    score: f64,
    exported: bool,
    name: &'a str,
    kind: String,
    doc: Option<&'a str>,
}

#[test]
fn structs_become_tables() {
    let rows = vec![
        Row {
            id: 1,
            parent: -1,
            line: 10,
            score: 0.5,
            exported: true,
            name: "parse",
            kind: "function".into(),
            doc: None,
        },
        Row {
            id: 18_446_744_073_709_551_615,
            parent: i64::MIN,
            line: 0,
            score: 1e21,
            exported: false,
            name: "a, b",
            kind: "method".into(),
            doc: Some("says \"hi\"\n"),
        },
    ];
    assert_eq!(
        encode(&json!({"nodes": serde_json::to_value(&rows).expect("json")})),
        encode(&BTreeMap::from([("nodes", &rows)])),
        "struct and serde_json input must encode alike"
    );
    assert_eq!(
        encode(&BTreeMap::from([("nodes", &rows)])),
        "nodes[2]{id,parent,line,score,exported,name,kind,doc}:\n\
         \x20 1,-1,10,0.5,true,parse,function,null\n\
         \x20 18446744073709551615,-9223372036854775808,0,1e+21,false,\"a, b\",method,\"says \\\"hi\\\"\\n\""
    );
}

#[derive(Serialize)]
enum Shape {
    Unit,
    New(u32),
    Pair(u8, u8),
    Rect { w: u32, h: u32 },
}

#[derive(Serialize)]
struct Model<'a> {
    unit: (),
    none: Option<u8>,
    some: Option<u8>,
    letter: char,
    huge: i128,
    tiny: i128,
    fits: u128,
    single: f32,
    bytes: &'a [u8],
    tuple: (u8, &'a str),
    shapes: Vec<Shape>,
}

#[test]
fn serde_data_model() {
    let model = Model {
        unit: (),
        none: None,
        some: Some(3),
        letter: 'é',
        huge: i128::MIN,
        tiny: -5,
        fits: u128::from(u64::MAX) + 1,
        single: 0.1,
        bytes: b"\x00\xff",
        tuple: (1, "x"),
        shapes: vec![
            Shape::Unit,
            Shape::New(1),
            Shape::Pair(1, 2),
            Shape::Rect { w: 3, h: 4 },
        ],
    };
    assert_eq!(
        encode(&model),
        "unit: null\n\
         none: null\n\
         some: 3\n\
         letter: é\n\
         huge: -170141183460469231731687303715884105728\n\
         tiny: -5\n\
         fits: 18446744073709551616\n\
         single: 0.1\n\
         bytes[2]: 0,255\n\
         tuple[2]: 1,x\n\
         shapes[4]:\n\
         \x20 - Unit\n\
         \x20 - New: 1\n\
         \x20 - Pair[2]: 1,2\n\
         \x20 - Rect:\n\
         \x20     w: 3\n\
         \x20     h: 4"
    );
}

#[test]
fn root_primitives_and_empty_documents() {
    assert_eq!(encode(&42), "42");
    assert_eq!(encode("a,b"), "\"a,b\"");
    assert_eq!(encode(&()), "null");
    assert_eq!(encode(&json!({})), "");
    assert_eq!(encode(&Vec::<u8>::new()), "[]");
    assert_eq!(encode(&json!({"a": {}, "b": []})), "a:\nb: []");
}

#[test]
fn non_finite_floats_are_null_and_negative_zero_is_zero() {
    #[derive(Serialize)]
    struct Floats {
        nan: f64,
        inf: f64,
        ninf: f32,
        nzero: f64,
        small: f64,
        smaller: f64,
        big: f64,
    }
    let floats = Floats {
        nan: f64::NAN,
        inf: f64::INFINITY,
        ninf: f32::NEG_INFINITY,
        nzero: -0.0,
        small: 1e-6,
        smaller: 1e-7,
        big: 1e20,
    };
    assert_eq!(
        encode(&floats),
        "nan: null\ninf: null\nninf: null\nnzero: 0\nsmall: 0.000001\nsmaller: 1e-7\n\
         big: 100000000000000000000"
    );
}

#[test]
fn scalar_map_keys_are_stringified() {
    assert_eq!(
        encode(&BTreeMap::from([(1u32, "a"), (20, "b")])),
        "\"1\": a\n\"20\": b"
    );
    assert_eq!(encode(&BTreeMap::from([(-7i64, 1)])), "\"-7\": 1");
    assert_eq!(
        encode(&BTreeMap::from([(false, 0), (true, 1)])),
        "false: 0\ntrue: 1"
    );
    assert_eq!(encode(&BTreeMap::from([('k', 1)])), "k: 1");
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Side {
        Left,
    }
    assert_eq!(encode(&BTreeMap::from([(Side::Left, 1)])), "Left: 1");
}

#[test]
fn non_string_map_keys_are_errors() {
    let by_pair = BTreeMap::from([((1u8, 2u8), "x")]);
    let err = toon::to_string(&by_pair, &Options::default()).expect_err("tuple key");
    assert!(
        matches!(err, EncodeError::NonStringKey("a tuple")),
        "{err:?}"
    );

    let by_list = BTreeMap::from([(vec![1u8], "x")]);
    let err = toon::to_string(&by_list, &Options::default()).expect_err("seq key");
    assert!(
        matches!(err, EncodeError::NonStringKey("a sequence")),
        "{err:?}"
    );

    struct FloatKey;
    impl Serialize for FloatKey {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(1))?;
            map.serialize_entry(&1.5f64, &1)?;
            map.end()
        }
    }
    let err = toon::to_string(&FloatKey, &Options::default()).expect_err("float key");
    assert!(
        matches!(err, EncodeError::NonStringKey("a float")),
        "{err:?}"
    );
    assert!(err.to_string().contains("a float"), "{err}");
}

#[test]
fn serialize_errors_are_reported_and_nothing_is_written() {
    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(S::Error::custom("boom"))
        }
    }
    let mut out = b"kept".to_vec();
    let err = toon::to_writer(&mut out, &json!({"a": 1, "b": [1, 2]}), &Options::default())
        .and_then(|()| toon::to_writer(&mut out, &vec![Fails], &Options::default()))
        .expect_err("fails");
    assert!(
        matches!(&err, EncodeError::Custom(msg) if msg == "boom"),
        "{err:?}"
    );
    assert_eq!(
        String::from_utf8(out).expect("UTF-8"),
        "kepta: 1\nb[2]: 1,2"
    );

    let mut encoder = Encoder::new(Options::default());
    let mut buf = b"prefix ".to_vec();
    assert!(encoder.append_to_vec(&mut buf, &Fails).is_err());
    assert_eq!(buf, b"prefix ");
    encoder.append_to_vec(&mut buf, &[1, 2]).expect("encodes");
    assert_eq!(buf, b"prefix [2]: 1,2");
}

/// An array nested `self.0` levels deep, built while serializing (nothing to drop).
struct Nest(usize);

impl Serialize for Nest {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 == 0 {
            return s.serialize_u8(0);
        }
        let mut seq = s.serialize_seq(Some(1))?;
        seq.serialize_element(&Nest(self.0 - 1))?;
        seq.end()
    }
}

#[test]
fn nesting_beyond_the_limit_is_an_error_not_a_crash() {
    assert_eq!(encode(&Nest(3)), "[1]:\n  - [1]:\n    - [1]: 0");
    assert!(toon::to_string(&Nest(MAX_DEPTH), &Options::default()).is_ok());
    for depth in [MAX_DEPTH + 1, 10_000] {
        let err = toon::to_string(&Nest(depth), &Options::default()).expect_err("too deep");
        assert!(
            matches!(err, EncodeError::DepthLimit { limit: MAX_DEPTH }),
            "{err:?}"
        );
    }
}

#[test]
fn deep_serde_json_value_is_an_error_not_a_crash() {
    // serde_json's parser refuses this depth and `Value`'s drop is recursive, so the value is
    // built and torn down by hand, one level at a time.
    let mut value = Value::Null;
    for _ in 0..10_000 {
        value = Value::Array(vec![value]);
    }
    let result = toon::to_string(&value, &Options::default());
    while let Value::Array(mut items) = value {
        value = items.pop().unwrap_or(Value::Null);
    }
    let err = result.expect_err("too deep");
    assert!(
        matches!(err, EncodeError::DepthLimit { limit: MAX_DEPTH }),
        "{err:?}"
    );
}

/// A map that may repeat keys, which `Serialize` allows but `Value` cannot hold.
struct Pairs(Vec<(&'static str, u8)>);

impl Serialize for Pairs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[test]
fn repeated_keys_never_make_a_table() {
    let dup_first = vec![
        Pairs(vec![("a", 1), ("a", 2)]),
        Pairs(vec![("a", 1), ("b", 2)]),
    ];
    assert_eq!(
        encode(&dup_first),
        "[2]:\n  - a: 1\n    a: 2\n  - a: 1\n    b: 2"
    );
    let dup_later = vec![
        Pairs(vec![("a", 1), ("b", 2)]),
        Pairs(vec![("b", 1), ("b", 2)]),
    ];
    assert_eq!(
        encode(&dup_later),
        "[2]:\n  - a: 1\n    b: 2\n  - b: 1\n    b: 2"
    );
}

#[test]
fn reordered_nested_groups_still_make_a_table() {
    let value = json!([
        {"id": 1, "geo": {"lat": 1, "lon": 2}, "name": "a"},
        {"name": "b", "geo": {"lon": 4, "lat": 3}, "id": 2},
    ]);
    assert_eq!(
        encode(&value),
        "[2]{id,geo{lat,lon},name}:\n  1,1,2,a\n  2,3,4,b"
    );
}

#[test]
fn arrays_as_list_items_are_never_tables() {
    // As in the reference encoder: a key-less table header is only valid at the root.
    let value = json!([[{"a": 1}, {"a": 2}], {"t": [{"b": 1}], "u": [{"c": 1}]}]);
    assert_eq!(
        encode(&value),
        "[2]:\n  - [2]:\n    - a: 1\n    - a: 2\n  - t[1]{b}:\n      1\n    u[1]{c}:\n      1"
    );
}

#[test]
fn encoder_reuse_gives_identical_output() {
    let mut encoder = Encoder::new(Options::default());
    let values = [
        json!({"a": [{"x": 1}, {"x": 2}], "b": {"k1": {"v": 1}, "k2": {"v": 2}}}),
        json!([1, "two", {"three": 3}]),
        json!("solo"),
    ];
    for _ in 0..2 {
        for value in &values {
            assert_eq!(encoder.to_string(value).expect("encodes"), encode(value));
        }
    }
}

struct FailingSink;

impl io::Write for FailingSink {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other("disk full"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn sink_errors_surface_as_io() {
    let err = toon::to_writer(&mut FailingSink, &json!({"a": 1}), &Options::default())
        .expect_err("sink fails");
    assert!(matches!(err, EncodeError::Io(_)), "{err:?}");
}

#[test]
fn zero_indent_is_rejected() {
    let opts = Options {
        indent: 0,
        ..Options::default()
    };
    let err = toon::to_string(&json!({"a": 1}), &opts).expect_err("indent 0");
    assert!(matches!(err, EncodeError::InvalidOptions(_)), "{err:?}");
}

#[test]
fn writer_builds_tables_nested_objects_and_lists() -> Result<(), EncodeError> {
    let opts = Options {
        delimiter: Delimiter::Pipe,
        ..Options::default()
    };
    let mut w = Writer::new(Vec::new(), opts);
    w.field("graph", "tsgraph")?;
    w.key("stats")?;
    w.begin_object()?;
    w.field("nodes", 2u32)?;
    w.key("timing")?;
    w.begin_object()?;
    w.field("ms", 1.25)?;
    w.field("cached", Scalar::Null)?;
    w.end()?;
    w.end()?;
    w.key("nodes")?;
    w.begin_table(2, &["id", "kind", "name"])?;
    w.row_begin()?;
    w.cell_u64(1)?;
    w.cell_str("function")?;
    w.cell_str("a|b")?;
    w.row_end()?;
    w.row_begin()?;
    w.cell_i64(-2)?;
    w.cell_null()?;
    w.cell_bool(true)?;
    w.row_end()?;
    w.end()?;
    w.key("edges")?;
    w.begin_table_header(1)?;
    w.column("kind")?;
    w.begin_group("from")?;
    w.column("file")?;
    w.column("line")?;
    w.end_group()?;
    w.end_header()?;
    w.row_begin()?;
    w.cell("calls")?;
    w.cell("src/a.ts")?;
    w.cell_f64(f64::NAN)?;
    w.row_end()?;
    w.end()?;
    w.key("files")?;
    w.begin_keyed_table(2, &["lines"])?;
    w.key("src/a.ts")?;
    w.row_begin()?;
    w.cell(10u64)?;
    w.row_end()?;
    w.key("b")?;
    w.row_begin()?;
    w.cell(20u64)?;
    w.row_end()?;
    w.end()?;
    w.key("items")?;
    w.begin_list(4)?;
    w.value("plain")?;
    w.begin_object()?;
    w.field("first", 1)?;
    w.key("inner")?;
    w.begin_inline(2)?;
    w.value("x")?;
    w.value("y|z")?;
    w.end()?;
    w.end()?;
    w.begin_object()?;
    w.end()?;
    w.begin_list(0)?;
    w.end()?;
    w.end()?;
    w.key("empty")?;
    w.begin_table(0, &["a"])?;
    w.end()?;
    let out = String::from_utf8(w.finish()?).expect("UTF-8");
    assert_eq!(
        out,
        "graph: tsgraph\n\
         stats:\n\
         \x20 nodes: 2\n\
         \x20 timing:\n\
         \x20   ms: 1.25\n\
         \x20   cached: null\n\
         nodes[2|]{id|kind|name}:\n\
         \x20 1|function|\"a|b\"\n\
         \x20 -2|null|true\n\
         edges[1|]{kind|from{file|line}}:\n\
         \x20 calls|src/a.ts|null\n\
         files[2:|]{lines}:\n\
         \x20 \"src/a.ts\": 10\n\
         \x20 b: 20\n\
         items[4|]:\n\
         \x20 - plain\n\
         \x20 - first: 1\n\
         \x20   inner[2|]: x|\"y|z\"\n\
         \x20 -\n\
         \x20 - [0|]:\n\
         empty: []"
    );
    Ok(())
}

#[test]
fn writer_root_forms() -> Result<(), EncodeError> {
    let mut w = Writer::new(Vec::new(), Options::default());
    w.begin_keyed_table(1, &["v"])?;
    w.key("k")?;
    w.row_begin()?;
    w.cell(1)?;
    w.row_end()?;
    assert_eq!(w.finish()?, b"[1:]{v}:\n  k: 1");

    let mut w = Writer::new(Vec::new(), Options::default());
    w.value("true")?;
    assert!(matches!(w.value(1), Err(EncodeError::Misuse(_))));
    assert_eq!(w.finish()?, b"\"true\"");
    Ok(())
}

#[test]
fn writer_rejects_invalid_sequences() {
    let mut w = Writer::new(Vec::new(), Options::default());
    w.key("t").expect("key");
    w.begin_table(2, &["a", "b"]).expect("header");
    w.row_begin().expect("row");
    w.cell(1).expect("cell");
    let short = w.row_end().expect_err("one cell missing");
    assert!(
        matches!(
            short,
            EncodeError::CountMismatch {
                what: "row cells",
                declared: 2,
                written: 1
            }
        ),
        "{short:?}"
    );
    w.cell(2).expect("cell");
    assert!(matches!(
        w.cell(3),
        Err(EncodeError::CountMismatch { written: 3, .. })
    ));
    w.row_end().expect("row");
    let rows = w.end().expect_err("one row missing");
    assert!(
        matches!(
            rows,
            EncodeError::CountMismatch {
                what: "table rows",
                declared: 2,
                written: 1
            }
        ),
        "{rows:?}"
    );

    let mut w = Writer::new(Vec::new(), Options::default());
    w.key("a").expect("key");
    w.begin_object().expect("object");
    assert!(
        matches!(w.value(1), Err(EncodeError::Misuse(_))),
        "value without a key"
    );
    assert!(
        matches!(w.row_begin(), Err(EncodeError::Misuse(_))),
        "row outside a table"
    );

    let mut w = Writer::new(Vec::new(), Options::default());
    w.begin_list(1).expect("list");
    assert!(matches!(
        w.begin_keyed_table(1, &["a"]),
        Err(EncodeError::Misuse(_))
    ));
    assert!(matches!(
        w.begin_table(1, &["a"]),
        Err(EncodeError::Misuse(_))
    ));
    assert!(
        matches!(w.key("k"), Err(EncodeError::Misuse(_))),
        "key in a list"
    );
    w.value(1).expect("item");
    assert!(matches!(
        w.value(2),
        Err(EncodeError::CountMismatch {
            what: "list items",
            ..
        })
    ));

    let mut w = Writer::new(Vec::new(), Options::default());
    w.begin_table_header(1).expect("header");
    w.begin_group("g").expect("group");
    assert!(
        matches!(w.end_group(), Err(EncodeError::Misuse(_))),
        "empty group"
    );
    assert!(
        matches!(w.end_header(), Err(EncodeError::Misuse(_))),
        "open group"
    );
    assert!(w.finish().is_err(), "unfinished header");
}
