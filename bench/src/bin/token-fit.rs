//! Prints, for each answer file given, its o200k token count (tiktoken-rs) and how many
//! pieces of each class and length the token estimate sees in it, one line a file:
//! `path<TAB>tokens<TAB>feature=count …`. `bench/tokens/fit.py` fits the estimate's cost
//! table to these lines (see `bench/tokens/README.md`).

use std::collections::BTreeMap;

fn main() -> anyhow::Result<()> {
    let bpe = tiktoken_rs::o200k_base_singleton();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path)?;
        let real = bpe.encode_ordinary(&text).len();
        let mut features = BTreeMap::<String, usize>::new();
        tsgraph::encoders::tokens::features(text.as_bytes(), |name| {
            *features.entry(name).or_default() += 1;
        });
        let cells: Vec<String> = features.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!("{path}\t{real}\t{}", cells.join(" "));
    }
    Ok(())
}
