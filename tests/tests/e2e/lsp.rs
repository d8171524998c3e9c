//! `tsgraph lsp` driven by a real client: Neovim, headless, through its built-in LSP client
//! (tests/lsp/neovim.lua asks, this test checks the answers). Needs `nvim` on PATH (Debian's
//! `neovim`, which `.ci/run` installs); without it the test says so and passes, unless
//! `TSGRAPH_REQUIRE_NEOVIM` is set (as `.ci/run` sets it).

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tsgraph_tests::fixture_copy;

fn neovim() -> Option<&'static str> {
    let found = Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found && std::env::var_os("TSGRAPH_REQUIRE_NEOVIM").is_some() {
        panic!("nvim is not on PATH, and TSGRAPH_REQUIRE_NEOVIM is set");
    }
    found.then_some("nvim")
}

/// Runs the Lua script against a copy of the fixture and returns what it recorded.
fn drive(nvim: &str, project: &Path) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("lsp/neovim.lua");
    let out = project.with_file_name("answers.json");
    let status = Command::new(nvim)
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("TSGRAPH_BIN", env!("CARGO_BIN_EXE_tsgraph-cli"))
        .env("TSGRAPH_ROOT", project)
        .env("TSGRAPH_OUT", &out)
        .status()
        .expect("run nvim");
    assert!(status.success(), "nvim exited with {status}");
    let text = std::fs::read_to_string(&out).expect("the script wrote its answers");
    let answers: Value = serde_json::from_str(&text).expect("answers are JSON");
    assert!(
        answers.get("failure").is_none(),
        "the script failed: {}",
        answers["failure"]
    );
    answers
}

/// A one-line range: line, start and end column.
type OnLine = (u64, u64, u64);

/// `(id, ranges)` of each call, the item from `key` ("from" or "to").
fn calls(answers: &Value, list: &str, key: &str) -> Vec<(String, Vec<OnLine>)> {
    answers[list]
        .as_array()
        .unwrap_or_else(|| panic!("{list} is a list: {}", answers[list]))
        .iter()
        .map(|call| {
            let id = call[key]["data"]["id"]
                .as_str()
                .expect("item data id")
                .to_owned();
            let ranges = call["fromRanges"]
                .as_array()
                .expect("fromRanges")
                .iter()
                .map(|r| {
                    let line = r["start"]["line"].as_u64().expect("line");
                    assert_eq!(r["end"]["line"].as_u64(), Some(line), "one-line range");
                    let start = r["start"]["character"].as_u64().expect("start");
                    (line, start, r["end"]["character"].as_u64().expect("end"))
                })
                .collect();
            (id, ranges)
        })
        .collect()
}

/// The UTF-16 column of the first `needle` on the (zero-based) `line` of `file`.
fn utf16_column(project: &Path, file: &str, line: usize, needle: &str) -> u64 {
    let text = std::fs::read_to_string(project.join(file)).expect("fixture file");
    let line = text.lines().nth(line).expect("line");
    let byte = line.find(needle).expect("needle on the line");
    line[..byte].encode_utf16().count() as u64
}

fn ids(answers: &Value, list: &str) -> Vec<String> {
    answers[list]
        .as_array()
        .unwrap_or_else(|| panic!("{list} is a list: {}", answers[list]))
        .iter()
        .map(|item| item["data"]["id"].as_str().expect("id").to_owned())
        .collect()
}

#[test]
fn neovim_asks_calls_types_references_and_sees_unsaved_edits() {
    let Some(nvim) = neovim() else {
        eprintln!("skipped: nvim is not on PATH (install Debian's neovim to run this test)");
        return;
    };
    let (_dir, project) = fixture_copy("lsp-editor");
    let answers = drive(nvim, &project);
    assert_eq!(answers["encoding"], "utf-16", "Neovim 0.7 offers no other");
    assert_eq!(answers["typeHierarchyProvider"], true);
    assert_eq!(answers["prepared"][0]["data"]["id"], "src/util.ts:format");

    // `format` is called on line 6 of main.ts and on line 5 of report.ts, after a string
    // with non-ASCII characters: the column counts UTF-16 units, not bytes.
    let format_in_report = utf16_column(&project, "src/report.ts", 4, "format(");
    assert_ne!(
        format_in_report,
        std::fs::read_to_string(project.join("src/report.ts"))
            .expect("report.ts")
            .lines()
            .nth(4)
            .and_then(|l| l.find("format("))
            .expect("format") as u64,
        "the fixture must put non-ASCII text before the call"
    );
    let expected = vec![
        ("src/main.ts:main".to_owned(), vec![(5, 14, 20)]),
        (
            "src/report.ts:report".to_owned(),
            vec![(4, format_in_report, format_in_report + 6)],
        ),
    ];
    assert_eq!(calls(&answers, "incoming", "from"), expected);

    // Asked from a call of `report` (in demo), the hierarchy is report's own.
    assert_eq!(
        answers["report_item"][0]["data"]["id"],
        "src/report.ts:report"
    );
    let outgoing: Vec<String> = calls(&answers, "outgoing", "to")
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(
        outgoing,
        [
            "src/report.ts:sum",
            "src/util.ts:format",
            "src/util.ts:label"
        ]
    );

    assert_eq!(ids(&answers, "supertypes"), ["src/shapes.ts:Base"]);
    assert_eq!(
        ids(&answers, "subtypes"),
        ["src/shapes.ts:Square", "src/shapes.ts:Circle"]
    );

    // References of `label`: its declaration (asked for) and its call in report.ts.
    let references: Vec<(String, u64)> = answers["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|l| {
            let file = l["uri"]
                .as_str()
                .expect("uri")
                .rsplit('/')
                .next()
                .expect("name");
            (
                file.to_owned(),
                l["range"]["start"]["line"].as_u64().expect("line"),
            )
        })
        .collect();
    assert_eq!(
        references,
        [("report.ts".to_owned(), 4), ("util.ts".to_owned(), 4)]
    );
    let symbols: Vec<&str> = answers["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| s["name"].as_str().expect("name"))
        .collect();
    assert_eq!(symbols, ["format"]);

    // The unsaved function in main.ts calls `format`: answered before any save.
    assert_eq!(answers["modified"], true, "the buffer was never written");
    let after: Vec<String> = calls(&answers, "after_edit", "from")
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(
        after,
        [
            "src/main.ts:main",
            "src/main.ts:extra",
            "src/report.ts:report"
        ]
    );
    let on_disk = std::fs::read_to_string(project.join("src/main.ts")).expect("main.ts");
    assert!(!on_disk.contains("extra"), "the edit reached the disk");
}
