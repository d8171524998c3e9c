//! A new process resumes the index state from the resolution the store keeps and reads only
//! the summaries an update asks for; a kept resolution that does not match the stored
//! summaries is not trusted (the state is restored from every summary). Either way the store
//! ends as a fresh index of the same files.

use std::path::Path;

use tsgraph_engine::Store;
use tsgraph_indexer::{IndexOptions, SyncSummary, index_project, sync_project};

use crate::incremental::dump;

/// A module two files import, one file importing those, and independent files around.
const FILES: [(&str, &str); 10] = [
    (
        "src/core.ts",
        "export interface Shape { area(): number }\nexport function scale(x: number): number { return x * 2; }\n",
    ),
    (
        "src/square.ts",
        "import { Shape, scale } from './core';\nexport class Square implements Shape { constructor(private side: number) {}\n  area(): number { return scale(this.side) * this.side; } }\n",
    ),
    (
        "src/circle.ts",
        "import * as core from './core';\nexport class Circle implements core.Shape { area(): number { return core.scale(3); } }\n",
    ),
    (
        "src/main.ts",
        "import { Square } from './square';\nimport { Circle } from './circle';\nexport function total(): number { return new Square(2).area() + new Circle().area(); }\n",
    ),
    ("src/u1.ts", "export function one(): number { return 1; }\n"),
    ("src/u2.ts", "export function two(): number { return 2; }\n"),
    ("src/u3.ts", "export const three = (): number => 3;\n"),
    (
        "src/u4.ts",
        "export class Four { get(): number { return 4; } }\n",
    ),
    (
        "src/u5.ts",
        "export function five(): number { return 5; }\n",
    ),
    ("src/u6.ts", "export function six(): number { return 6; }\n"),
];

pub(crate) fn options() -> IndexOptions {
    IndexOptions {
        threads: 1,
        ..IndexOptions::default()
    }
}

fn project() -> (tempfile::TempDir, std::path::PathBuf, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).expect("folder");
    for (path, text) in FILES {
        std::fs::write(root.join(path), text).expect("write");
    }
    let store = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
    index_project(&root, &store, &options()).expect("first index");
    (dir, root, store)
}

fn append(root: &Path, path: &str, text: &str) {
    let file = root.join(path);
    let before = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("{before}{text}")).expect("edit");
}

/// The synced store holds exactly what a fresh index of the same files holds.
pub(crate) fn assert_fresh(dir: &Path, root: &Path, store: &Store) {
    let fresh_path = dir.join(format!("fresh-{}.redb", std::process::id()));
    let _ = std::fs::remove_file(&fresh_path);
    let fresh = Store::open_or_create(&fresh_path).expect("fresh store");
    index_project(root, &fresh, &options()).expect("fresh index");
    let synced = dump(&store.snapshot().expect("snapshot"));
    let expected = dump(&fresh.snapshot().expect("snapshot"));
    assert_eq!(
        synced, expected,
        "the synced store differs from a fresh index"
    );
}

/// The sync read a number of summaries in `range`.
fn assert_read(synced: &SyncSummary, range: impl std::ops::RangeBounds<usize>) {
    assert!(
        range.contains(&synced.summaries_read),
        "read {} of {} summaries",
        synced.summaries_read,
        FILES.len()
    );
}

/// The files a sync re-linked.
fn relinked_paths(synced: &SyncSummary) -> Vec<&str> {
    (synced.relinked_files.iter())
        .map(|(path, _)| path.as_str())
        .collect()
}

fn sync(root: &Path, store: &Store) -> SyncSummary {
    sync_project(root, store, &options()).expect("sync")
}

#[test]
fn a_new_process_reads_only_the_summaries_an_update_asks_for() {
    let (dir, root, store) = project();
    // A body edit: the edited file's old summary is read, and nothing that imports it.
    append(
        &root,
        "src/u1.ts",
        "export function oneMore(): number { return one() + 1; }\n",
    );
    let synced = sync(&root, &store);
    assert_eq!(synced.changed, ["src/u1.ts"]);
    assert_read(&synced, 1..=2);
    assert_fresh(dir.path(), &root, &store);
    // An export its importers use: they are read and re-linked, the rest still are not.
    append(&root, "src/core.ts", "export function unused(): void {}\n");
    let synced = sync(&root, &store);
    assert_read(&synced, ..FILES.len() / 2);
    assert_fresh(dir.path(), &root, &store);
    std::fs::write(
        root.join("src/core.ts"),
        "export interface Shape { area(): number; name(): string }\nexport function scale(x: number, by = 2): number { return x * by; }\n",
    )
    .expect("edit");
    let synced = sync(&root, &store);
    let relinked = relinked_paths(&synced);
    assert!(relinked.contains(&"src/square.ts") && relinked.contains(&"src/circle.ts"));
    assert!(synced.summaries_read < FILES.len());
    assert_fresh(dir.path(), &root, &store);
    // Files that come and go: every file's imports are resolved again, from the small part
    // of each summary that holds its specifiers.
    std::fs::write(
        root.join("src/late.ts"),
        "import { scale } from './core';\nexport const late = scale(4);\n",
    )
    .expect("add");
    std::fs::remove_file(root.join("src/u6.ts")).expect("remove");
    let synced = sync(&root, &store);
    assert_eq!((synced.added.len(), synced.removed.len()), (1, 1));
    assert_read(&synced, ..FILES.len() / 2);
    assert_fresh(dir.path(), &root, &store);
}

#[test]
fn a_kept_resolution_that_does_not_match_the_summaries_is_not_trusted() {
    let (dir, root, store) = project();
    let kept_before = (store.snapshot().expect("snapshot"))
        .meta("resolution")
        .expect("meta")
        .expect("a full index keeps its resolution");
    // Another writer's commit that left the kept resolution behind: the resolution names
    // core.ts's old hash, and the store its new one.
    append(
        &root,
        "src/core.ts",
        "export function added(): number { return 1; }\n",
    );
    sync(&root, &store);
    store.set_meta("resolution", &kept_before).expect("set");
    append(
        &root,
        "src/main.ts",
        "export function again(): number { return total(); }\n",
    );
    let synced = sync(&root, &store);
    assert_eq!(
        synced.summaries_read,
        FILES.len(),
        "restored from every summary"
    );
    assert_fresh(dir.path(), &root, &store);
    // Damaged bytes, or bytes of another version, the same.
    for damaged in [vec![1u8, 2, 3], vec![200u8; 40], Vec::new()] {
        store.set_meta("resolution", &damaged).expect("set");
        append(&root, "src/u2.ts", "// edited\n");
        let synced = sync(&root, &store);
        assert_eq!(synced.summaries_read, FILES.len());
        assert_fresh(dir.path(), &root, &store);
    }
    // The sync wrote a matching resolution again: the next one resumes from it.
    append(&root, "src/u3.ts", "// edited\n");
    assert!(sync(&root, &store).summaries_read < FILES.len());
    assert_fresh(dir.path(), &root, &store);
}

/// An editor's edits leave the kept resolution behind (a new process then reads every
/// summary, and the store still ends right); `keep_resolution` brings it level again.
#[test]
fn edits_leave_the_resolution_behind_until_it_is_kept() {
    let (dir, root, store) = project();
    let mut live = tsgraph_indexer::LiveIndex::new(&root, options());
    assert!(!live.resolution_behind());
    let edited = "export function one(): number { return 1 + 0; }\nexport function more(): number { return one(); }\n";
    live.set_text(&store, "src/u1.ts", edited).expect("edit");
    assert!(live.resolution_behind());
    // Saved, then another file changed on disk: a new process finds the store's summary of
    // u1.ts newer than the kept resolution, so it reads every summary.
    std::fs::write(root.join("src/u1.ts"), edited).expect("save");
    append(&root, "src/u2.ts", "// edited\n");
    let synced = sync(&root, &store);
    assert_eq!(synced.summaries_read, FILES.len());
    assert_fresh(dir.path(), &root, &store);
    // The live index is behind the store now (another process wrote): it keeps nothing.
    live.set_text(
        &store,
        "src/u3.ts",
        "export const three = (): number => 33;\n",
    )
    .expect("edit");
    assert!(live.resolution_behind());
    assert!(
        live.keep_resolution(&store).expect("keep"),
        "level with the store after its edit"
    );
    assert!(!live.resolution_behind());
    assert!(
        !live.keep_resolution(&store).expect("keep"),
        "nothing behind"
    );
    std::fs::write(
        root.join("src/u3.ts"),
        "export const three = (): number => 33;\n",
    )
    .expect("save");
    append(&root, "src/u4.ts", "// edited\n");
    let synced = sync(&root, &store);
    assert!(
        synced.summaries_read < FILES.len(),
        "resumed: read {}",
        synced.summaries_read
    );
    assert_fresh(dir.path(), &root, &store);
}

/// A change reaches only the importers whose reach key names a changed name: an export that
/// nobody names reads no importer's import uses and re-links only its own file, while an
/// export a namespace importer names (`core.scale` in circle.ts) reads that importer's.
#[test]
fn only_importers_that_name_a_changed_name_are_asked_what_they_use() {
    let (dir, root, store) = project();
    append(
        &root,
        "src/core.ts",
        "export function nobodyNamesMe(): number { return 1; }\n",
    );
    let synced = sync(&root, &store);
    assert_eq!(synced.uses_read, 0, "{synced:?}");
    let relinked = relinked_paths(&synced);
    assert_eq!(relinked, ["src/core.ts"]);
    assert_fresh(dir.path(), &root, &store);
    // `scale` changes what it stands for: square.ts imports it, circle.ts names it as a
    // member of the namespace, and square.ts passes the change on to main.ts (its exported
    // class's shape names the import); the six files around import nothing.
    let core = std::fs::read_to_string(root.join("src/core.ts")).expect("read");
    std::fs::write(
        root.join("src/core.ts"),
        core.replace(
            "export function scale(x: number): number",
            "export function scale(x: number, by = 2): number",
        ),
    )
    .expect("edit");
    let synced = sync(&root, &store);
    assert_eq!(synced.uses_read, 3, "{synced:?}");
    let relinked = relinked_paths(&synced);
    assert!(relinked.contains(&"src/square.ts") && relinked.contains(&"src/circle.ts"));
    assert_fresh(dir.path(), &root, &store);
}

/// A file that re-exports everything from itself updates in a state read from every summary
/// (its export table is computed, never decoded from a kept one) as in a resumed one.
#[test]
fn a_file_that_re_exports_itself_updates_in_whole_and_resumed_states() {
    let (dir, root, store) = project();
    std::fs::write(
        root.join("src/itself.ts"),
        "export * from './itself';\nexport const own = 1;\n",
    )
    .expect("add");
    sync(&root, &store);
    assert_fresh(dir.path(), &root, &store);
    // Resumed.
    append(&root, "src/itself.ts", "export const more = 2;\n");
    sync(&root, &store);
    assert_fresh(dir.path(), &root, &store);
    // Read from every summary: the kept resolution is damaged.
    store.set_meta("resolution", &[1, 2, 3]).expect("set");
    append(&root, "src/itself.ts", "export const most = 3;\n");
    let synced = sync(&root, &store);
    assert_eq!(synced.summaries_read, FILES.len() + 1);
    assert_fresh(dir.path(), &root, &store);
    // An editor's state made by a whole index.
    let fresh = Store::open_or_create(dir.path().join("live.redb")).expect("store");
    let mut live = tsgraph_indexer::LiveIndex::new(&root, options());
    live.sync(&fresh).expect("index");
    live.set_text(
        &fresh,
        "src/itself.ts",
        "export * from './itself';\nexport const own = 4;\n",
    )
    .expect("edit");
}
