//! Helpers shared by tsgraph's end-to-end tests: fixture locations, golden files, and the
//! facts of a query result rebuilt from its JSON and from its TOON (the check that TOON
//! loses no fact, also run by `token-bench`).

pub mod facts;

use std::path::{Path, PathBuf};

/// The folder of the fixture project `name` (under `tests/fixtures/`).
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// Compares `actual` with the golden file `tests/golden/<name>`; with `UPDATE_GOLDEN=1` in
/// the environment, writes `actual` there instead.
pub fn check_golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create golden folder");
        }
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|err| {
        panic!(
            "{}: {err}; run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "{} differs (run with UPDATE_GOLDEN=1 to accept):\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        );
    }
}

/// Copies the folder `from` into `to` (created), files and subfolders, skipping any `.tsgraph`
/// store folder; symbolic links are not expected in fixtures and are skipped.
pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() && entry.file_name() != ".tsgraph" {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// A copy of the fixture project `name` in a new temporary folder, at `<temp>/project`.
pub fn fixture_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let project = dir.path().join("project");
    copy_dir(&fixture(name), &project).expect("copy the fixture");
    (dir, project)
}

/// The golden-file extension of an output format.
pub fn extension(format: tsgraph::Format) -> &'static str {
    match format {
        tsgraph::Format::Toon => "toon",
        tsgraph::Format::Text => "txt",
        tsgraph::Format::Json => "json",
        tsgraph::Format::Mermaid => "mmd",
    }
}

/// A number from the environment variable `name` (a test's size knob), or `default` when it
/// is unset or not a number.
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs the CLI in-process with `args` (the program name is added) and `--project project`
/// after them: its exit code, standard output and standard error.
pub fn cli_in(project: &Path, args: &[&str]) -> (u8, String, String) {
    let mut argv: Vec<std::ffi::OsString> = vec!["tsgraph".into()];
    argv.extend(args.iter().map(std::ffi::OsString::from));
    argv.push("--project".into());
    argv.push(project.into());
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = tsgraph_cli::run(
        argv,
        &mut tsgraph_cli::Streams {
            stdin: &mut std::io::empty(),
            stdout: &mut stdout,
            stderr: &mut stderr,
        },
    );
    (
        code,
        String::from_utf8(stdout).expect("UTF-8 stdout"),
        String::from_utf8(stderr).expect("UTF-8 stderr"),
    )
}

/// The fixture `name` indexed afresh into a store in a temporary folder (kept alive by the
/// returned guard).
pub fn indexed_fixture(name: &str) -> (tempfile::TempDir, tsgraph::Project) {
    let dir = tempfile::tempdir().expect("temp dir");
    let project =
        tsgraph::Project::open(fixture(name), Some(&dir.path().join("graph.redb"))).expect("open");
    project.index(&Default::default()).expect("index");
    (dir, project)
}

/// The edges of one kind, `SOURCE -> TARGET`, of the fixture `name` indexed afresh.
pub fn fixture_edges(name: &str, kind: &str) -> std::collections::BTreeSet<String> {
    let (_dir, project) = indexed_fixture(name);
    edges_of(&project, kind)
}

/// The edges of one kind of an indexed project, as `SOURCE -> TARGET`, read from its JSON-lines
/// export.
pub fn edges_of(project: &tsgraph::Project, kind: &str) -> std::collections::BTreeSet<String> {
    edge_rows(project, kind)
        .into_iter()
        .map(|v| {
            format!(
                "{} -> {}",
                v["source"].as_str().unwrap_or(""),
                v["target"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// The exported edges of one kind, as the JSON objects `export` writes.
pub fn edge_rows(project: &tsgraph::Project, kind: &str) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    project.export(&mut out).expect("export");
    String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("JSON line"))
        .filter(|v| v["type"] == "edge" && v["kind"] == kind)
        .collect()
}

/// The query name a request's outputs carry.
pub fn query_name(request: &tsgraph::QueryRequest) -> &'static str {
    match request {
        tsgraph::QueryRequest::Callers { .. } => "callers",
        tsgraph::QueryRequest::Callees { .. } => "callees",
        tsgraph::QueryRequest::Impact { .. } => "impact",
        tsgraph::QueryRequest::Path { .. } => "path",
        tsgraph::QueryRequest::Neighbors { .. } => "neighbors",
        tsgraph::QueryRequest::Search { .. } => "search",
        tsgraph::QueryRequest::Topic { .. } => "topic",
        tsgraph::QueryRequest::FileSymbols { .. } => "file-symbols",
        tsgraph::QueryRequest::Deps { .. } => "deps",
        tsgraph::QueryRequest::ChangeImpact { .. } => "change-impact",
    }
}

/// Runs `request` in every format and compares each output with its golden file; the facts
/// rebuilt from the TOON output must be those of the JSON output (TOON loses nothing).
pub fn golden(
    project: &tsgraph::Project,
    fixture: &str,
    name: &str,
    request: &tsgraph::QueryRequest,
) -> [String; 4] {
    let texts = tsgraph::Format::ALL.map(|format| {
        let mut out = Vec::new();
        project.query(request, format, &mut out).expect("query");
        let text = String::from_utf8(out).expect("UTF-8");
        check_golden(&format!("{fixture}/{name}.{}", extension(format)), &text);
        text
    });
    let query = query_name(request);
    let from_toon = facts::from_toon(&texts[0], query).expect("facts from TOON");
    let from_json = facts::from_json(&texts[2]).expect("facts from JSON");
    assert_eq!(
        from_toon, from_json,
        "{fixture}/{name}: TOON and JSON carry different facts"
    );
    texts
}
