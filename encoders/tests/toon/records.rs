//! The records encoder for prompts on realistic data: RAG chunks that are uniform, that have
//! ragged or deeply nested metadata, heterogeneous tool results, an empty list and a single
//! record. Each test checks the form `choose` picks, the exact text, that every TOON and
//! hybrid document decodes with `toon::to_value`, and that `decode_hybrid` gives the records
//! back.

use std::io;

use serde_json::{Value, json};
use tsgraph_encoders::toon::decode::{DecodeOptions, to_value_with};
use tsgraph_encoders::toon::records::{
    self, Form, HybridError, MAX_RECORD_DEPTH, RecordsError, RecordsOptions, choose, decode_hybrid,
    encode, encode_auto, encode_auto_to_writer, encode_to_writer,
};
use tsgraph_encoders::toon::{Delimiter, EncodeError, to_value};

const FORMS: [Form; 4] = [Form::Toon, Form::FlatToon, Form::Hybrid, Form::Json];

fn flatten(paths: &[&str]) -> RecordsOptions {
    RecordsOptions {
        flatten: paths.iter().map(|p| (*p).to_owned()).collect(),
        ..RecordsOptions::default()
    }
}

/// Encodes in `form`, checks the text decodes (TOON with `to_value`, or `to_value_with` for
/// another indent; JSON with serde_json) and returns it.
fn encoded(records: &[Value], form: Form, opts: &RecordsOptions) -> String {
    let text = encode(records, form, opts).unwrap_or_else(|err| panic!("{form}: {err}"));
    match form {
        Form::Json => {
            serde_json::from_str::<Value>(&text).unwrap_or_else(|err| panic!("{text}\n{err}"));
        }
        _ if opts.toon.indent == 2 => {
            to_value(&text).unwrap_or_else(|err| panic!("{form}: {err}\n{text}"));
        }
        _ => {
            let decode_opts = DecodeOptions {
                indent: opts.toon.indent,
                strict: true,
            };
            to_value_with(&text, &decode_opts)
                .unwrap_or_else(|err| panic!("{form}: {err}\n{text}"));
        }
    }
    text
}

/// Asserts that the form's document reads back as `records`.
fn assert_round_trip(records: &[Value], form: Form, opts: &RecordsOptions) {
    let text = encoded(records, form, opts);
    let back = match form {
        Form::Json => serde_json::from_str::<Vec<Value>>(&text).map_err(|e| e.to_string()),
        _ => decode_hybrid(&text, opts).map_err(|e| e.to_string()),
    };
    assert_eq!(back.as_deref(), Ok(records), "{form}:\n{text}");
}

/// What `encode_auto` promises: the chosen form, a document that decodes, and the records
/// back from it.
fn assert_auto(records: &[Value], opts: &RecordsOptions, want: Form) -> String {
    assert_eq!(choose(records, opts), want);
    let (form, text) = encode_auto(records, opts).expect("encodes");
    assert_eq!(form, want);
    assert_eq!(text, encoded(records, form, opts));
    assert_round_trip(records, form, opts);
    text
}

// ---- data ---------------------------------------------------------------------------------

fn uniform_chunks() -> Vec<Value> {
    vec![
        json!({"id": 1, "path": "docs/intro.md", "content": "TOON is a compact encoding of JSON for prompts.", "score": 0.91}),
        json!({"id": 2, "path": "docs/tables.md", "content": "Uniform arrays of objects become tables: one header, one row per item.", "score": 0.87}),
        json!({"id": 3, "path": "src/lib.rs", "content": "pub fn encode(value: &Value) -> String", "score": 0.42}),
    ]
}

fn chunks_with_uniform_metadata() -> Vec<Value> {
    vec![
        json!({"path": "a.md", "content": "Intro", "metadata": {"source": "web", "page": 1}}),
        json!({"path": "b.md", "content": "Setup", "metadata": {"source": "pdf", "page": 4}}),
    ]
}

fn chunks_with_ragged_metadata() -> Vec<Value> {
    vec![
        json!({"path": "guide/install.md", "content": "Run cargo install tsgraph.",
               "metadata": {"source": "docs", "lang": "en", "tags": ["setup", "cli"]}}),
        json!({"path": "guide/query.md", "content": "Callers, callees and impact queries.",
               "metadata": {"source": "docs", "lang": "en"}}),
        json!({"path": "blog/2024-05.md", "content": "Why we moved to TOON",
               "metadata": {"source": "blog", "author": "Ada", "lang": "en"}}),
        json!({"path": "notes/todo.md", "content": "Benchmark the decoder",
               "metadata": {"source": "notes", "lang": "en", "reviewed": false}}),
    ]
}

fn chunks_with_deep_metadata() -> Vec<Value> {
    vec![
        json!({"path": "src/engine.rs", "content": "fn open(path: &Path)",
               "metadata": {"symbols": {"functions": [{"name": "open", "line": 12}], "types": []},
                            "git": {"commit": "3f2a9c1", "blame": {"author": "Ada", "date": "2024-05-01"}}}}),
        json!({"path": "src/query.rs", "content": "fn callers(id: NodeId)",
               "metadata": {"symbols": {"functions": [{"name": "callers", "line": 40}, {"name": "callees", "line": 71}]},
                            "git": {"commit": "9b0e4d2"}}}),
    ]
}

fn tool_results() -> Vec<Value> {
    vec![
        json!({"tool": "search", "query": "callers of parse", "hits": 3}),
        json!({"error": "timeout", "elapsed_ms": 5000}),
        json!({"tool": "read", "path": "a.rs"}),
    ]
}

// ---- shapes -------------------------------------------------------------------------------

#[test]
fn uniform_chunks_are_one_toon_table() {
    let text = assert_auto(&uniform_chunks(), &RecordsOptions::default(), Form::Toon);
    assert_eq!(
        text,
        "rows[3]{id,path,content,score}:\n  \
         1,docs/intro.md,TOON is a compact encoding of JSON for prompts.,0.91\n  \
         2,docs/tables.md,\"Uniform arrays of objects become tables: one header, one row per item.\",0.87\n  \
         3,src/lib.rs,\"pub fn encode(value: &Value) -> String\",0.42"
    );
    // Flatten paths that reach nothing do not change the choice.
    assert_auto(&uniform_chunks(), &flatten(&["metadata"]), Form::Toon);
}

#[test]
fn uniform_nested_metadata_is_a_table_with_column_groups_or_flat_columns() {
    let chunks = chunks_with_uniform_metadata();
    let text = assert_auto(&chunks, &RecordsOptions::default(), Form::Toon);
    assert_eq!(
        text,
        "rows[2]{path,content,metadata{source,page}}:\n  a.md,Intro,web,1\n  b.md,Setup,pdf,4"
    );

    let text = assert_auto(&chunks, &flatten(&["metadata"]), Form::FlatToon);
    assert_eq!(
        text,
        "rows[2]{path,content,metadata_source,metadata_page}:\n  \
         a.md,Intro,web,1\n  b.md,Setup,pdf,4"
    );

    // One field only, with another separator: the rest of `metadata` stays a column group.
    let opts = RecordsOptions {
        separator: "__".to_owned(),
        ..flatten(&["metadata.source"])
    };
    assert_eq!(choose(&chunks, &opts), Form::Hybrid);
    let text = encoded(&chunks, Form::FlatToon, &opts);
    assert_eq!(
        text,
        "rows[2]{path,content,metadata__source,metadata{page}}:\n  \
         a.md,Intro,web,1\n  b.md,Setup,pdf,4"
    );
    assert_round_trip(&chunks, Form::FlatToon, &opts);
}

#[test]
fn ragged_metadata_is_hybrid_with_a_json_sidecar() {
    let chunks = chunks_with_ragged_metadata();
    let opts = flatten(&["metadata"]);
    let text = assert_auto(&chunks, &opts, Form::Hybrid);
    assert_eq!(
        text,
        "rows[4]{path,content,metadata_source,metadata_lang}:\n  \
         guide/install.md,Run cargo install tsgraph.,docs,en\n  \
         guide/query.md,\"Callers, callees and impact queries.\",docs,en\n  \
         blog/2024-05.md,Why we moved to TOON,blog,en\n  \
         notes/todo.md,Benchmark the decoder,notes,en\n\
         metadata:\n  \
         0: {\"metadata\":{\"tags\":[\"setup\",\"cli\"]}}\n  \
         2: {\"metadata\":{\"author\":\"Ada\"}}\n  \
         3: {\"metadata\":{\"reviewed\":false}}"
    );

    // A TOON decoder sees the sidecar as strings holding JSON text.
    let value = to_value(&text).expect("valid TOON");
    assert_eq!(
        value.pointer("/rows/1"),
        Some(
            &json!({"path": "guide/query.md", "content": "Callers, callees and impact queries.",
                     "metadata_source": "docs", "metadata_lang": "en"})
        )
    );
    assert_eq!(
        value.get("metadata"),
        Some(&json!({
            "0": "{\"metadata\":{\"tags\":[\"setup\",\"cli\"]}}",
            "2": "{\"metadata\":{\"author\":\"Ada\"}}",
            "3": "{\"metadata\":{\"reviewed\":false}}",
        }))
    );
}

#[test]
fn ragged_metadata_without_flattening_keeps_metadata_whole_in_the_sidecar() {
    let text = assert_auto(
        &chunks_with_ragged_metadata(),
        &RecordsOptions::default(),
        Form::Hybrid,
    );
    let sidecar: Vec<&str> = text.lines().skip(6).collect();
    assert_eq!(
        sidecar,
        [
            "  0: {\"metadata\":{\"source\":\"docs\",\"lang\":\"en\",\"tags\":[\"setup\",\"cli\"]}}",
            "  1: {\"metadata\":{\"source\":\"docs\",\"lang\":\"en\"}}",
            "  2: {\"metadata\":{\"source\":\"blog\",\"author\":\"Ada\",\"lang\":\"en\"}}",
            "  3: {\"metadata\":{\"source\":\"notes\",\"lang\":\"en\",\"reviewed\":false}}",
        ]
    );
    assert_eq!(text.lines().next(), Some("rows[4]{path,content}:"));
    assert_eq!(text.lines().nth(5), Some("metadata:"));
}

#[test]
fn deeply_nested_metadata_goes_to_the_sidecar() {
    let chunks = chunks_with_deep_metadata();
    let text = assert_auto(&chunks, &RecordsOptions::default(), Form::Hybrid);
    assert_eq!(
        text,
        "rows[2]{path,content}:\n  \
         src/engine.rs,\"fn open(path: &Path)\"\n  \
         src/query.rs,\"fn callers(id: NodeId)\"\n\
         metadata:\n  \
         0: {\"metadata\":{\"symbols\":{\"functions\":[{\"name\":\"open\",\"line\":12}],\"types\":[]},\
         \"git\":{\"commit\":\"3f2a9c1\",\"blame\":{\"author\":\"Ada\",\"date\":\"2024-05-01\"}}}}\n  \
         1: {\"metadata\":{\"symbols\":{\"functions\":[{\"name\":\"callers\",\"line\":40},\
         {\"name\":\"callees\",\"line\":71}]},\"git\":{\"commit\":\"9b0e4d2\"}}}"
    );

    // Lifting a nested leaf out of the deep part leaves the rest of its parents in place.
    let opts = flatten(&["metadata.git.commit"]);
    let text = assert_auto(&chunks, &opts, Form::Hybrid);
    assert_eq!(
        text.lines().next(),
        Some("rows[2]{path,content,metadata_git_commit}:")
    );
    assert_eq!(
        text.lines().nth(4),
        Some(
            "  0: {\"metadata\":{\"symbols\":{\"functions\":[{\"name\":\"open\",\"line\":12}],\"types\":[]},\
             \"git\":{\"blame\":{\"author\":\"Ada\",\"date\":\"2024-05-01\"}}}}"
        )
    );
}

#[test]
fn heterogeneous_records_are_json_one_per_line() {
    let results = tool_results();
    let text = assert_auto(&results, &RecordsOptions::default(), Form::Json);
    assert_eq!(
        text,
        "[\n\
         {\"tool\":\"search\",\"query\":\"callers of parse\",\"hits\":3},\n\
         {\"error\":\"timeout\",\"elapsed_ms\":5000},\n\
         {\"tool\":\"read\",\"path\":\"a.rs\"}\n\
         ]"
    );
    // No field is shared, so there is no hybrid table.
    assert!(matches!(
        encode(&results, Form::Hybrid, &RecordsOptions::default()),
        Err(RecordsError::NoCommonColumn)
    ));
    // The TOON forms still write them faithfully, as a list.
    assert_round_trip(&results, Form::Toon, &RecordsOptions::default());
    assert_round_trip(&results, Form::FlatToon, &RecordsOptions::default());
}

#[test]
fn empty_list_in_every_form() {
    let opts = RecordsOptions::default();
    assert_eq!(choose(&[], &opts), Form::Toon);
    for form in FORMS {
        let want = if form == Form::Json { "[]" } else { "rows: []" };
        assert_eq!(encoded(&[], form, &opts), want, "{form}");
        assert_round_trip(&[], form, &opts);
    }
}

#[test]
fn a_single_record() {
    let one = [json!({"path": "README.md", "content": "tsgraph indexes TypeScript."})];
    let text = assert_auto(&one, &RecordsOptions::default(), Form::Toon);
    assert_eq!(
        text,
        "rows[1]{path,content}:\n  README.md,tsgraph indexes TypeScript."
    );

    let tagged = [json!({"path": "README.md", "tags": ["intro", "setup"]})];
    let text = assert_auto(&tagged, &RecordsOptions::default(), Form::Hybrid);
    assert_eq!(
        text,
        "rows[1]{path}:\n  README.md\nmetadata:\n  0: {\"tags\":[\"intro\",\"setup\"]}"
    );

    let deep = [chunks_with_deep_metadata().remove(1)];
    assert_auto(&deep, &RecordsOptions::default(), Form::Hybrid);
}

#[test]
fn records_that_are_not_objects() {
    let mixed = [json!({"path": "a.md"}), json!("loose text"), json!(3)];
    let opts = RecordsOptions::default();
    assert_eq!(choose(&mixed, &opts), Form::Json);
    for form in [Form::FlatToon, Form::Hybrid] {
        assert!(
            matches!(
                encode(&mixed, form, &opts),
                Err(RecordsError::NotAnObject { index: 1 })
            ),
            "{form}"
        );
    }
    assert_round_trip(&mixed, Form::Toon, &opts);
    assert_round_trip(&mixed, Form::Json, &opts);
}

// ---- the choice ---------------------------------------------------------------------------

#[test]
fn hybrid_needs_half_of_the_fields_in_the_table() {
    let opts = RecordsOptions::default();
    // 2 table cells against 4 sidecar fields.
    let sparse = [
        json!({"id": 1, "a": 1, "b": 2}),
        json!({"id": 2, "c": 3, "d": 4}),
    ];
    assert_eq!(choose(&sparse, &opts), Form::Json);
    // 2 against 2: exactly half.
    let half = [json!({"id": 1, "a": 1}), json!({"id": 2, "b": 2})];
    assert_eq!(choose(&half, &opts), Form::Hybrid);
    // 4 against 2.
    let mostly = [
        json!({"id": 1, "name": "x", "a": 1}),
        json!({"id": 2, "name": "y", "b": 2}),
    ];
    assert_eq!(choose(&mostly, &opts), Form::Hybrid);
    assert_round_trip(&sparse, Form::Hybrid, &opts);
    assert_round_trip(&half, Form::Hybrid, &opts);
}

#[test]
fn a_column_must_be_a_primitive_in_every_record() {
    let records = [
        json!({"id": 1, "title": "a", "tags": "x"}),
        json!({"id": 2, "title": null, "tags": ["x", "y"]}),
        json!({"id": "3", "title": true}),
    ];
    let text = assert_auto(&records, &RecordsOptions::default(), Form::Hybrid);
    assert_eq!(
        text,
        "rows[3]{id,title}:\n  1,a\n  2,null\n  \"3\",true\n\
         metadata:\n  0: {\"tags\":\"x\"}\n  1: {\"tags\":[\"x\",\"y\"]}"
    );
}

#[test]
fn deep_uniform_groups_are_not_a_toon_table() {
    let records = [
        json!({"id": 1, "score": {"bm25": {"raw": 1.5, "norm": 0.5}}}),
        json!({"id": 2, "score": {"bm25": {"raw": 2.5, "norm": 0.25}}}),
    ];
    let opts = RecordsOptions::default();
    assert_eq!(choose(&records, &opts), Form::Hybrid);
    // The generic encoder would make nested groups; the choice prefers flat columns.
    assert_auto(&records, &flatten(&["score.bm25"]), Form::FlatToon);
    assert_eq!(
        encoded(&records, Form::FlatToon, &flatten(&["score.bm25"])),
        "rows[2]{id,score_bm25_raw,score_bm25_norm}:\n  1,1.5,0.5\n  2,2.5,0.25"
    );
}

#[test]
fn flattening_preference_skips_the_plain_table() {
    // Uniform with a column group, but `metadata` is asked flat and `author` is a group:
    // FlatToon would still have a group, so Hybrid honours the request.
    let records = [
        json!({"path": "a.md", "metadata": {"source": "web"}, "author": {"name": "Ada"}}),
        json!({"path": "b.md", "metadata": {"source": "pdf"}, "author": {"name": "Bob"}}),
    ];
    assert_eq!(choose(&records, &RecordsOptions::default()), Form::Toon);
    let text = assert_auto(&records, &flatten(&["metadata"]), Form::Hybrid);
    assert_eq!(
        text,
        "rows[2]{path,metadata_source}:\n  a.md,web\n  b.md,pdf\n\
         metadata:\n  0: {\"author\":{\"name\":\"Ada\"}}\n  1: {\"author\":{\"name\":\"Bob\"}}"
    );
    assert_auto(&records, &flatten(&["metadata", "author"]), Form::FlatToon);
}

/// A record `{"id": 1, "x": {"x": … "leaf"}}` of depth `depth`.
fn nested(depth: usize) -> Value {
    let mut value = json!("leaf");
    for _ in 1..depth {
        value = json!({"x": value});
    }
    json!({"id": 1, "x": value})
}

#[test]
fn records_nested_past_the_limit_are_refused_in_every_form() {
    let deepest = [nested(MAX_RECORD_DEPTH)];
    let opts = RecordsOptions::default();
    assert_eq!(choose(&deepest, &opts), Form::Hybrid);
    for form in FORMS {
        assert_round_trip(&deepest, form, &opts);
    }

    let too_deep = [json!({"ok": true}), nested(MAX_RECORD_DEPTH + 1)];
    assert_eq!(choose(&too_deep, &opts), Form::Json);
    for form in FORMS {
        assert!(
            matches!(
                encode(&too_deep, form, &opts),
                Err(RecordsError::TooDeep {
                    index: 1,
                    limit: MAX_RECORD_DEPTH
                })
            ),
            "{form}"
        );
    }
}

#[test]
fn absurdly_deep_records_do_not_overflow_the_stack() {
    let mut deep = json!(0);
    for _ in 0..200_000 {
        deep = Value::Array(vec![deep]);
    }
    let records = [deep];
    let opts = RecordsOptions::default();
    assert_eq!(choose(&records, &opts), Form::Json);
    assert!(matches!(
        encode_auto(&records, &opts),
        Err(RecordsError::TooDeep { index: 0, .. })
    ));
    // `Value`'s own `Drop` recurses; leak the value rather than test serde_json's stack.
    std::mem::forget(records);
}

// ---- truncation ---------------------------------------------------------------------------

fn multilingual_chunks() -> Vec<Value> {
    vec![
        json!({"path": "ja/intro.md", "content": "東京は日本の首都です。人口は約1400万人です。",
               "metadata": {"summary": "🚀 Launch notes: 🎉 celebrate 🎊", "source": "ja"}}),
        json!({"path": "emoji.md", "content": "😀😃😄😁😆😅🤣😂",
               "metadata": {"summary": "short", "source": "web", "notes": "naïve café résumé"}}),
    ]
}

#[test]
fn truncation_counts_characters_and_cuts_on_boundaries() {
    let opts = RecordsOptions::default()
        .truncating("content", 7)
        .truncating("metadata.summary", 6)
        .truncating("metadata.notes", 5);
    let chunks = multilingual_chunks();

    // Uniform? No: `notes` only in row 1, so the metadata groups differ.
    assert_eq!(choose(&chunks, &opts), Form::Hybrid);
    let text = encoded(&chunks, Form::Hybrid, &opts);
    assert_eq!(
        text,
        "rows[2]{path,content}:\n  \
         ja/intro.md,東京は日本の…\n  \
         emoji.md,😀😃😄😁😆😅…\n\
         metadata:\n  \
         0: {\"metadata\":{\"summary\":\"🚀 Lau…\",\"source\":\"ja\"}}\n  \
         1: {\"metadata\":{\"summary\":\"short\",\"source\":\"web\",\"notes\":\"naïv…\"}}"
    );

    let flat = RecordsOptions {
        flatten: vec!["metadata".to_owned()],
        ..opts.clone()
    };
    let text = encoded(&chunks, Form::Hybrid, &flat);
    assert_eq!(
        text,
        "rows[2]{path,content,metadata_summary,metadata_source}:\n  \
         ja/intro.md,東京は日本の…,🚀 Lau…,ja\n  \
         emoji.md,😀😃😄😁😆😅…,short,web\n\
         metadata:\n  \
         1: {\"metadata\":{\"notes\":\"naïv…\"}}"
    );

    let json = encoded(&chunks, Form::Json, &opts);
    let back: Vec<Value> = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        back.first().and_then(|r| r.get("content")),
        Some(&json!("東京は日本の…"))
    );
    let toon = to_value(&encoded(&chunks, Form::Toon, &opts)).expect("TOON");
    assert_eq!(
        toon.pointer("/rows/1/content"),
        Some(&json!("😀😃😄😁😆😅…"))
    );
    assert_eq!(
        toon.pointer("/rows/0/metadata/summary"),
        Some(&json!("🚀 Lau…"))
    );

    // Cut strings never exceed their limit and are prefixes of the original.
    let decoded = decode_hybrid(&text, &flat).expect("decodes");
    for (cut, original) in decoded.iter().zip(&chunks) {
        let (Some(cut), Some(original)) = (cut["content"].as_str(), original["content"].as_str())
        else {
            panic!("content strings");
        };
        assert!(cut.chars().count() <= 7, "{cut}");
        assert!(original.starts_with(cut.trim_end_matches('…')), "{cut}");
    }
}

#[test]
fn truncation_marker_is_configurable_and_counted() {
    let chunks = [json!({"content": "abcdefghij", "tags": ["long tag", "ok"]})];
    let opts = RecordsOptions {
        marker: " [...]".to_owned(),
        ..RecordsOptions::default()
            .truncating("content", 8)
            .truncating("tags", 3)
    };
    let text = encoded(&chunks, Form::Json, &opts);
    assert_eq!(
        text,
        "[\n{\"content\":\"ab [...]\",\"tags\":[\"lon\",\"ok\"]}\n]"
    );
    let text = encoded(&chunks, Form::Hybrid, &opts);
    assert_eq!(
        text,
        "rows[1]{content}:\n  \"ab [...]\"\nmetadata:\n  0: {\"tags\":[\"lon\",\"ok\"]}"
    );
}

// ---- flattening and names -----------------------------------------------------------------

#[test]
fn names_that_would_read_back_wrongly_stay_out_of_the_table() {
    // `metadata_source` exists as a key and as a flattened name; `metadata_x` looks flattened.
    let records = [
        json!({"id": 1, "metadata_source": "legacy", "metadata": {"source": "web", "page": 3}, "metadata_x": 0}),
        json!({"id": 2, "metadata_source": "legacy", "metadata": {"source": "pdf", "page": 9}, "metadata_x": 1}),
    ];
    let opts = flatten(&["metadata"]);
    let text = encoded(&records, Form::Hybrid, &opts);
    assert_eq!(
        text,
        "rows[2]{id,metadata_page}:\n  1,3\n  2,9\n\
         metadata:\n  \
         0: {\"metadata_source\":\"legacy\",\"metadata\":{\"source\":\"web\"},\"metadata_x\":0}\n  \
         1: {\"metadata_source\":\"legacy\",\"metadata\":{\"source\":\"pdf\"},\"metadata_x\":1}"
    );
    assert_round_trip(&records, Form::Hybrid, &opts);
    // 4 cells against 6 sidecar fields: JSON reads better.
    assert_eq!(choose(&records, &opts), Form::Json);
    // Without flattening nothing looks flattened, and the records are a plain table.
    assert_auto(&records, &RecordsOptions::default(), Form::Toon);
}

#[test]
fn a_child_whose_name_reads_back_as_another_path_stays_nested() {
    // `m.n_x` would be the column `m_n_x`, which reads back as `m.n.x` under `m.n`.
    let records = [json!({"m": {"n_x": null, "a": 1}})];
    let opts = flatten(&["m", "m.n"]);
    let text = assert_auto(&records, &opts, Form::Hybrid);
    assert_eq!(
        text,
        "rows[1]{m_a}:\n  1\nmetadata:\n  0: {\"m\":{\"n_x\":null}}"
    );
}

#[test]
fn forced_flat_toon_on_ragged_records_is_a_faithful_list() {
    let chunks = chunks_with_ragged_metadata();
    let opts = flatten(&["metadata"]);
    let text = encoded(&chunks, Form::FlatToon, &opts);
    assert!(
        text.starts_with("rows[4]:\n  - path: guide/install.md\n"),
        "{text}"
    );
    assert!(text.contains("    metadata_source: docs\n"), "{text}");
    assert_round_trip(&chunks, Form::FlatToon, &opts);
    assert_round_trip(&chunks, Form::Toon, &opts);
    assert_round_trip(&chunks, Form::Json, &opts);
}

#[test]
fn custom_keys_separator_and_delimiter() {
    let mut opts = RecordsOptions {
        separator: ".".to_owned(),
        rows_key: "chunks".to_owned(),
        sidecar_key: "extra fields".to_owned(),
        ..flatten(&["metadata"])
    };
    opts.toon.delimiter = Delimiter::Tab;
    opts.toon.indent = 4;
    let chunks = chunks_with_ragged_metadata();
    let text = assert_auto(&chunks, &opts, Form::Hybrid);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.first(),
        Some(&"chunks[4\t]{path\tcontent\tmetadata.source\tmetadata.lang}:")
    );
    assert_eq!(
        lines.get(1),
        Some(&"    guide/install.md\tRun cargo install tsgraph.\tdocs\ten")
    );
    assert_eq!(lines.get(5), Some(&"\"extra fields\":"));
    assert_eq!(
        lines.get(6),
        Some(&"    0: {\"metadata\":{\"tags\":[\"setup\",\"cli\"]}}")
    );
    // Decoding needs the same options: the default indent of 2 rejects this document.
    assert!(matches!(
        decode_hybrid(&text, &RecordsOptions::default()),
        Err(HybridError::Toon(_))
    ));
}

// ---- the sidecar grammar ------------------------------------------------------------------

/// Reads a hybrid document's sidecar the way a consumer without a TOON parser would.
fn split_sidecar(text: &str, key_line: &str, indent: &str) -> Vec<(usize, Value)> {
    let Some((_, section)) = text.split_once(&format!("\n{key_line}\n")) else {
        return Vec::new();
    };
    section
        .lines()
        .map(|line| {
            let line = line.strip_prefix(indent).expect("indented");
            let (index, json) = line.split_once(": ").expect("index: json");
            (
                index.parse().expect("row index"),
                serde_json::from_str(json).expect("JSON object"),
            )
        })
        .collect()
}

#[test]
fn sidecar_lines_split_without_a_toon_parser() {
    let records = [
        json!({"id": 1, "note": "a: b, \"quoted\"\nnext line\ttab \\ back", "extra": {"k": "v: w"}}),
        json!({"id": 2}),
        json!({"id": 3, "note": "日本語 🎉", "extra": null}),
    ];
    let opts = RecordsOptions::default();
    let text = encoded(&records, Form::Hybrid, &opts);
    assert_eq!(text.lines().count(), 1 + 3 + 1 + 2);
    let sidecar = split_sidecar(&text, "metadata:", "  ");
    assert_eq!(
        sidecar,
        [
            (
                0,
                json!({"note": "a: b, \"quoted\"\nnext line\ttab \\ back", "extra": {"k": "v: w"}})
            ),
            (2, json!({"note": "日本語 🎉", "extra": null})),
        ]
    );
    assert_round_trip(&records, Form::Hybrid, &opts);
}

#[test]
fn uniform_records_have_no_sidecar_section() {
    let text = encoded(&uniform_chunks(), Form::Hybrid, &RecordsOptions::default());
    assert!(!text.contains("metadata"), "{text}");
    assert_eq!(
        text,
        encoded(&uniform_chunks(), Form::Toon, &RecordsOptions::default())
    );
}

#[test]
fn decode_hybrid_refuses_documents_that_are_not_records() {
    let opts = RecordsOptions::default();
    type Expect = fn(&HybridError) -> bool;
    let cases: [(&str, Expect); 8] = [
        ("rows[1]{a}:\n  1\n  2", |e| {
            matches!(e, HybridError::Toon(_))
        }),
        ("a: 1", |e| matches!(e, HybridError::NotRecords(_))),
        ("rows: 3", |e| matches!(e, HybridError::NotRecords(_))),
        ("rows[1]{a}:\n  1\nother: 2", |e| {
            matches!(e, HybridError::NotRecords(_))
        }),
        (
            "rows[1]{a}:\n  1\nmetadata:\n  1: {\"b\":2}",
            |e| matches!(e, HybridError::BadRowKey { key } if key == "1"),
        ),
        ("rows[1]{a}:\n  1\nmetadata:\n  0: [1]", |e| {
            matches!(e, HybridError::BadSidecar { row: 0, .. })
        }),
        ("rows[1]{a}:\n  1\nmetadata:\n  0: {\"b\":", |e| {
            matches!(e, HybridError::BadSidecar { row: 0, .. })
        }),
        (
            "rows[1]{a}:\n  1\nmetadata:\n  0: {\"a\":2}",
            |e| matches!(e, HybridError::Conflict { row: 0, path } if path == "a"),
        ),
    ];
    for (text, expected) in cases {
        match decode_hybrid(text, &opts) {
            Err(err) => assert!(expected(&err), "{text:?}: {err}"),
            Ok(value) => panic!("{text:?} decoded to {value:?}"),
        }
    }
    // Two columns that read back as the same path.
    let clash = "rows[1]{meta_a,meta}:\n  1,2";
    assert!(matches!(
        decode_hybrid(clash, &flatten(&["meta"])),
        Err(HybridError::Conflict { row: 0, .. })
    ));
    assert!(matches!(
        decode_hybrid("rows: []", &flatten(&["a..b"])),
        Err(HybridError::InvalidOptions(_))
    ));
}

// ---- options, errors, writers -------------------------------------------------------------

#[test]
fn invalid_options_are_refused_before_writing() {
    let chunks = uniform_chunks();
    let bad = [
        flatten(&["metadata..source"]),
        RecordsOptions::default().truncating("", 3),
        RecordsOptions {
            separator: String::new(),
            ..RecordsOptions::default()
        },
        RecordsOptions {
            sidecar_key: "rows".to_owned(),
            ..RecordsOptions::default()
        },
    ];
    for opts in &bad {
        let mut out = Vec::new();
        let result = encode_to_writer(&chunks, Form::Toon, opts, &mut out);
        assert!(
            matches!(result, Err(RecordsError::InvalidOptions(_))),
            "{opts:?}"
        );
        assert!(out.is_empty());
    }
    // `choose` ignores a flatten path it cannot parse.
    assert_eq!(choose(&chunks, &flatten(&["metadata..source"])), Form::Toon);
}

/// A sink that fails after `left` bytes.
struct FailingSink {
    left: usize,
}

impl io::Write for FailingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() > self.left {
            return Err(io::Error::other("disk full"));
        }
        self.left -= buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn writers_get_the_same_bytes_and_sink_errors_surface() {
    let chunks = chunks_with_ragged_metadata();
    let opts = flatten(&["metadata"]);
    for form in FORMS {
        let mut out = Vec::new();
        encode_to_writer(&chunks, form, &opts, &mut out).expect("encodes");
        assert_eq!(
            String::from_utf8(out).ok(),
            encode(&chunks, form, &opts).ok(),
            "{form}"
        );
    }
    let mut out = Vec::new();
    let form = encode_auto_to_writer(&chunks, &opts, &mut out).expect("encodes");
    assert_eq!(form, Form::Hybrid);

    // Failing in the table and failing in the sidecar.
    for left in [10, 300] {
        for form in FORMS {
            let result = encode_to_writer(&chunks, form, &opts, FailingSink { left });
            assert!(
                matches!(result, Err(RecordsError::Encode(EncodeError::Io(_)))),
                "{form} after {left} bytes: {result:?}"
            );
        }
    }
}

#[test]
fn thousands_of_chunks_round_trip() {
    let sources = ["docs", "blog", "notes"];
    let chunks: Vec<Value> = (0..5000usize)
        .map(|i| {
            let mut metadata = json!({"source": sources[i % 3], "chunk": i, "score": 0.05 + (i % 7) as f64 / 10.0});
            if i % 10 == 0 {
                metadata["tags"] = json!(["reviewed", format!("batch-{}", i / 100)]);
            }
            json!({"path": format!("docs/file-{}.md", i / 4), "content": format!("Chunk {i}, with a comma"), "metadata": metadata})
        })
        .collect();
    let opts = flatten(&["metadata"]);
    let text = assert_auto(&chunks, &opts, Form::Hybrid);
    assert!(
        text.starts_with(
            "rows[5000]{path,content,metadata_source,metadata_chunk,metadata_score}:\n"
        )
    );
    assert_eq!(text.lines().count(), 1 + 5000 + 1 + 500);
}

#[test]
fn serializable_items_convert_to_records() {
    #[derive(serde::Serialize)]
    struct Chunk {
        path: &'static str,
        content: &'static str,
        tags: Vec<&'static str>,
    }
    let items = [
        Chunk {
            path: "a.md",
            content: "one",
            tags: vec!["x"],
        },
        Chunk {
            path: "b.md",
            content: "two",
            tags: vec![],
        },
    ];
    let records = records::to_records(&items).expect("converts");
    let text = assert_auto(&records, &RecordsOptions::default(), Form::Hybrid);
    assert_eq!(
        text,
        "rows[2]{path,content}:\n  a.md,one\n  b.md,two\n\
         metadata:\n  0: {\"tags\":[\"x\"]}\n  1: {\"tags\":[]}"
    );
}

#[test]
fn form_names() {
    let names: Vec<String> = FORMS.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["toon", "flat-toon", "hybrid", "json"]);
}

// ---- properties ---------------------------------------------------------------------------

mod props {
    //! Random records over a key alphabet built to collide: top-level keys that look like
    //! flattened names (`m_a`, `m_n_x`) next to the objects the specs flatten (`m`, `m.n`).

    use proptest::prelude::*;
    use serde_json::{Map, Value};
    use tsgraph_encoders::toon::records::{
        Form, RecordsOptions, decode_hybrid, encode, encode_auto,
    };
    use tsgraph_encoders::toon::to_value;

    const TOP_KEYS: [&str; 6] = ["a", "m", "m_a", "m_b", "n", "m_n_x"];
    const INNER_KEYS: [&str; 5] = ["a", "b", "n", "x", "n_x"];
    const TEXTS: [&str; 7] = [
        "",
        "web",
        "a, b",
        "key: value",
        "\"q\" {x}",
        "日本 🎉",
        "-1",
    ];

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-1000i64..1000).prop_map(Value::from),
            prop::sample::select(&TEXTS[..]).prop_map(Value::from),
        ]
    }

    fn object(keys: &'static [&'static str], value: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
        prop::collection::vec((prop::sample::select(keys), value), 0..4)
            .prop_map(|fields| {
                Value::Object(
                    fields
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<String, Value>>(),
                )
            })
            .boxed()
    }

    fn value() -> BoxedStrategy<Value> {
        leaf()
            .prop_recursive(3, 24, 4, |inner| {
                prop_oneof![
                    3 => leaf(),
                    1 => prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                    2 => object(&INNER_KEYS, inner.boxed()),
                ]
            })
            .boxed()
    }

    /// Copies of one record (so uniform shapes are common) followed by a few others.
    fn records() -> impl Strategy<Value = Vec<Value>> {
        (
            object(&TOP_KEYS, value()),
            0..4usize,
            prop::collection::vec(object(&TOP_KEYS, value()), 0..3),
        )
            .prop_map(|(base, copies, others)| {
                std::iter::repeat_n(base, copies).chain(others).collect()
            })
    }

    fn opts() -> RecordsOptions {
        RecordsOptions::default().flattening("m").flattening("m.n")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn auto_documents_read_back(records in records()) {
            let opts = opts();
            let (form, text) = encode_auto(&records, &opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let back = if form == Form::Json {
                serde_json::from_str::<Vec<Value>>(&text).map_err(|e| e.to_string())
            } else {
                prop_assert!(to_value(&text).is_ok(), "{form}:\n{text}");
                decode_hybrid(&text, &opts).map_err(|e| e.to_string())
            };
            prop_assert_eq!(back, Ok(records), "{}:\n{}", form, text);
        }

        #[test]
        fn hybrid_documents_always_read_back(records in records()) {
            let opts = opts();
            // Records without a shared primitive have no hybrid table; that is an error.
            if let Ok(text) = encode(&records, Form::Hybrid, &opts) {
                prop_assert!(to_value(&text).is_ok(), "{}", text);
                let back = decode_hybrid(&text, &opts).map_err(|e| e.to_string());
                prop_assert_eq!(back, Ok(records), "{}", text);
            }
        }
    }
}
