//! Prints where tree-sitter finds syntax errors in files, after tsgraph's pre-pass repairs:
//! `cargo run -p tsgraph-indexer --example syntax-errors -- FILE...`
fn main() {
    for path in std::env::args().skip(1) {
        let Ok(source) = std::fs::read(&path) else {
            eprintln!("{path}: cannot read");
            continue;
        };
        let lines: Vec<&[u8]> = source.split(|b| *b == b'\n').collect();
        for (line, column, bytes) in tsgraph_indexer::syntax_errors(&path, &source) {
            let text = lines
                .get(line as usize - 1)
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .unwrap_or_default();
            println!("{path}:{line}:{column}: {bytes} bytes: {}", text.trim());
        }
    }
}
