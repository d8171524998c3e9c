//! The store stays compact: re-indexing an unchanged project, and indexing the same edits
//! over and over, must not make the store file grow (freed pages are reused).

use tsgraph::{IndexOptions, LiveProject, Project};

/// A project of `files` modules, each calling into the previous one.
fn write_project(root: &std::path::Path, files: usize) {
    std::fs::write(root.join("package.json"), r#"{"name":"sizes"}"#).expect("package.json");
    let src = root.join("src");
    std::fs::create_dir_all(&src).expect("src");
    for i in 0..files {
        let previous = if i == 0 {
            String::new()
        } else {
            format!("import {{ step{p} }} from './m{p}';\n", p = i - 1)
        };
        let call = if i == 0 {
            "0".to_owned()
        } else {
            format!("step{}(n - 1)", i - 1)
        };
        std::fs::write(
            src.join(format!("m{i}.ts")),
            format!(
                "{previous}export interface Shape{i} {{ size: number }}\n\
                 export class Box{i} implements Shape{i} {{\n  size = {i};\n  grow(by: number): number {{ return this.size + by; }}\n}}\n\
                 export function step{i}(n: number): number {{\n  return new Box{i}().grow({call});\n}}\n"
            ),
        )
        .expect("module");
    }
}

fn store_size(db: &std::path::Path) -> u64 {
    std::fs::metadata(db).expect("store").len()
}

/// The store file and the graph files beside it.
fn store_and_graph_files(db: &std::path::Path) -> u64 {
    let folder = db.parent().expect("folder");
    let stem = db.file_name().expect("name").to_string_lossy().into_owned();
    let graph_files: u64 = std::fs::read_dir(folder)
        .expect("list")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with(&stem) && name.ends_with(".graph")
        })
        .map(|path| std::fs::metadata(path).expect("graph file").len())
        .sum();
    store_size(db) + graph_files
}

/// A fresh index of `root` into a store of its own: its size with its graph files.
fn fresh_size(root: &std::path::Path) -> u64 {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("graph.redb");
    Project::open(root, Some(&db))
        .expect("open")
        .index(&Default::default())
        .expect("index");
    store_and_graph_files(&db)
}

#[test]
fn after_any_edits_the_store_stays_within_a_fifth_of_a_fresh_index() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(&root).expect("root");
    write_project(&root, 150);
    let db = dir.path().join("graph.redb");
    Project::open(&root, Some(&db))
        .expect("open")
        .index(&Default::default())
        .expect("index");
    // Edits of every kind, one sync each: functions added, bodies changed, a file removed
    // and one added, an import rewired.
    for round in 0..24usize {
        let mut file = root.join(format!("src/m{}.ts", (round * 37) % 150));
        if !file.exists() {
            // Removed by an earlier round.
            file = root.join("src/m0.ts");
        }
        match round % 4 {
            0 | 1 => {
                let mut text = std::fs::read_to_string(&file).expect("read");
                text.push_str(&format!(
                    "export function added{round}(x: number): number {{ return x * {round}; }}\n"
                ));
                std::fs::write(&file, text).expect("edit");
            }
            2 => {
                let text = std::fs::read_to_string(&file).expect("read");
                std::fs::write(&file, text.replace("this.size + by", "by - this.size"))
                    .expect("edit");
            }
            _ => {
                let _ = std::fs::remove_file(root.join(format!("src/m{}.ts", 149 - round)));
                std::fs::write(
                    root.join(format!("src/extra{round}.ts")),
                    format!("import {{ step3 }} from './m3';\nexport const v{round} = step3(2);\n"),
                )
                .expect("add");
            }
        }
        // One process per sync, as `tsgraph index` runs (closing the store lets redb give
        // back the free tail it can).
        Project::open(&root, Some(&db))
            .expect("open")
            .sync(&Default::default())
            .expect("sync");
        if round % 8 == 7 {
            let (now, fresh) = (store_and_graph_files(&db), fresh_size(&root));
            assert!(
                now * 5 <= fresh * 6,
                "round {round}: the store is {now} bytes, a fresh index of the same text {fresh}; {:?}",
                std::fs::read_dir(db.parent().expect("folder"))
                    .expect("list")
                    .map(|e| {
                        let p = e.expect("e").path();
                        (
                            p.file_name().expect("n").to_string_lossy().into_owned(),
                            std::fs::metadata(&p).expect("m").len(),
                        )
                    })
                    .collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn the_store_does_not_grow_on_no_op_or_repeated_re_indexes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(&root).expect("root");
    write_project(&root, 150);
    let db = dir.path().join("graph.redb");
    let project = Project::open(&root, Some(&db)).expect("open");
    project.index(&Default::default()).expect("index");
    let indexed = store_size(&db);

    for _ in 0..5 {
        let summary = project.sync(&Default::default()).expect("sync");
        assert!(summary.full.is_none());
        assert_eq!(store_size(&db), indexed, "a no-op re-index grew the store");
    }

    // The same two versions of a file, again and again: after the first round trip every
    // page the store needs already exists.
    let edited = root.join("src/m75.ts");
    let original = std::fs::read_to_string(&edited).expect("read");
    let changed = format!("{original}export function extra(): number {{ return step75(3); }}\n");
    let mut sizes = Vec::new();
    for round in 0..12 {
        let text = if round % 2 == 0 { &changed } else { &original };
        std::fs::write(&edited, text).expect("edit");
        let summary = project.sync(&Default::default()).expect("sync");
        assert_eq!(summary.changed.len(), 1, "round {round}: {summary:?}");
        sizes.push(store_size(&db));
    }
    let settled = sizes[3];
    assert!(
        sizes[4..].iter().all(|size| *size <= settled),
        "the store kept growing over repeated edits: indexed {indexed}, then {sizes:?}"
    );
    assert!(
        settled <= indexed + indexed / 4,
        "repeated edits grew the store from {indexed} to {settled} bytes"
    );
}

#[test]
fn an_editor_session_leaves_the_store_within_a_fifth_of_a_fresh_index() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(&root).expect("root");
    write_project(&root, 150);
    let db = dir.path().join("graph.redb");
    let live = LiveProject::open(&root, Some(&db), IndexOptions::default()).expect("open");
    for round in 0..30usize {
        let path = format!("src/m{}.ts", (round * 37) % 150);
        let mut text = std::fs::read_to_string(root.join(&path)).expect("read");
        text.push_str(&format!(
            "export function typed{round}(x: number): number {{ return x + {round}; }}\n"
        ));
        // On disk too, so that a fresh index sees the same text.
        std::fs::write(root.join(&path), &text).expect("write");
        live.set_file_text(&path, &text).expect("edit");
    }
    // The compaction runs beside the writer, after the edit that grew the file.
    while live.building_graph_file() {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    drop(live);
    let (now, fresh) = (store_and_graph_files(&db), fresh_size(&root));
    assert!(
        now * 5 <= fresh * 6,
        "the store is {now} bytes, a fresh index of the same text {fresh}"
    );
}
