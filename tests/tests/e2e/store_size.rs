//! The store stays compact: re-indexing an unchanged project, and indexing the same edits
//! over and over, must not make the store file grow (freed pages are reused).

use tsgraph::Project;

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
