//! Source files that are not plain UTF-8: a byte order mark, UTF-16 in either byte order, and
//! Latin-1. Symbols keep their names and their lines; a guessed encoding is one warning.

use std::path::Path;

use tsgraph_engine::Store;
use tsgraph_indexer::{IndexOptions, IndexSummary, index_project};

fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let mut bytes = if little_endian {
        vec![0xff, 0xfe]
    } else {
        vec![0xfe, 0xff]
    };
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&if little_endian {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        });
    }
    bytes
}

/// Indexes a project made of `files` and returns the summary and a reader of node lines.
fn index(files: &[(&str, Vec<u8>)]) -> (IndexSummary, impl Fn(&str) -> Option<(u32, u32)> + use<>) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, bytes) in files {
        std::fs::write(dir.path().join(path), bytes).expect("write");
    }
    let store = Store::open_or_create(dir.path().join("graph.redb")).expect("store");
    let summary =
        index_project(Path::new(dir.path()), &store, &IndexOptions::default()).expect("index");
    let lines = move |id: &str| {
        let _keep = &dir;
        let snapshot = store.snapshot().expect("snapshot");
        let key = snapshot.key_of(id).expect("read")?;
        let node = snapshot.node(key).expect("read")?;
        let view = node.view().expect("valid");
        Some((view.start_line(), view.end_line()))
    };
    (summary, lines)
}

const SOURCE: &str = "// Grüße\r\nimport { x } from './x';\r\n\r\nexport function first() {\r\n  return x;\r\n}\r\n\r\nexport class Second {\r\n  run(): void {}\r\n}\r\n";

#[test]
fn utf16_files_in_either_byte_order_give_their_symbols_at_their_lines() {
    let (summary, lines) = index(&[
        ("le.ts", utf16(SOURCE, true)),
        ("be.ts", utf16(SOURCE, false)),
    ]);
    for file in ["le.ts", "be.ts"] {
        assert_eq!(lines(&format!("{file}:first")), Some((4, 6)), "{file}");
        assert_eq!(lines(&format!("{file}:Second")), Some((8, 10)), "{file}");
        assert_eq!(lines(&format!("{file}:Second.run")), Some((9, 9)), "{file}");
    }
    assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
    assert_eq!(
        summary.error_bytes, 0,
        "UTF-16 text parses cleanly once converted"
    );
}

#[test]
fn a_byte_order_mark_does_not_shift_lines() {
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend_from_slice(SOURCE.as_bytes());
    let (summary, lines) = index(&[("bom.ts", bytes)]);
    assert_eq!(lines("bom.ts:first"), Some((4, 6)));
    assert_eq!(lines("bom.ts:Second.run"), Some((9, 9)));
    assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
}

#[test]
fn a_latin1_file_keeps_its_names_with_one_warning_naming_it() {
    let (summary, lines) = index(&[
        (
            "latin1.ts",
            b"// r\xe9sum\xe9\nexport function caf\xe9() {}\nexport const na\xefve = caf\xe9();\n"
                .to_vec(),
        ),
        ("plain.ts", b"export function plain() {}\n".to_vec()),
    ]);
    assert_eq!(lines("latin1.ts:café"), Some((2, 2)));
    assert_eq!(lines("latin1.ts:naïve"), Some((3, 3)));
    assert_eq!(lines("latin1.ts:caf"), None);
    assert_eq!(
        summary.warnings,
        ["latin1.ts: not UTF-8 or UTF-16; read as Windows-1252 (Latin-1)"]
    );
}
