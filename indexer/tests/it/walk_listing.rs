//! A sync skips the walk while the folders and ignore files are as the last whole walk left
//! them (an edit inside a file moves neither), and walks whole when they are not: files added
//! and removed are found either way, and the store ends as a fresh index.

use std::path::Path;
use std::time::Duration;

use tsgraph_engine::Store;
use tsgraph_indexer::{SyncSummary, index_project, sync_project};

use crate::resume::{assert_fresh, options};

fn sync(root: &Path, store: &Store) -> SyncSummary {
    sync_project(root, store, &options()).expect("sync")
}

#[test]
fn a_sync_skips_the_walk_only_while_the_layout_is_as_the_last_walk_left_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src/deep")).expect("folders");
    let a = "export function a(): number { return 1; }\n";
    std::fs::write(root.join("src/a.ts"), a).expect("write");
    let b = "import { a } from '../a';\nexport const b = a();\n";
    std::fs::write(root.join("src/deep/b.ts"), b).expect("write");
    std::fs::write(root.join(".gitignore"), "out/\n").expect("write");
    // A walk is listed only once the folders and ignore files it reads have not changed
    // for a few seconds (`walk_listing.rs`); the project's layout settles here.
    std::thread::sleep(Duration::from_millis(5_200));
    let store = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
    index_project(&root, &store, &options()).expect("first index");

    // An edit inside a file: the walk is skipped and the edit found.
    let c = "export function c(): number { return 3; }\n";
    std::fs::write(root.join("src/a.ts"), format!("{a}{c}")).expect("edit");
    let synced = sync(&root, &store);
    assert!(synced.walk_skipped);
    assert_eq!(synced.changed, ["src/a.ts"]);
    assert_fresh(dir.path(), &root, &store);
    assert!(sync(&root, &store).walk_skipped);

    // An ignore file edited in place (its folder stays as it was): the walk is whole, and
    // the files it now ignores are gone from the store.
    std::fs::write(root.join(".gitignore"), "out/\ndeep/\n").expect("write");
    let synced = sync(&root, &store);
    assert!(!synced.walk_skipped);
    assert_eq!(synced.removed, ["src/deep/b.ts"]);
    assert_fresh(dir.path(), &root, &store);

    // A file added: the walk is whole and finds it, and so is the next one (its folder
    // changed too lately to be listed).
    std::fs::write(root.join("src/n.ts"), "export const n = 1;\n").expect("write");
    let synced = sync(&root, &store);
    assert!(!synced.walk_skipped);
    assert_eq!(synced.added, ["src/n.ts"]);
    assert_fresh(dir.path(), &root, &store);
    assert!(!sync(&root, &store).walk_skipped);
}
