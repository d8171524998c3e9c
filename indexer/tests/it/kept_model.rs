//! A sync takes the project model the store kept while nothing its build read changed
//! (`model/cache.rs`), and reads the configuration again otherwise; an edit to a
//! configuration file no walk lists (the base config an `extends` names) indexes the
//! project afresh, as an edit to a tsconfig.json does.

use std::path::Path;
use std::time::Duration;

use tsgraph_engine::Store;
use tsgraph_indexer::{SyncSummary, index_project, sync_project};

use crate::resume::{assert_fresh, options};

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
    std::fs::write(path, text).expect("write");
}

fn sync(root: &Path, store: &Store) -> SyncSummary {
    sync_project(root, store, &options()).expect("sync")
}

/// The file `main` calls, as the store says.
fn callee_file(store: &Store) -> String {
    let snapshot = store.snapshot().expect("snapshot");
    let main = (snapshot.key_of("src/main.ts:main").expect("read")).expect("main is indexed");
    let calls = snapshot.out_edges(main).expect("out");
    let callee = (calls.edges().expect("edges"))
        .find(|e| e.kind() == tsgraph_engine::EdgeKind::Calls)
        .expect("main calls");
    let node = snapshot.node(callee.other()).expect("read").expect("node");
    node.view().expect("view").file().to_owned()
}

#[test]
fn a_sync_takes_the_kept_model_until_a_file_the_model_read_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    let alias = |target: &str| {
        format!(
            r#"{{ "compilerOptions": {{ "baseUrl": ".", "paths": {{ "@lib": ["{target}"] }} }} }}"#
        )
    };
    write(&root, "tsconfig.base.json", &alias("src/one/lib.ts"));
    write(
        &root,
        "tsconfig.json",
        r#"{ "extends": "./tsconfig.base.json", "include": ["src"] }"#,
    );
    write(
        &root,
        "src/one/lib.ts",
        "export function lib() { return 1; }\n",
    );
    write(
        &root,
        "src/other/lib.ts",
        "export function lib() { return 2; }\n",
    );
    let main = "import { lib } from '@lib';\nexport function main() { return lib(); }\n";
    write(&root, "src/main.ts", main);
    // A model is kept only once the files it read have not changed for a few seconds
    // (`model/cache.rs`); the configuration settles here.
    std::thread::sleep(Duration::from_millis(5_200));
    let store = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
    index_project(&root, &store, &options()).expect("first index");
    assert_eq!(callee_file(&store), "src/one/lib.ts");

    // An edit to a source file: the index's model is taken back.
    write(
        &root,
        "src/main.ts",
        &format!("{main}export const n = 1;\n"),
    );
    let synced = sync(&root, &store);
    assert!(synced.model_kept, "the kept model is taken");
    assert_eq!(synced.changed, ["src/main.ts"]);
    assert_fresh(dir.path(), &root, &store);

    // The base config edited, no source file: the project is indexed afresh, and `main`
    // now calls the other file.
    write(&root, "tsconfig.base.json", &alias("src/other/lib.ts"));
    let synced = sync(&root, &store);
    assert!(synced.full.is_some(), "indexed afresh");
    assert_eq!(callee_file(&store), "src/other/lib.ts");
    assert_fresh(dir.path(), &root, &store);
    assert!(sync(&root, &store).is_noop(), "and then up to date");

    // The next edit cannot take the kept model (its base config changed since), nor is the
    // new one kept (its base config changed too lately): the configuration is read.
    write(&root, "src/main.ts", main);
    let synced = sync(&root, &store);
    assert!(!synced.model_kept);
    assert_fresh(dir.path(), &root, &store);
}

#[test]
fn a_declaration_file_an_entry_point_names_appearing_indexes_afresh_at_the_next_edit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    write(
        &root,
        "package.json",
        r#"{ "name": "@x/p", "types": "dist/index.d.ts" }"#,
    );
    write(&root, "tsconfig.json", r#"{ "include": ["src"] }"#);
    write(&root, "src/index.ts", "export function p() { return 1; }\n");
    let user = "import { p } from '@x/p';\nexport function user() { return p(); }\n";
    write(&root, "src/user.ts", user);
    let store = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
    index_project(&root, &store, &options()).expect("first index");
    // A build publishes the declarations: the model's answer about them changes, which a
    // sync that finds no source change does not look at.
    write(
        &root,
        "dist/index.d.ts",
        "export declare function p(): number;\n",
    );
    write(
        &root,
        "src/user.ts",
        &format!("{user}export const n = 1;\n"),
    );
    let synced = sync(&root, &store);
    assert!(synced.full.is_some(), "indexed afresh under the new model");
    assert_fresh(dir.path(), &root, &store);
}
