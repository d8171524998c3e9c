//! The IDE edit API: every edit's reported delta is exactly the difference between a full
//! index of the text before it and a full index of the text after it.

#![allow(clippy::unwrap_used)] // Test helpers unwrap: a failure is the test failing.

use std::path::Path;

use tsgraph::indexer::TextEdit;
use tsgraph::{IndexOptions, LiveProject, Project};
use tsgraph_engine::{EdgeSpec, GraphDelta, NodeRecord, Store};

/// Every node and edge of the store at `db`, owned.
fn dump(db: &Path) -> (Vec<NodeRecord>, Vec<EdgeSpec>) {
    let store = Store::open_read_only(db).unwrap();
    let snapshot = store.snapshot().unwrap();
    let id_of = |key| {
        let node = snapshot.node(key).unwrap().unwrap();
        node.view().unwrap().id().to_owned()
    };
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    for key in snapshot.node_keys().unwrap() {
        let node = snapshot.node(key).unwrap().unwrap();
        let record = node.record().unwrap();
        for edge in snapshot.out_edges(key).unwrap().edges().unwrap() {
            edges.push(EdgeSpec {
                source: record.id.clone(),
                target: id_of(edge.other()),
                kind: edge.kind(),
                facts: edge.facts().unwrap(),
            });
        }
        nodes.push(record);
    }
    // Keys differ between stores; IDs order both sides the same way.
    nodes.sort_by(|a, b| a.id.cmp(&b.id));
    edges.sort_by(|a, b| edge_order(a).cmp(&edge_order(b)));
    (nodes, edges)
}

fn edge_order(edge: &EdgeSpec) -> (&str, u8, &str) {
    (&edge.source, edge.kind.as_u8(), &edge.target)
}

/// A full index of the folder `mirror` into a new store `db`, dumped.
fn fresh_index(mirror: &Path, db: &Path) -> (Vec<NodeRecord>, Vec<EdgeSpec>) {
    let project = Project::open(mirror, Some(db)).unwrap();
    project.index(&IndexOptions::default()).unwrap();
    drop(project);
    dump(db)
}

/// The delta in a canonical order, for comparison.
fn sorted(mut delta: GraphDelta) -> GraphDelta {
    for nodes in [
        &mut delta.nodes_added,
        &mut delta.nodes_removed,
        &mut delta.nodes_changed,
    ] {
        nodes.sort_by(|a, b| a.id.cmp(&b.id));
    }
    for edges in [
        &mut delta.edges_added,
        &mut delta.edges_removed,
        &mut delta.edges_changed,
    ] {
        edges.sort_by(|a, b| edge_order(a).cmp(&edge_order(b)));
    }
    delta
}

/// The one edit an editor would send to turn `old` into `new`: the span between their
/// common prefix and suffix.
fn edit_between(old: &str, new: &str) -> TextEdit {
    let prefix = old
        .char_indices()
        .zip(new.chars())
        .find(|((_, a), b)| a != b)
        .map_or(old.len().min(new.len()), |((at, _), _)| at);
    let prefix = (0..=prefix)
        .rev()
        .find(|&at| old.is_char_boundary(at) && new.is_char_boundary(at))
        .unwrap_or(0);
    let suffix = old[prefix..]
        .chars()
        .rev()
        .zip(new[prefix..].chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum::<usize>();
    TextEdit::bytes(prefix..old.len() - suffix, &new[prefix..new.len() - suffix])
}

#[derive(Debug)]
enum Step {
    /// Replace `from` with `to` (first occurrence) in a file, as an editor's edit.
    Replace(&'static str, &'static str, &'static str),
    /// Open a file that is not on disk with this text.
    Open(&'static str, &'static str),
    /// Close a file the editor holds.
    Close(&'static str),
}

#[test]
fn each_edit_reports_the_difference_of_two_full_indexes() {
    let (dir, project) = tsgraph_tests::fixture_copy("basic");
    let mirror = dir.path().join("mirror");
    tsgraph_tests::copy_dir(&project, &mirror).unwrap();
    let live = LiveProject::open(&project, None, IndexOptions::default()).unwrap();
    let mut before = fresh_index(&mirror, &dir.path().join("fresh-0.redb"));
    assert_eq!(
        before,
        dump(live.store_path()),
        "the live store starts as a full index"
    );

    let steps = [
        // A body-only change: one more call.
        Step::Replace(
            "src/db/user.ts",
            "  validate(user);\n",
            "  validate(user);\n  findUser(user.id);\n",
        ),
        // What a file exports changes: its importers are re-linked.
        Step::Replace(
            "src/db/client.ts",
            "export ",
            "export function deleteRow(table: string, id: string): void {\n  queryRow(table, id);\n}\n\nexport ",
        ),
        Step::Replace(
            "src/db/user.ts",
            "import { insertRow, queryRow }",
            "import { deleteRow, insertRow, queryRow }",
        ),
        Step::Replace(
            "src/db/user.ts",
            "  insertRow(\"users\", user);\n",
            "  insertRow(\"users\", user);\n  deleteRow(\"users\", user.id);\n",
        ),
        // Lines move: every later node of the file changes its range.
        Step::Replace(
            "src/db/user.ts",
            "import type",
            "// a comment\n\nimport type",
        ),
        // A rename, declaration and call together.
        Step::Replace("src/db/user.ts", "function validate(", "function check("),
        Step::Replace("src/db/user.ts", "  validate(user);", "  check(user);"),
        // A file only the editor has.
        Step::Open(
            "src/audit.ts",
            "import { saveUser } from \"./db/user\";\n\nexport function auditTrail() {\n  saveUser({ id: \"2\", name: \"Grace\" });\n}\n",
        ),
        // A syntax error half-typed, then finished.
        Step::Replace(
            "src/audit.ts",
            "export function auditTrail() {",
            "export function auditTrail( {",
        ),
        Step::Replace(
            "src/audit.ts",
            "export function auditTrail( {",
            "export function auditTrail() {",
        ),
        // Closing a file that was never saved takes it out of the graph.
        Step::Close("src/audit.ts"),
        // Closing a saved file: its text on disk counts again.
        Step::Close("src/db/user.ts"),
    ];
    for (number, step) in steps.iter().enumerate() {
        let outcome = match *step {
            Step::Replace(path, from, to) => {
                let old = std::fs::read_to_string(mirror.join(path)).unwrap();
                assert!(old.contains(from), "step {number}: {from:?} not in {path}");
                let new = old.replacen(from, to, 1);
                std::fs::write(mirror.join(path), &new).unwrap();
                live.apply_edit(path, &[edit_between(&old, &new)]).unwrap()
            }
            Step::Open(path, text) => {
                std::fs::write(mirror.join(path), text).unwrap();
                live.set_file_text(path, text).unwrap()
            }
            Step::Close(path) => {
                let on_disk = std::fs::read(project.join(path));
                match on_disk {
                    Ok(bytes) => std::fs::write(mirror.join(path), bytes).unwrap(),
                    Err(_) => std::fs::remove_file(mirror.join(path)).unwrap(),
                }
                live.close_file(path).unwrap()
            }
        };
        let after = fresh_index(
            &mirror,
            &dir.path().join(format!("fresh-{}.redb", number + 1)),
        );
        let expected = sorted(GraphDelta::between(
            before.0.clone(),
            before.1.clone(),
            after.0.clone(),
            after.1.clone(),
        ));
        assert!(
            !expected.is_empty(),
            "step {number} ({step:?}) changes the graph"
        );
        assert_eq!(sorted(outcome.delta), expected, "step {number}: {step:?}");
        // The store the queries read holds exactly the full index's graph.
        assert_eq!(
            dump(live.store_path()),
            after,
            "step {number}: the stored graph"
        );
        before = after;
    }
}

/// A session's edits leave the resolution the store keeps behind; dropping the live project
/// keeps its own, so the next process resumes from it (reading a few summaries, not all) and
/// still ends as a full index.
#[test]
fn a_dropped_live_project_leaves_a_resolution_the_next_process_resumes_from() {
    let (dir, project) = tsgraph_tests::fixture_copy("basic");
    let live = LiveProject::open(&project, None, IndexOptions::default()).unwrap();
    let user = project.join("src/db/user.ts");
    let text = std::fs::read_to_string(&user).unwrap();
    let edited = text.replace(
        "  validate(user);\n",
        "  validate(user);\n  validate(user);\n",
    );
    assert_ne!(text, edited, "the fixture has the line");
    live.set_file_text("src/db/user.ts", &edited).unwrap();
    std::fs::write(&user, &edited).unwrap();
    let db = live.store_path().to_path_buf();
    drop(live);
    // Another file changes on disk; a new process syncs.
    let client = project.join("src/db/client.ts");
    let mut text = std::fs::read_to_string(&client).unwrap();
    text.push_str("// edited\n");
    std::fs::write(&client, text).unwrap();
    let synced = Project::open(&project, Some(&db))
        .unwrap()
        .sync(&IndexOptions::default())
        .unwrap();
    assert_eq!(synced.changed, ["src/db/client.ts"]);
    assert!(
        synced.summaries_read < synced.checked,
        "resumed: read {} of {}",
        synced.summaries_read,
        synced.checked
    );
    let mirror = dir.path().join("mirror");
    tsgraph_tests::copy_dir(&project, &mirror).unwrap();
    std::fs::remove_dir_all(mirror.join(".tsgraph")).ok();
    assert_eq!(
        dump(&db),
        fresh_index(&mirror, &dir.path().join("fresh.redb"))
    );
}
