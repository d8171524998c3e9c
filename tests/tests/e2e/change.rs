//! `impact --diff` on a temporary git repository: added, edited (body), signature-changed,
//! renamed and removed functions, measured against HEAD, a revision and a range, through the
//! CLI (the MCP tool is tested in `mcp.rs`).

use std::path::Path;
use std::process::Command;
use tsgraph_tests::cli_in as cli;

use serde_json::Value;

fn git(root: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(status.status.success(), "git {args:?}: {status:?}");
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

const MATH_BEFORE: &str = "\
export function add(a: number, b: number): number {
  return a + b;
}

export function scale(x: number): number {
  return x * 2;
}

export function oldName(s: string): string {
  return s.trim();
}

export function gone(): number {
  return 1;
}
";

const MATH_AFTER: &str = "\
export function add(a: number, b: number): number {
  const sum = a + b;
  return sum;
}

export function scale(x: number, factor: number): number {
  return x * factor;
}

export function newName(s: string): string {
  return s.trim();
}

export function fresh(): boolean {
  return true;
}
";

const APP_BEFORE: &str = "\
import { add, scale, oldName, gone } from \"./math\";

export function main(): number {
  return add(1, 2) + scale(3) + oldName(\"x\").length + gone();
}

export function outer(): number {
  return main();
}
";

/// A committed project, then the edits of `MATH_AFTER` in the working tree (app.ts still
/// names the removed functions), indexed at the working tree.
pub(crate) fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "package.json",
        r#"{"name":"change-app","version":"1.0.0"}"#,
    );
    write(
        root,
        "tsconfig.json",
        r#"{"compilerOptions":{"strict":true},"include":["src"]}"#,
    );
    write(root, "src/math.ts", MATH_BEFORE);
    write(root, "src/app.ts", APP_BEFORE);
    git(root, &["init", "-q"]);
    git(root, &["add", "."]);
    git(root, &["commit", "-qm", "before"]);
    write(root, "src/math.ts", MATH_AFTER);
    dir
}

fn change_json(root: &Path, diff: &[&str]) -> Value {
    let mut args = vec!["impact", "--format", "json"];
    args.extend_from_slice(diff);
    let (code, out, err) = cli(root, &args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// (changed symbol ID, change kind, dependent IDs) of each section.
fn sections(answer: &Value) -> Vec<(String, String, Vec<String>)> {
    answer["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| {
            let nodes = s["nodes"].as_array().expect("nodes");
            (
                s["target"]["id"].as_str().expect("id").to_owned(),
                s["change"].as_str().expect("change").to_owned(),
                nodes
                    .iter()
                    .map(|n| n["id"].as_str().expect("present").to_owned())
                    .collect(),
            )
        })
        .collect()
}

fn assert_the_change(answer: &Value) {
    let sections = sections(answer);
    let kinds: Vec<(&str, &str)> = sections
        .iter()
        .map(|(id, kind, _)| (id.as_str(), kind.as_str()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("src/math.ts:add", "body"),
            ("src/math.ts:scale", "signature"),
            ("src/math.ts:newName", "added"),
            ("src/math.ts:fresh", "added"),
        ],
        "{answer}"
    );
    // add's dependents: main calls it, outer calls main.
    let add = &sections[0].2;
    assert!(add.contains(&"src/app.ts:main".to_owned()), "{add:?}");
    assert!(add.contains(&"src/app.ts:outer".to_owned()), "{add:?}");
    let removed = answer["removed"].as_array().expect("removed");
    let removed: Vec<(&str, &Value)> = removed
        .iter()
        .map(|r| (r["id"].as_str().expect("present"), &r["renamedTo"]))
        .collect();
    assert_eq!(
        removed,
        vec![
            ("src/math.ts:oldName", &Value::from("src/math.ts:newName")),
            ("src/math.ts:gone", &Value::Null),
        ],
        "{answer}"
    );
    // app.ts still imports both removed names (its calls of them are calls of an import
    // with no declaration behind it, which the indexer does not keep as unresolved sites).
    let named: Vec<(&str, &str, &str)> = answer["namedBy"]
        .as_array()
        .expect("namedBy")
        .iter()
        .map(|p| {
            (
                p["symbol"].as_str().expect("present"),
                p["file"].as_str().expect("present"),
                p["how"].as_str().expect("present"),
            )
        })
        .collect();
    for symbol in ["src/math.ts:gone", "src/math.ts:oldName"] {
        assert!(
            named.contains(&(symbol, "src/app.ts", "import")),
            "{symbol}: {named:?}"
        );
    }
    assert_eq!(answer["complete"], true);
}

#[test]
fn the_working_tree_against_head_a_revision_and_a_range() {
    let dir = repository();
    let root = dir.path();
    let (code, _, err) = cli(root, &["index"]);
    assert_eq!(code, 0, "{err}");
    let head = change_json(root, &["--diff"]);
    assert_the_change(&head);
    assert_eq!(head["base"], "HEAD");

    // Committed, the same change is the working tree against HEAD~1, and HEAD~1..HEAD.
    git(root, &["commit", "-qam", "after"]);
    let since = change_json(root, &["--diff", "HEAD~1"]);
    assert_the_change(&since);
    assert_eq!(since["base"], "HEAD~1");
    let range = change_json(root, &["--diff", "HEAD~1..HEAD"]);
    assert_the_change(&range);
    assert_eq!(range["base"], "HEAD~1..HEAD");
    // Nothing uncommitted: nothing changed.
    let none = change_json(root, &["--diff"]);
    assert_eq!(none["sections"].as_array().map(Vec::len), Some(0), "{none}");
    assert_eq!(none["removed"].as_array().map(Vec::len), Some(0));
}

#[test]
fn top_level_code_and_the_other_formats() {
    let dir = repository();
    let root = dir.path();
    // An import added at the top of app.ts: top-level code of that file.
    let app = format!("import {{ fresh }} from \"./math\";\n{APP_BEFORE}");
    write(root, "src/app.ts", &app);
    let (code, _, err) = cli(root, &["index"]);
    assert_eq!(code, 0, "{err}");
    let answer = change_json(root, &["--diff"]);
    let sections = sections(&answer);
    assert!(
        sections
            .iter()
            .any(|(id, kind, _)| id == "src/app.ts" && kind == "top-level"),
        "{sections:?}"
    );
    let (code, toon, err) = cli(root, &["impact", "--diff"]);
    assert_eq!(code, 0, "{err}");
    assert!(toon.starts_with("changeImpact: HEAD\n"), "{toon}");
    assert!(
        toon.contains("removed[2]{id,kind,lines,renamedTo}:"),
        "{toon}"
    );
    assert!(toon.contains("change: signature"), "{toon}");
    let (_, text, _) = cli(root, &["impact", "--diff", "--format", "text"]);
    assert!(
        text.contains("impact of the changes against HEAD"),
        "{text}"
    );
    assert!(
        text.contains("removed: src/math.ts:oldName (Function, was lines 9-11), probably renamed to src/math.ts:newName"),
        "{text}"
    );
    assert!(
        text.contains("still named at src/app.ts:1 (import)"),
        "{text}"
    );
    assert!(text.contains("[signature changed]"), "{text}");
    let (_, mermaid, _) = cli(root, &["impact", "--diff", "--format", "mermaid"]);
    assert!(
        mermaid.contains("%% removed: src/math.ts:gone"),
        "{mermaid}"
    );
}

#[test]
fn bad_revisions_and_folders_outside_git_are_clear_errors() {
    let dir = repository();
    let root = dir.path();
    let (code, _, err) = cli(root, &["impact", "--diff", "no-such-rev"]);
    assert_eq!(code, tsgraph_cli::EXIT_ERROR, "{err}");
    assert!(err.contains("git diff"), "{err}");
    assert!(err.contains("no-such-rev"), "{err}");
    let plain = tempfile::tempdir().expect("tempdir");
    write(plain.path(), "src/a.ts", "export function a() {}\n");
    write(plain.path(), "package.json", r#"{"name":"plain"}"#);
    let (code, _, err) = cli(plain.path(), &["impact", "--diff"]);
    assert_eq!(code, tsgraph_cli::EXIT_ERROR, "{err}");
    assert!(err.contains("git diff"), "{err}");
    // A revision git would read as an option is refused before git runs.
    let evil = root.join("written-by-git");
    let flag = format!("--diff=--output={}", evil.display());
    let (code, _, err) = cli(root, &["impact", &flag]);
    assert_eq!(code, tsgraph_cli::EXIT_ERROR, "{err}");
    assert!(!evil.exists(), "git wrote {}", evil.display());
    let (code, _, err) = cli(root, &["impact", "--diff", "HEAD...HEAD"]);
    assert_eq!(code, tsgraph_cli::EXIT_ERROR, "{err}");
    assert!(err.contains("A..B"), "{err}");
    // A symbol and --diff together is a usage error.
    let (code, _, _) = cli(root, &["impact", "add", "--diff"]);
    assert_eq!(code, tsgraph_cli::EXIT_USAGE);
}

#[test]
fn a_moved_file_removes_its_declarations_under_their_old_ids() {
    let dir = repository();
    let root = dir.path();
    git(root, &["commit", "-qam", "after"]);
    git(root, &["mv", "src/app.ts", "src/main.ts"]);
    let (code, _, err) = cli(root, &["index"]);
    assert_eq!(code, 0, "{err}");
    let answer = change_json(root, &["--diff"]);
    let removed: Vec<(&str, &str)> = answer["removed"]
        .as_array()
        .expect("removed")
        .iter()
        .map(|r| {
            (
                r["id"].as_str().expect("id"),
                r["renamedTo"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        removed,
        vec![
            ("src/app.ts:main", "src/main.ts:main"),
            ("src/app.ts:outer", "src/main.ts:outer"),
        ],
        "{answer}"
    );
}
