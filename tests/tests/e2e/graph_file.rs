//! The mapped graph file beside the store: queries read it while it serves the store's state
//! and answer exactly as redb's tables do; a write makes it stale (queries read the tables)
//! until the writer builds the next; a damaged file is an error, never a panic; a crash at any
//! step of its commit order leaves a store that answers, and leftovers are swept.

use std::path::{Path, PathBuf};

use tsgraph::{
    Direction, Format, NeighborOptions, PathOptions, Project, QueryRequest, SymbolArg,
    TraversalOptions,
};
use tsgraph_tests::fixture_copy;

use crate::process::{output, tsgraph};

fn store_folder(project: &Path) -> PathBuf {
    project.join(".tsgraph")
}

/// The graph files (not their stamps) in the store's folder, by name.
fn graph_files(project: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(store_folder(project))
        .expect("store folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.contains(".graph"))
        .collect();
    names.sort();
    names
}

/// Every node ID of the store.
fn node_ids(project: &Project) -> Vec<String> {
    let snapshot = project.snapshot().expect("snapshot");
    let mut ids = Vec::new();
    for key in snapshot.node_keys().expect("keys") {
        let guard = snapshot.node(key).expect("read").expect("node");
        ids.push(guard.view().expect("view").id().to_owned());
    }
    ids
}

/// Callers, callees, impact and neighbors of every node, paths between neighbours in the
/// list, and a search, as JSON: the answers compared across the two read paths.
fn answers(project: &Project, ids: &[String]) -> String {
    let mut out = Vec::new();
    let traversal = TraversalOptions::default();
    for (i, id) in ids.iter().enumerate() {
        let symbol = SymbolArg::new(id.clone());
        let requests = [
            QueryRequest::Callers {
                symbol: symbol.clone(),
                options: traversal,
            },
            QueryRequest::Callees {
                symbol: symbol.clone(),
                options: traversal,
            },
            QueryRequest::Impact {
                symbol: symbol.clone(),
                options: traversal,
            },
            QueryRequest::Neighbors {
                symbol: symbol.clone(),
                options: NeighborOptions {
                    distance: 2,
                    direction: Direction::Both,
                    max_nodes: 500,
                    edge_kinds: None,
                },
            },
            QueryRequest::Path {
                from: symbol,
                to: SymbolArg::new(ids[(i + 7) % ids.len()].clone()),
                options: PathOptions::default(),
            },
        ];
        for request in requests {
            // A symbol error (a path with no route) is an answer too.
            if let Err(err) = project.query(&request, Format::Json, &mut out) {
                out.extend_from_slice(err.to_json().to_string().as_bytes());
            }
        }
    }
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn queries_read_the_graph_file_and_answer_exactly_as_the_tables_do() {
    let (_dir, root) = fixture_copy("basic");
    let project = Project::open(&root, None).expect("open");
    project.index(&Default::default()).expect("index");
    drop(project);
    assert_eq!(graph_files(&root).len(), 2, "the file and its stamp");

    let mapped = Project::open_read_only(&root, None).expect("open read-only");
    assert!(mapped.snapshot().expect("snapshot").is_mapped());
    let ids = node_ids(&mapped);
    assert!(ids.len() > 40, "{}", ids.len());
    let from_file = answers(&mapped, &ids);
    drop(mapped);

    for name in graph_files(&root) {
        std::fs::remove_file(store_folder(&root).join(name)).expect("remove");
    }
    let tables = Project::open_read_only(&root, None).expect("open read-only");
    assert!(!tables.snapshot().expect("snapshot").is_mapped());
    assert_eq!(node_ids(&tables), ids);
    let from_tables = answers(&tables, &ids);
    assert!(from_tables.len() > 10_000, "{}", from_tables.len());
    assert!(
        from_file == from_tables,
        "the two read paths answer differently"
    );
}

/// The answers of `project` read from redb's tables alone: its store file copied where no
/// graph file is (the copy names one, which is missing there, so reads go to the tables).
fn answers_from_the_tables(project: &Project, ids: &[String]) -> String {
    let copy = tempfile::tempdir().expect("temp dir");
    let store = copy.path().join("graph.redb");
    std::fs::copy(project.store().path(), &store).expect("copy the store");
    let tables = Project::open_read_only(project.root(), Some(&store)).expect("open the copy");
    assert!(!tables.snapshot().expect("snapshot").is_mapped());
    answers(&tables, ids)
}

#[test]
fn updates_go_to_the_overlay_and_answers_stay_those_of_the_tables() {
    let (_dir, root) = fixture_copy("basic");
    let project = Project::open(&root, None).expect("open");
    project.index(&Default::default()).expect("index");
    let first = graph_files(&root);
    assert_eq!(project.store().overlay_len().expect("overlay"), 0);

    // A commit that changes no node keeps the file serving, with nothing to overlay.
    project.store().set_meta("test", b"x").expect("set meta");
    assert!(project.snapshot().expect("snapshot").is_mapped());

    // Edits on disk, each synced: the file stays, the overlay grows, answers follow.
    let user = root.join("src/db/user.ts");
    let original = std::fs::read_to_string(&user).expect("read");
    let edits = [
        format!("{original}\nexport function addedOne() {{ return saveUser(null as any); }}\n"),
        format!(
            "{original}\nexport function addedOne() {{ return findUser(1); }}\nexport function addedTwo() {{ addedOne(); saveUser(null as any); }}\n"
        ),
        original.replace("saveUser", "storeUser"),
        format!("{original}\nexport function addedTwo() {{ return 2; }}\n"),
        original.clone(),
    ];
    for (round, text) in edits.iter().enumerate() {
        std::fs::write(&user, text).expect("edit");
        let synced = project.sync(&Default::default()).expect("sync");
        assert_eq!(synced.changed, ["src/db/user.ts"], "round {round}");
        let snapshot = project.snapshot().expect("snapshot");
        assert!(snapshot.is_mapped(), "round {round}");
        drop(snapshot);
        assert_eq!(
            graph_files(&root),
            first,
            "round {round}: the file is not rebuilt"
        );
        assert!(project.store().overlay_len().expect("overlay") > 0);
        let ids = node_ids(&project);
        let from_file = answers(&project, &ids);
        let from_tables = answers_from_the_tables(&project, &ids);
        assert!(
            from_file == from_tables,
            "round {round}: the answers differ"
        );
    }
    let snapshot = project.snapshot().expect("snapshot");
    assert!(
        snapshot
            .key_of("src/db/user.ts:addedTwo")
            .expect("lookup")
            .is_none()
    );
    assert!(
        snapshot
            .key_of("src/db/user.ts:saveUser")
            .expect("lookup")
            .is_some()
    );
    drop(snapshot);

    // A new graph file takes the overlay in; the old file goes.
    assert!(project.store().write_graph_file().expect("write"));
    assert_eq!(project.store().overlay_len().expect("overlay"), 0);
    let second = graph_files(&root);
    assert_eq!(second.len(), 2, "{second:?}");
    assert_ne!(first, second);
    let ids = node_ids(&project);
    assert_eq!(
        answers(&project, &ids),
        answers_from_the_tables(&project, &ids)
    );
    // Nothing changed since: nothing to write.
    assert!(!project.store().write_graph_file().expect("write"));
}

#[test]
fn a_damaged_graph_file_is_an_error_never_a_panic() {
    let (_dir, root) = fixture_copy("basic");
    let project = Project::open(&root, None).expect("open");
    project.index(&Default::default()).expect("index");
    let ids = node_ids(&project);
    drop(project);
    let names = graph_files(&root);
    let file = store_folder(&root).join(&names[0]);
    let stamp = store_folder(&root).join(&names[1]);
    let original = std::fs::read(&file).expect("read");
    let mut rng = fastrand::Rng::with_seed(7);
    let mut damages: Vec<Vec<u8>> = vec![original[..original.len() / 2].to_vec(), Vec::new()];
    for _ in 0..40 {
        let mut damaged = original.clone();
        let at = rng.usize(..damaged.len());
        damaged[at] ^= 1 << rng.u8(..8);
        damages.push(damaged);
    }
    for damaged in damages {
        std::fs::write(&file, &damaged).expect("damage");
        // The file changed behind tsgraph's back: its stamp no longer matches.
        let _ = std::fs::remove_file(&stamp);
        match Project::open_read_only(&root, None) {
            Ok(project) => {
                let mut out = Vec::new();
                let request = QueryRequest::Callers {
                    symbol: SymbolArg::new(ids[ids.len() / 2].clone()),
                    options: TraversalOptions::default(),
                };
                if let Err(err) = project.query(&request, Format::Json, &mut out) {
                    let message = err.to_string();
                    assert!(message.contains("corrupt"), "{message}");
                }
            }
            Err(err) => assert!(err.to_string().contains("corrupt"), "{err}"),
        }
    }
}

/// Each step of the commit order (`engine/src/store/mapped/place.rs`).
const CRASH_POINTS: [&str; 4] = [
    "graph-file-start",
    "graph-file-written",
    "graph-file-renamed",
    "graph-file-committed",
];

#[cfg(unix)]
#[test]
fn a_crash_at_any_step_of_the_commit_order_leaves_a_store_that_answers() {
    let symbol = "src/db/user.ts:saveUser";
    let (_reference_dir, reference) = fixture_copy("basic");
    let (run, expected, stderr) = output(tsgraph(&reference).args(["callers", symbol]));
    assert_eq!(run.status.code(), Some(0), "{stderr}");

    for point in CRASH_POINTS {
        let (_dir, root) = fixture_copy("basic");
        let (run, _, _) = output(
            tsgraph(&root)
                .arg("index")
                .env("TSGRAPH_CRASH_POINT", point),
        );
        assert!(
            !run.status.success(),
            "{point}: the crash point was not reached"
        );

        let (run, answer, stderr) = output(tsgraph(&root).args(["callers", symbol]));
        assert_eq!(run.status.code(), Some(0), "{point}: {stderr}");
        assert_eq!(answer, expected, "{point}");

        // The next writer finishes the job and sweeps what the crash left behind.
        let (run, _, stderr) = output(tsgraph(&root).arg("index"));
        assert_eq!(run.status.code(), Some(0), "{point}: {stderr}");
        let files = graph_files(&root);
        assert_eq!(files.len(), 2, "{point}: {files:?}");
        assert!(
            files.iter().all(|name| !name.ends_with(".tmp")),
            "{files:?}"
        );
        let project = Project::open_read_only(&root, None).expect("open");
        assert!(project.snapshot().expect("snapshot").is_mapped(), "{point}");
        let (_, answer, _) = output(tsgraph(&root).args(["callers", symbol]));
        assert_eq!(answer, expected, "{point}");
    }
}

#[test]
fn a_named_file_that_is_gone_is_built_again_by_the_next_sync() {
    let (_dir, root) = fixture_copy("basic");
    let project = Project::open(&root, None).expect("open");
    project.index(&Default::default()).expect("index");
    for name in graph_files(&root) {
        std::fs::remove_file(store_folder(&root).join(name)).expect("remove");
    }
    drop(project);
    let reopened = Project::open(&root, None).expect("reopen");
    assert!(!reopened.snapshot().expect("snapshot").is_mapped());
    reopened.sync(&Default::default()).expect("sync");
    assert!(reopened.snapshot().expect("snapshot").is_mapped());
    assert_eq!(graph_files(&root).len(), 2);
}

/// Appends a function that calls `saveUser` to the fixture's `src/db/user.ts`.
fn append_caller(root: &Path, name: &str) {
    let user = root.join("src/db/user.ts");
    let text = std::fs::read_to_string(&user).expect("read");
    std::fs::write(
        &user,
        format!("{text}\nexport function {name}() {{ return saveUser(null as any); }}\n"),
    )
    .expect("write");
}

#[test]
fn a_file_built_beside_the_writer_carries_the_edits_committed_meanwhile() {
    let (_dir, root) = fixture_copy("basic");
    let project = Project::open(&root, None).expect("open");
    project.index(&Default::default()).expect("index");
    append_caller(&root, "firstCaller");
    project.sync(&Default::default()).expect("sync");

    // Built from a read-only handle at this state...
    let reader = tsgraph::engine::Store::open_read_only(project.store().path()).expect("reader");
    let built = reader.build_graph_file_aside().expect("build aside");
    drop(reader);
    // ...while the writer commits another edit (into the current file's overlay)...
    append_caller(&root, "secondCaller");
    project.sync(&Default::default()).expect("sync");
    // ...then named: the edit since stays in the new file's overlay.
    assert!(project.store().name_graph_file(built).expect("name"));
    assert!(project.store().overlay_len().expect("overlay") > 0);
    assert_eq!(graph_files(&root).len(), 2, "the old file is swept");
    let snapshot = project.snapshot().expect("snapshot");
    assert!(snapshot.is_mapped());
    for id in ["src/db/user.ts:firstCaller", "src/db/user.ts:secondCaller"] {
        assert!(snapshot.key_of(id).expect("lookup").is_some(), "{id}");
    }
    drop(snapshot);
    let ids = node_ids(&project);
    assert!(answers(&project, &ids) == answers_from_the_tables(&project, &ids));
}

#[test]
fn a_file_built_with_no_file_named_is_dropped_if_a_commit_came_between() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store =
        tsgraph::engine::Store::open_or_create(dir.path().join("graph.redb")).expect("store");
    let mut batch = tsgraph::engine::GraphBatch::default();
    batch.add_file("a.ts", 1);
    batch.nodes.push(tsgraph::engine::NodeRecord::new(
        "a.ts",
        tsgraph::engine::NodeKind::File,
        "a.ts",
        "a.ts",
        1,
        1,
    ));
    store.replace_all(&batch).expect("write");
    let built = store.build_graph_file_aside().expect("build aside");
    // No file was named, so this commit leaves no overlay entry for the new file to carry.
    store.replace_all(&batch).expect("write again");
    assert!(!store.name_graph_file(built).expect("name"));
    assert!(!store.snapshot().expect("snapshot").is_mapped());
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".graph"))
        .collect();
    assert!(left.is_empty(), "the dropped file is deleted: {left:?}");
}

#[test]
fn a_live_project_builds_the_next_file_off_the_edit_path() {
    let (_dir, root) = fixture_copy("basic");
    let options = tsgraph::IndexOptions {
        // Every edit passes the bound.
        graph_file_bound: 0,
        ..Default::default()
    };
    let live = tsgraph::LiveProject::open(&root, None, options).expect("open");
    let first = graph_files(&root);
    let text = std::fs::read_to_string(root.join("src/db/user.ts")).expect("read");
    live.set_file_text(
        "src/db/user.ts",
        &format!("{text}\nexport function typedCaller() {{ return saveUser(null as any); }}\n"),
    )
    .expect("edit");
    let started = std::time::Instant::now();
    while (live.building_graph_file() || graph_files(&root) == first)
        && started.elapsed() < std::time::Duration::from_secs(20)
    {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let second = graph_files(&root);
    assert_ne!(second, first, "no new graph file was built");
    assert_eq!(second.len(), 2, "{second:?}");
    live.with_project(|project| {
        let snapshot = project.snapshot()?;
        assert!(snapshot.is_mapped());
        assert!(snapshot.key_of("src/db/user.ts:typedCaller")?.is_some());
        Ok(())
    })
    .expect("query");
}

#[test]
fn two_builders_of_one_state_leave_one_named_file() {
    let (_dir, root) = fixture_copy("basic");
    let project = Project::open(&root, None).expect("open");
    project.index(&Default::default()).expect("index");
    append_caller(&root, "laterCaller");
    project.sync(&Default::default()).expect("sync");
    let reader = tsgraph::engine::Store::open_read_only(project.store().path()).expect("reader");
    let first = reader.build_graph_file_aside().expect("first build");
    let second = reader.build_graph_file_aside().expect("second build");
    drop(reader);
    assert!(project.store().name_graph_file(first).expect("name"));
    // The same file, named already: it stays, whichever builder comes second.
    assert!(project.store().name_graph_file(second).expect("name again"));
    let files = graph_files(&root);
    assert_eq!(files.len(), 2, "{files:?}");
    let snapshot = project.snapshot().expect("snapshot");
    assert!(snapshot.is_mapped());
    assert!(
        snapshot
            .key_of("src/db/user.ts:laterCaller")
            .expect("lookup")
            .is_some()
    );
}
