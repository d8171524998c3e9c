//! The real `tsgraph` process: exit codes, and a reader that goes away is not an error.

use std::path::Path;
use std::process::{Command, Stdio};

fn tsgraph() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tsgraph"))
}

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/basic")
        .display()
        .to_string()
}

#[test]
fn exit_codes_are_zero_one_two_and_64() {
    let db = tempfile::tempdir().expect("temp dir");
    let db_path = db.path().join("graph.redb").display().to_string();
    let run = |args: &[&str]| {
        tsgraph()
            .args(["--project", &fixture()])
            .args(args)
            .args(["--db", &db_path])
            .output()
            .expect("tsgraph runs")
    };
    let ok = run(&["callers", "findUser"]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(
        String::from_utf8_lossy(&ok.stdout).starts_with("callers: \"src/db/user.ts:findUser\"")
    );
    let ambiguous = run(&["callers", "save"]);
    assert_eq!(ambiguous.status.code(), Some(2));
    assert!(ambiguous.stdout.is_empty());
    let missing = tsgraph()
        .args(["--project", "/no/such/dir", "callers", "x"])
        .output()
        .expect("tsgraph runs");
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&missing.stderr).lines().count(), 1);
    let usage = tsgraph().args(["callers"]).output().expect("tsgraph runs");
    assert_eq!(usage.status.code(), Some(64));
}

#[test]
fn the_project_is_found_from_a_folder_inside_it() {
    let db = tempfile::tempdir().expect("temp dir");
    let db_path = db.path().join("graph.redb").display().to_string();
    let inside = Path::new(&fixture()).join("src/db");
    let out = tsgraph()
        .current_dir(&inside)
        .args(["callers", "findUser", "--db", &db_path])
        .output()
        .expect("tsgraph runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // IDs are relative to the project root (the folder with package.json), not the cwd.
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("callers: \"src/db/user.ts:findUser\""),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_folder_outside_any_project_says_what_was_looked_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = tsgraph()
        .current_dir(dir.path())
        .args(["callers", "x"])
        .output()
        .expect("tsgraph runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("looked for tsconfig.json, package.json or .git"),
        "{stderr}"
    );
    assert!(!dir.path().join(".tsgraph").exists());
}

#[test]
fn a_closed_stdout_exits_zero() {
    let db = tempfile::tempdir().expect("temp dir");
    let db_path = db.path().join("graph.redb").display().to_string();
    let index = tsgraph()
        .args(["--project", &fixture(), "index", "--db", &db_path])
        .output()
        .expect("tsgraph runs");
    assert_eq!(index.status.code(), Some(0));
    let mut child = tsgraph()
        .args(["--project", &fixture(), "export", "--db", &db_path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tsgraph starts");
    // Close the read end before tsgraph writes anything, as `tsgraph export | head -0` would.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("tsgraph ends");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
