//! A sync skips the walk while the folders and ignore files are as the last whole walk left
//! them (an edit inside a file moves neither), and walks whole when they are not: files added
//! and removed are found either way, and the store ends as a fresh index.

use std::path::Path;
use std::time::{Duration, SystemTime};

use tsgraph_engine::Store;
use tsgraph_indexer::{SyncSummary, index_project, sync_project};

use crate::resume::{assert_fresh, options};

/// Puts the times of every folder and hidden file under `root` a minute back, as if the
/// project's layout had settled long ago.
fn settle(root: &Path) {
    let back = SystemTime::now() - Duration::from_secs(60);
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                let file = std::fs::File::options().append(true).open(&path);
                file.and_then(|f| f.set_modified(back)).expect("set time");
            }
        }
        let opened = std::fs::File::open(&folder);
        opened.and_then(|f| f.set_modified(back)).expect("set time");
    }
}

fn sync(root: &Path, store: &Store) -> SyncSummary {
    sync_project(root, store, &options()).expect("sync")
}

#[test]
fn a_sync_skips_the_walk_only_while_the_layout_is_as_the_last_walk_left_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src/deep")).expect("folders");
    std::fs::write(
        root.join("src/a.ts"),
        "export function a(): number { return 1; }\n",
    )
    .expect("write");
    std::fs::write(
        root.join("src/deep/b.ts"),
        "import { a } from '../a';\nexport const b = a();\n",
    )
    .expect("write");
    std::fs::write(root.join(".gitignore"), "out/\n").expect("write");
    settle(&root);
    let store = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
    index_project(&root, &store, &options()).expect("first index");

    // An edit inside a file: the walk is skipped and the edit found.
    let a = root.join("src/a.ts");
    let text = std::fs::read_to_string(&a).expect("read");
    std::fs::write(
        &a,
        format!("{text}export function c(): number {{ return 3; }}\n"),
    )
    .expect("edit");
    let synced = sync(&root, &store);
    assert!(synced.walk_skipped);
    assert_eq!(synced.changed, ["src/a.ts"]);
    assert_fresh(dir.path(), &root, &store);

    // A file added: its folder's time moved, the walk is whole and finds it.
    std::fs::write(root.join("src/deep/n.ts"), "export const n = 1;\n").expect("write");
    let synced = sync(&root, &store);
    assert!(!synced.walk_skipped);
    assert_eq!(synced.added, ["src/deep/n.ts"]);
    assert_fresh(dir.path(), &root, &store);
    // Too lately for a listing: the next sync walks whole too.
    assert!(!sync(&root, &store).walk_skipped);

    // Settled again: one whole walk lists it, the next sync skips the walk.
    settle(&root);
    assert!(!sync(&root, &store).walk_skipped);
    let synced = sync(&root, &store);
    assert!(synced.walk_skipped && synced.is_noop());

    // An ignore file edited in place (its folder's time stays): the walk is whole, and the
    // files it now ignores are gone from the store.
    std::fs::write(root.join(".gitignore"), "out/\ndeep/\n").expect("write");
    let synced = sync(&root, &store);
    assert!(!synced.walk_skipped);
    assert_eq!(synced.removed, ["src/deep/b.ts", "src/deep/n.ts"]);
    assert_fresh(dir.path(), &root, &store);
}
