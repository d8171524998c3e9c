//! The indexer target: extraction and linking of arbitrary or mutated TypeScript.

use std::collections::HashSet;

use tsgraph_indexer::index_sources;

/// The line that starts a new file in a multi-file input: `//- src/a.ts`.
const FILE_MARKER: &[u8] = b"//- ";
/// At most this many files per input, so linking stays cheap per execution.
const MAX_FILES: usize = 8;

/// Splits an input into `(path, source)` files. Without a `//- path` line the whole input is
/// `a.ts`. Paths are cleaned up to what the project walk produces: relative, forward slashes,
/// no `.` or `..` segments, a source extension, each path once.
pub fn split_sources(data: &[u8]) -> Vec<(String, &[u8])> {
    let mut files: Vec<(String, &[u8])> = Vec::new();
    let mut seen = HashSet::new();
    let mut rest = data;
    let mut path = "a.ts".to_owned();
    loop {
        // The next marker at the start of a line.
        let next = find_marker(rest);
        let (source, after) = match next {
            Some(at) => (&rest[..at], Some(&rest[at + FILE_MARKER.len()..])),
            None => (rest, None),
        };
        if (!source.is_empty() || files.is_empty()) && seen.insert(path.clone()) {
            files.push((path.clone(), source));
        }
        let Some(after) = after else { break };
        if files.len() == MAX_FILES {
            break;
        }
        let line_end = after
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(after.len());
        path = clean_path(&after[..line_end], files.len());
        rest = after.get(line_end + 1..).unwrap_or_default();
    }
    files
}

fn find_marker(data: &[u8]) -> Option<usize> {
    if data.starts_with(FILE_MARKER) {
        return Some(0);
    }
    data.windows(FILE_MARKER.len() + 1)
        .position(|w| w[0] == b'\n' && &w[1..] == FILE_MARKER)
        .map(|at| at + 1)
}

fn clean_path(raw: &[u8], index: usize) -> String {
    let text = String::from_utf8_lossy(raw);
    let segments: Vec<String> = text
        .split('/')
        .map(|segment| {
            segment
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '$'))
                .collect::<String>()
        })
        .filter(|segment| !segment.is_empty() && segment != "." && segment != "..")
        .collect();
    let mut path = segments.join("/");
    let is_source = [".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"]
        .iter()
        .any(|ext| path.ends_with(ext))
        && !path.ends_with(".d.ts");
    if path.is_empty() {
        path = format!("file{index}");
    }
    if !is_source {
        path.push_str(".ts");
    }
    path
}

/// Extracts and links the files of `data` (see [`split_sources`]) and checks that the batch is
/// one the store accepts: node IDs unique, every edge between stored nodes, every node in a
/// listed file, line ranges in order. Panics otherwise, or if anything inside panics.
pub fn indexer(data: &[u8]) {
    let files = split_sources(data);
    let borrowed: Vec<(&str, &[u8])> = files.iter().map(|(p, s)| (p.as_str(), *s)).collect();
    let batch = match index_sources(&borrowed) {
        Ok(batch) => batch,
        // Only a grammar that fails to load; not something an input can cause.
        Err(err) => panic!("the indexer failed: {err}"),
    };
    let files: HashSet<&str> = batch.files.iter().map(|f| f.path.as_str()).collect();
    let mut ids = HashSet::new();
    for node in &batch.nodes {
        assert!(ids.insert(node.id.as_str()), "node ID {} twice", node.id);
        assert!(
            files.contains(node.file.as_str()),
            "{} is in no file",
            node.id
        );
        assert!(
            node.start_line >= 1 && node.start_line <= node.end_line,
            "{}: lines {}-{}",
            node.id,
            node.start_line,
            node.end_line
        );
    }
    for edge in &batch.edges {
        assert!(
            ids.contains(edge.source.as_str()) && ids.contains(edge.target.as_str()),
            "edge {} {} -> {} names an unknown node",
            edge.kind,
            edge.source,
            edge.target
        );
    }
}

#[cfg(test)]
mod tests {
    use super::split_sources;

    #[test]
    fn inputs_split_into_files_at_marker_lines() {
        let files =
            split_sources(b"const a = 1;\n//- src/../b.tsx\nlet b;\n//- src/b.tsx\n//- c\nx");
        let got: Vec<(&str, &[u8])> = files.iter().map(|(p, s)| (p.as_str(), *s)).collect();
        assert_eq!(
            got,
            [
                ("a.ts", &b"const a = 1;\n"[..]),
                ("src/b.tsx", &b"let b;\n"[..]),
                ("c.ts", &b"x"[..]),
            ]
        );
        assert_eq!(split_sources(b"").len(), 1);
    }
}
