//! The CLI run in-process (`tsgraph_cli::run`) with captured streams: exit codes, symbol
//! errors, the index summary, encode/decode.

use std::ffi::OsString;

use tsgraph_tests::{check_golden, fixture};

struct Run {
    code: u8,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], stdin: &str) -> Run {
    let mut argv: Vec<OsString> = vec!["tsgraph".into()];
    argv.extend(args.iter().map(OsString::from));
    let (mut input, mut stdout, mut stderr) = (stdin.as_bytes(), Vec::new(), Vec::new());
    let mut streams = tsgraph_cli::Streams {
        stdin: &mut input,
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    let code = tsgraph_cli::run(argv, &mut streams);
    Run {
        code,
        stdout: String::from_utf8(stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(stderr).expect("UTF-8 stderr"),
    }
}

/// Runs a query against the basic fixture with a store in a temp folder.
fn query(db: &tempfile::TempDir, args: &[&str]) -> Run {
    let project = fixture("basic");
    let db_path = db.path().join("graph.redb");
    // `--project` before the command, `--db` after it (either works on either side).
    let mut all = vec!["--project", project.to_str().expect("UTF-8 path")];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", db_path.to_str().expect("UTF-8 path")]);
    run(&all, "")
}

#[test]
fn index_prints_a_summary() {
    let db = tempfile::tempdir().expect("temp dir");
    let out = query(&db, &["index"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let masked: String = out
        .stdout
        .lines()
        .map(|line| {
            if line.starts_with("indexed ") {
                line.split(" in ").next().unwrap_or(line).to_owned() + " in <time>"
            } else if line.starts_with("store: ") {
                "store: <path>".to_owned()
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    check_golden("basic/index-summary.txt", &masked);
}

#[test]
fn a_query_on_a_project_without_a_store_indexes_it_first() {
    let db = tempfile::tempdir().expect("temp dir");
    let out = query(&db, &["callers", "findUser", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.starts_with("indexed 10 files"), "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(value["symbol"]["id"], "src/db/user.ts:findUser");
}

#[test]
fn an_ambiguous_symbol_lists_candidates_and_exits_2() {
    let db = tempfile::tempdir().expect("temp dir");
    let out = query(&db, &["callers", "save"]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .contains("src/services/UserService.ts:UserService.save"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("src/services/base.ts:Service.save"),
        "{}",
        out.stderr
    );
    let narrowed = query(&db, &["callers", "save", "--file", "UserService.ts"]);
    assert_eq!(narrowed.code, 0, "{}", narrowed.stderr);
    assert!(
        narrowed
            .stdout
            .starts_with("callers: \"src/services/UserService.ts:UserService.save\""),
        "{}",
        narrowed.stdout
    );
}

#[test]
fn an_unknown_symbol_suggests_names_and_exits_2() {
    let db = tempfile::tempdir().expect("temp dir");
    let out = query(&db, &["callees", "saveUsr"]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .contains("no symbol matches `saveUsr`; closest names: saveUser"),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_arguments_name_the_argument() {
    let out = run(&["callers"], "");
    assert_eq!(out.code, 64, "a usage error");
    assert!(out.stderr.contains("<SYMBOL>"), "{}", out.stderr);
    let out = run(&["--project", "/definitely/not/here", "callers", "x"], "");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("/definitely/not/here"),
        "{}",
        out.stderr
    );
}

#[test]
fn neighbors_path_and_impact_in_every_format() {
    let db = tempfile::tempdir().expect("temp dir");
    for format in ["toon", "json", "text", "mermaid"] {
        let path = query(&db, &["path", "main", "insertRow", "--format", format]);
        assert_eq!(path.code, 0, "{}", path.stderr);
        let ext = match format {
            "text" => "txt",
            "mermaid" => "mmd",
            other => other,
        };
        check_golden(&format!("basic/cli-path.{ext}"), &path.stdout);
        let neighbors = query(
            &db,
            &[
                "neighbors",
                "findUser",
                "--direction",
                "in",
                "--distance",
                "2",
                "--format",
                format,
            ],
        );
        assert_eq!(neighbors.code, 0, "{}", neighbors.stderr);
        check_golden(
            &format!("basic/cli-neighbors-in-2.{ext}"),
            &neighbors.stdout,
        );
    }
}

#[test]
fn encode_and_decode_round_trip_and_reject_bad_input() {
    let json = r#"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob, Jr."}],"tags":["a","b"]}"#;
    let encoded = run(&["encode"], json);
    assert_eq!(encoded.code, 0, "{}", encoded.stderr);
    assert_eq!(
        encoded.stdout,
        "users[2]{id,name}:\n  1,Ada\n  2,\"Bob, Jr.\"\ntags[2]: a,b\n"
    );
    let piped = run(&["encode", "--delimiter", "pipe", "--indent", "4"], json);
    assert_eq!(
        piped.stdout,
        "users[2|]{id|name}:\n    1|Ada\n    2|Bob, Jr.\ntags[2|]: a|b\n"
    );
    let decoded = run(&["decode"], &encoded.stdout);
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    let value: serde_json::Value = serde_json::from_str(&decoded.stdout).expect("JSON");
    assert_eq!(
        value,
        serde_json::from_str::<serde_json::Value>(json).expect("JSON")
    );

    let bad_json = run(&["encode"], "{\"a\": [1, 2,,]}");
    assert_eq!(bad_json.code, 1);
    assert!(bad_json.stdout.is_empty());
    assert!(bad_json.stderr.contains("1:"), "{}", bad_json.stderr);
    let bad_toon = run(&["decode"], "items[3]: a,b\n");
    assert_eq!(bad_toon.code, 1);
    assert!(bad_toon.stdout.is_empty());
    assert!(bad_toon.stderr.contains("1:"), "{}", bad_toon.stderr);
    assert_eq!(bad_toon.stderr.lines().count(), 1, "{}", bad_toon.stderr);
}

#[test]
fn encode_auto_picks_the_form_from_the_records_shape() {
    let chunks = r#"[
        {"path":"a.md","content":"Intro to graphs","metadata":{"source":"web","tags":["x"]}},
        {"path":"b.md","content":"Second, longer chunk","metadata":{"source":"pdf"}}
    ]"#;
    let out = run(&["encode", "--auto", "--truncate", "content=10"], chunks);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "form: hybrid\n");
    assert!(
        out.stdout
            .starts_with("rows[2]{path,content}:\n  a.md,Intro to …\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("metadata:\n  0: {\"metadata\":{\"source\":\"web\",\"tags\":[\"x\"]}}"),
        "{}",
        out.stdout
    );
    let flat = run(
        &["encode", "--auto", "--flatten", "metadata.source"],
        r#"[{"id":1,"metadata":{"source":"web"}},{"id":2,"metadata":{"source":"pdf"}}]"#,
    );
    assert_eq!(flat.code, 0, "{}", flat.stderr);
    assert_eq!(flat.stderr, "form: flat-toon\n");
    assert_eq!(
        flat.stdout,
        "rows[2]{id,metadata_source}:\n  1,web\n  2,pdf\n"
    );
    let not_records = run(&["encode", "--auto"], r#"{"a":1}"#);
    assert_eq!(not_records.stdout, "a: 1\n");
    let bad = run(&["encode", "--truncate", "content=10"], "[]");
    assert_eq!(bad.code, 64, "--truncate needs --auto");
}

#[test]
fn a_corrupt_store_is_a_clear_error_and_index_rebuild_recovers() {
    let db = tempfile::tempdir().expect("temp dir");
    std::fs::write(db.path().join("graph.redb"), b"not a redb file".repeat(300)).expect("write");
    let broken = query(&db, &["callers", "findUser"]);
    assert_eq!(broken.code, 1);
    assert!(broken.stdout.is_empty());
    assert!(
        broken.stderr.contains("corrupt") && broken.stderr.contains("tsgraph index --rebuild"),
        "{}",
        broken.stderr
    );
    let rebuilt = query(&db, &["index", "--rebuild"]);
    assert_eq!(rebuilt.code, 0, "{}", rebuilt.stderr);
    let again = query(&db, &["callers", "findUser"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stderr.is_empty(),
        "already indexed, so no implicit index: {}",
        again.stderr
    );
}

#[test]
fn symbol_errors_in_every_format_exit_2_and_json_errors_go_to_stdout() {
    let db = tempfile::tempdir().expect("temp dir");
    // Indexed first, so that no query's stderr starts with the index summary.
    assert_eq!(query(&db, &["index"]).code, 0);
    let mut report = String::new();
    for (name, args) in [
        ("ambiguous", &["callers", "save"][..]),
        ("not-found", &["callers", "saveUsr"][..]),
        (
            "not-in-file",
            &["callers", "saveUser", "--file", "src/nope.ts"][..],
        ),
        ("typo-in-id", &["callers", "src/db/user.ts:saveUsr"][..]),
        ("file-not-found", &["file-symbols", "src/nope.ts"][..]),
    ] {
        for format in ["toon", "text", "json", "mermaid"] {
            let mut all = args.to_vec();
            all.extend_from_slice(&["--format", format]);
            let out = query(&db, &all);
            assert_eq!(out.code, 2, "{name} {format}: {}", out.stderr);
            if format == "json" {
                let value: serde_json::Value =
                    serde_json::from_str(&out.stdout).expect("a JSON error on stdout");
                assert!(value["error"]["code"].is_string(), "{value}");
                report.push_str(&format!("{name} (json stdout): {}", out.stdout));
            } else {
                assert!(out.stdout.is_empty(), "{name} {format}: {}", out.stdout);
            }
            if format == "toon" {
                report.push_str(&format!("{name} (stderr): {}", out.stderr));
            }
        }
    }
    check_golden("basic/symbol-errors.txt", &report);
    // The rejected name is never suggested back; the file mismatch names the right file.
    assert!(
        report.contains("`saveUser` is in: src/db/user.ts"),
        "{report}"
    );
    assert!(report.contains("src/db/user.ts:saveUser"), "{report}");
}

#[test]
fn names_resolve_ignoring_case_when_nothing_matches_exactly() {
    let db = tempfile::tempdir().expect("temp dir");
    let out = query(&db, &["callers", "userservice.save", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(
        value["symbol"]["id"],
        "src/services/UserService.ts:UserService.save"
    );
}

#[test]
fn limits_take_the_same_range_and_say_the_same_thing() {
    let mut messages = Vec::new();
    for option in ["--max-depth", "--max-nodes"] {
        for value in ["0", "-1", "1000001"] {
            let out = run(&["callers", "x", option, value], "");
            assert_eq!(out.code, 64, "{option} {value}: {}", out.stderr);
            assert!(!out.stderr.contains("-- -1"), "{}", out.stderr);
            let line = out
                .stderr
                .lines()
                .next()
                .unwrap_or("")
                .replace(option, "OPTION");
            messages.push((value, line));
        }
    }
    let (depth, nodes) = messages.split_at(3);
    assert_eq!(depth, nodes, "both limits report the same");
    assert!(depth[0].1.contains("1..=1000000"), "{:?}", depth[0]);
}

#[test]
fn usage_errors_exit_64_and_help_exits_0() {
    assert_eq!(run(&["calers", "x"], "").code, 64);
    assert_eq!(run(&["callers", "x", "--format", "yaml"], "").code, 64);
    let encode_db = run(&["encode", "--db", "x"], "");
    assert_eq!(encode_db.code, 64, "encode takes no --db");
    assert!(
        encode_db.stderr.contains("--db does not apply to encode"),
        "{}",
        encode_db.stderr
    );
    assert_eq!(run(&["--db", "x", "decode"], "").code, 64);
    assert_eq!(run(&["bench", "--db", "x"], "").code, 64);
    assert_eq!(run(&["decode", "--format", "json"], "").code, 64);
    let help = run(&["--help"], "");
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("64 usage error"), "{}", help.stdout);
    let encode_help = run(&["encode", "--help"], "");
    assert!(
        !encode_help.stdout.contains("--format"),
        "{}",
        encode_help.stdout
    );
}

#[test]
fn project_and_db_work_on_either_side_of_the_command() {
    let db = tempfile::tempdir().expect("temp dir");
    let project = fixture("basic");
    let project = project.to_str().expect("UTF-8 path");
    let db_path = db.path().join("graph.redb");
    let db_path = db_path.to_str().expect("UTF-8 path");
    let orders: [&[&str]; 4] = [
        &["--project", project, "--db", db_path, "callers", "findUser"],
        &["callers", "findUser", "--project", project, "--db", db_path],
        &["--db", db_path, "callers", "--project", project, "findUser"],
        &["callers", "--db", db_path, "findUser", "--project", project],
    ];
    let answers: Vec<Run> = orders.iter().map(|args| run(args, "")).collect();
    for (args, answer) in orders.iter().zip(&answers) {
        assert_eq!(answer.code, 0, "{args:?}: {}", answer.stderr);
        assert!(
            answer
                .stdout
                .starts_with("callers: \"src/db/user.ts:findUser\""),
            "{args:?}: {}",
            answer.stdout
        );
        assert_eq!(answer.stdout, answers[0].stdout, "{args:?}");
    }
    // The store named after the command is the one used.
    assert!(db.path().join("graph.redb").exists());
    let index = run(&["index", "--project", project, "--db", db_path], "");
    assert_eq!(index.code, 0, "{}", index.stderr);
    assert!(index.stdout.contains(db_path), "{}", index.stdout);
}

#[test]
fn decode_reads_other_indentations() {
    let four = "users[2]{id,name}:\n    1,Ada\n    2,Bob\nmeta:\n    count: 2\n";
    let wrong = run(&["decode"], four);
    assert_eq!(wrong.code, 1);
    let out = run(&["decode", "--indent", "4"], four);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(value["meta"]["count"], 2);
}

#[test]
fn a_folder_without_sources_is_an_error_and_gets_no_store() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("package.json"), "{}").expect("write");
    std::fs::write(dir.path().join("README.md"), "no code here").expect("write");
    let root = dir.path().to_str().expect("UTF-8 path");
    let out = run(&["--project", root, "callers", "x"], "");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("no TypeScript or JavaScript sources"),
        "{}",
        out.stderr
    );
    assert!(!dir.path().join(".tsgraph").exists(), "no store is created");
    let index = run(&["--project", root, "index"], "");
    assert_eq!(index.code, 1);
    assert!(!dir.path().join(".tsgraph").exists());
}

#[test]
fn an_oversized_file_is_reported_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("package.json"), "{}").expect("write");
    std::fs::write(dir.path().join("small.ts"), "export const a = 1;\n").expect("write");
    std::fs::write(
        dir.path().join("big.ts"),
        "export const b = 1;\n".repeat(100),
    )
    .expect("write");
    let db = dir.path().join("g.redb");
    let out = run(
        &[
            "--project",
            dir.path().to_str().expect("UTF-8"),
            "index",
            "--max-file-size",
            "100",
            "--db",
            db.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mentions = out.stdout.lines().filter(|l| l.contains("big.ts")).count();
    assert_eq!(mentions, 1, "{}", out.stdout);
}

#[test]
fn search_pages_and_rejects_bad_patterns() {
    let db = tempfile::tempdir().expect("temp dir");
    let page = query(
        &db,
        &[
            "search", "save*", "--limit", "1", "--offset", "1", "--format", "json",
        ],
    );
    assert_eq!(page.code, 0, "{}", page.stderr);
    let value: serde_json::Value = serde_json::from_str(&page.stdout).expect("JSON");
    assert_eq!(value["total"], 3, "{value}");
    assert_eq!(value["nodes"].as_array().map(Vec::len), Some(1));
    let bad_glob = query(&db, &["search", "x", "--file", "src/[", "--format", "json"]);
    assert_eq!(bad_glob.code, 1, "{}", bad_glob.stderr);
    assert!(
        bad_glob.stderr.contains("--file `src/[`"),
        "{}",
        bad_glob.stderr
    );
    let json: serde_json::Value = serde_json::from_str(&bad_glob.stdout).expect("JSON error");
    assert_eq!(json["error"]["code"], "error");
    let empty = query(&db, &["search", " "]);
    assert_eq!(empty.code, 1);
    assert!(
        empty.stderr.contains("pattern is empty"),
        "{}",
        empty.stderr
    );
}

#[test]
fn export_writes_each_format_to_stdout_a_file_or_a_folder() {
    let db = tempfile::tempdir().expect("temp dir");
    assert_eq!(query(&db, &["index"]).code, 0);
    let graphml = query(&db, &["export", "--format", "graphml"]);
    assert_eq!(graphml.code, 0, "{}", graphml.stderr);
    check_golden("basic/export.graphml", &graphml.stdout);
    let file = db.path().join("graph.dot");
    let dot = query(
        &db,
        &[
            "export",
            "--format",
            "dot",
            "--out",
            file.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!((dot.code, dot.stdout.as_str()), (0, ""), "{}", dot.stderr);
    check_golden(
        "basic/export.dot",
        &std::fs::read_to_string(&file).expect("dot written"),
    );
    // Neo4j writes two files and so needs a folder: without one it is a usage error.
    assert_eq!(query(&db, &["export", "--format", "neo4j"]).code, 64);
    let folder = db.path().join("neo4j");
    let neo4j = query(
        &db,
        &[
            "export",
            "--format",
            "neo4j",
            "--out",
            folder.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(neo4j.code, 0, "{}", neo4j.stderr);
    assert!(
        neo4j.stderr.contains("neo4j-admin database import full"),
        "{}",
        neo4j.stderr
    );
    for (name, golden) in [
        ("nodes.csv", "basic/export-neo4j-nodes.csv"),
        ("relationships.csv", "basic/export-neo4j-relationships.csv"),
    ] {
        let written = std::fs::read_to_string(folder.join(name)).expect("csv written");
        check_golden(golden, &written);
    }
}

#[test]
fn bench_reports_the_index_the_graph_and_query_latencies_without_touching_the_project() {
    let (_copy, project) = tsgraph_tests::fixture_copy("basic");
    let out_dir = tempfile::tempdir().expect("temp dir");
    let report = out_dir.path().join("bench.md");
    let run = run(
        &[
            "--project",
            project.to_str().expect("UTF-8"),
            "bench",
            "--samples",
            "7",
            "--report",
            report.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    for section in [
        "## Index",
        "## Graph",
        "## Query latency",
        "## Open to first answer",
    ] {
        assert!(
            run.stdout.contains(section),
            "{section} missing:\n{}",
            run.stdout
        );
    }
    // The counts are the fixture's graph (48 nodes, 91 edges, as the export golden has them).
    assert!(
        run.stdout
            .contains("| **all** | **48** | | **all** | **91** |"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("over 7 sampled"), "{}", run.stdout);
    for query in [
        "neighbors distance 2",
        "callers depth 5",
        "shortest path",
        "search prefix*",
    ] {
        assert!(
            run.stdout.contains(&format!("| {query} |")),
            "{query}:\n{}",
            run.stdout
        );
    }
    let written = std::fs::read_to_string(&report).expect("report written");
    assert!(written.contains("![Latency distribution of each query](bench.svg)"));
    let chart = std::fs::read_to_string(out_dir.path().join("bench.svg")).expect("chart");
    assert!(chart.starts_with("<svg"));
    assert!(
        !project.join(".tsgraph").exists(),
        "bench indexes into a temporary store, not the project's"
    );
}

#[test]
fn explain_says_which_walk_ran_what_it_read_and_where_it_stopped() {
    let db = tempfile::tempdir().expect("temp dir");
    let plain = query(&db, &["path", "main", "insertRow"]);
    let explained = query(&db, &["path", "main", "insertRow", "--explain"]);
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    // The answer is the same; the plan goes to stderr.
    assert_eq!(explained.stdout, plain.stdout);
    assert!(
        explained
            .stderr
            .contains("plan: path, bidirectional breadth-first search"),
        "{}",
        explained.stderr
    );
    let k = query(&db, &["path", "main", "insertRow", "--k", "3", "--explain"]);
    assert!(k.stderr.contains("Yen's 3 shortest paths"), "{}", k.stderr);
    // Fewer paths than asked for, and the depth bound cut a search: say so, in the answer too.
    let short = query(
        &db,
        &[
            "path",
            "main",
            "insertRow",
            "--k",
            "5",
            "--max-depth",
            "3",
            "--format",
            "text",
            "--explain",
        ],
    );
    assert!(
        short
            .stderr
            .contains("fewer paths than asked for: a longer path may exist"),
        "{}",
        short.stderr
    );
    assert!(
        short
            .stdout
            .contains("deeper: a longer path may exist than --max-depth 3"),
        "{}",
        short.stdout
    );
    let deps = query(&db, &["deps", "basic-app", "--explain"]);
    assert!(
        deps.stderr
            .contains("plan: deps, bounded breadth-first search"),
        "{}",
        deps.stderr
    );

    // insertRow has callers two hops away: depth 1 cuts them off, the default does not.
    let shallow = query(
        &db,
        &["callers", "insertRow", "--max-depth", "1", "--explain"],
    );
    assert!(
        shallow.stderr.contains("bounds: depth 1, nodes 10000")
            && shallow.stderr.contains("stopped: at the depth bound"),
        "{}",
        shallow.stderr
    );
    let deep = query(&db, &["callers", "insertRow", "--explain"]);
    assert!(deep.stderr.contains("stopped: complete"), "{}", deep.stderr);
    let cut = query(
        &db,
        &[
            "neighbors",
            "findUser",
            "--direction",
            "in",
            "--distance",
            "2",
            "--max-nodes",
            "2",
            "--explain",
        ],
    );
    assert!(
        cut.stderr.contains("direction: in") && cut.stderr.contains("stopped: at the node limit"),
        "{}",
        cut.stderr
    );
    let search = query(&db, &["search", "findUser", "--explain"]);
    assert!(search.stderr.contains("no traversal"), "{}", search.stderr);
}

#[test]
fn a_path_asked_the_wrong_way_round_is_answered_reversed_in_every_format() {
    let db = tempfile::tempdir().expect("temp dir");
    let forward = query(&db, &["path", "main", "insertRow", "--format", "json"]);
    let backward = query(&db, &["path", "insertRow", "main", "--format", "json"]);
    assert_eq!(backward.code, 0, "{}", backward.stderr);
    let (forward, backward): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&forward.stdout).expect("JSON"),
        serde_json::from_str(&backward.stdout).expect("JSON"),
    );
    assert_eq!(backward["reversed"], true);
    assert!(forward.get("reversed").is_none());
    // The same path, from main to insertRow, as the graph has it.
    assert_eq!(backward["paths"], forward["paths"]);
    assert_eq!(backward["from"]["id"], "src/main.ts:main");
    let toon = query(&db, &["path", "insertRow", "main"]);
    assert!(
        toon.stdout.starts_with("reversed: true\n"),
        "{}",
        toon.stdout
    );
    let text = query(&db, &["path", "insertRow", "main", "--format", "text"]);
    assert!(
        text.stdout.starts_with(
            "no path from src/db/client.ts:insertRow to src/main.ts:main; reversed, the path from src/main.ts:main"
        ),
        "{}",
        text.stdout
    );
    let mermaid = query(&db, &["path", "insertRow", "main", "--format", "mermaid"]);
    assert!(mermaid.stdout.contains("%% reversed"), "{}", mermaid.stdout);
    // No path either way: not found, as before.
    let none = query(&db, &["path", "insertRow", "findUser"]);
    assert!(none.stdout.contains("found: false"), "{}", none.stdout);
}

#[test]
fn a_name_asked_for_in_a_barrel_resolves_through_its_re_exports() {
    let db = tempfile::tempdir().expect("temp dir");
    let db_path = db.path().join("graph.redb");
    let project = fixture("barrels");
    let ask = |args: &[&str]| {
        let mut all = vec!["--project", project.to_str().expect("UTF-8 path")];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--db", db_path.to_str().expect("UTF-8 path")]);
        run(&all, "")
    };
    let ambiguous = ask(&["callers", "alpha"]);
    assert_eq!(ambiguous.code, 2, "{}", ambiguous.stdout);
    for (file, expected) in [
        // Two barrels deep: src/index.ts → src/lib/index.ts → src/lib/a.ts.
        ("src/index.ts", "src/lib/a.ts:alpha"),
        ("lib/index.ts", "src/lib/a.ts:alpha"),
        // The file that declares it still answers for itself.
        ("src/other/alpha.ts", "src/other/alpha.ts:alpha"),
    ] {
        let out = ask(&["callers", "alpha", "--file", file]);
        assert_eq!(out.code, 0, "{file}: {}", out.stderr);
        assert!(
            out.stdout.starts_with(&format!("callers: \"{expected}\"")),
            "{file}: {}",
            out.stdout
        );
    }
    // A default export re-exported under a name of its own.
    let beta = ask(&["callees", "main", "--format", "json"]);
    assert!(beta.stdout.contains("src/lib/b.ts:beta"), "{}", beta.stdout);
    let beta = ask(&["callers", "beta", "--file", "src/index.ts"]);
    assert!(
        beta.stdout.starts_with("callers: \"src/lib/b.ts:beta\""),
        "{}",
        beta.stdout
    );
    // app.ts imports two `alpha`s (one under another name, which the store does not keep):
    // both are listed, neither is picked.
    let both = ask(&["callers", "alpha", "--file", "src/app.ts"]);
    assert_eq!(both.code, 2, "{}", both.stdout);
    assert!(
        both.stderr.contains("src/lib/a.ts:alpha")
            && both.stderr.contains("src/other/alpha.ts:alpha"),
        "{}",
        both.stderr
    );
    // A class given as a path endpoint stands for its method when no path goes through the
    // class itself: the one method of Box; Pair's two are listed.
    let boxed = ask(&[
        "path",
        "Box",
        "alpha",
        "--to-file",
        "src/lib/a.ts",
        "--format",
        "json",
    ]);
    assert_eq!(boxed.code, 0, "{}", boxed.stderr);
    let boxed: serde_json::Value = serde_json::from_str(&boxed.stdout).expect("JSON");
    assert_eq!(boxed["from"]["id"], "src/lib/box.ts:Box.open");
    assert_eq!(boxed["found"], true);
    let pair = ask(&["path", "Pair", "alpha", "--to-file", "src/lib/a.ts"]);
    assert_eq!(pair.code, 2, "{}", pair.stdout);
    assert!(
        pair.stderr.contains("src/lib/box.ts:Pair.left")
            && pair.stderr.contains("src/lib/box.ts:Pair.right"),
        "{}",
        pair.stderr
    );
    // Nothing re-exports it: not found, with where it is.
    let missing = ask(&["callers", "main", "--file", "src/lib/index.ts"]);
    assert_eq!(missing.code, 2, "{}", missing.stdout);
}

#[test]
fn topic_search_finds_names_and_paths_by_their_words() {
    let (_dir, project) = tsgraph_tests::fixture_copy("basic");
    let ask = |args: &[&str]| {
        let mut all = vec!["--project", project.to_str().expect("UTF-8 path")];
        all.extend_from_slice(args);
        run(&all, "")
    };
    let ids = |out: &Run| -> Vec<String> {
        let json: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        json["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .map(|n| n["id"].as_str().expect("id").to_owned())
            .collect()
    };
    // A plural and two words: the name made of exactly those words first.
    let found = ask(&["search", "--topic", "user services", "--format", "json"]);
    assert_eq!(found.code, 0, "{}", found.stderr);
    let found = ids(&found);
    assert_eq!(
        found[0], "src/services/UserService.ts:UserService",
        "{found:?}"
    );
    for id in [
        "src/db/user.ts:saveUser",
        "src/ui/UserCard.tsx:UserCard",
        "src/model/user.ts:User",
    ] {
        assert!(found.iter().any(|f| f == id), "{id} in {found:?}");
    }
    // A word of file paths finds the files.
    let db = ids(&ask(&["search", "--topic", "db", "--format", "json"]));
    assert!(db.iter().any(|f| f == "src/db/user.ts"), "{db:?}");
    // The edges between the hits come with them.
    let toon = ask(&["search", "--topic", "user"]);
    assert!(toon.stdout.contains("edges["), "{}", toon.stdout);
    // A pattern and a topic together are a usage error; an empty topic is a clear error.
    assert_eq!(ask(&["search", "user", "--topic", "user"]).code, 64);
    let empty = ask(&["search", "--topic=..."]);
    assert_eq!(empty.code, 1, "{}", empty.stderr);
    assert!(empty.stderr.contains("has no words"), "{}", empty.stderr);

    // A name added by an edit is found by its words after the next index.
    std::fs::write(
        project.join("src/store.ts"),
        "export function createUserStore() { return new Map(); }\n",
    )
    .expect("write");
    assert_eq!(ask(&["index"]).code, 0);
    let stores = ids(&ask(&[
        "search",
        "--topic",
        "user stores",
        "--format",
        "json",
    ]));
    assert_eq!(stores[0], "src/store.ts:createUserStore", "{stores:?}");
}
