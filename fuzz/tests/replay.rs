//! The short fuzzing pass CI runs: every saved regression input of every target, then a few
//! thousand seeded mutations of each target's seed corpus through the same functions the
//! libFuzzer binaries call. `TSGRAPH_FUZZ_ITERATIONS` scales the mutation count,
//! `TSGRAPH_FUZZ_SEED` changes the seed. A failing input is written to the temporary folder
//! and its path printed, ready to be moved into `fuzz/regressions/<target>/`.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use tsgraph_fuzz::{TARGETS, regressions_dir, run_target, seeds};

/// Runs `target` on `input`; on a panic, saves the input and panics with where it is.
fn check(target: &str, label: &str, input: &[u8]) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| run_target(target, input))) {
        let saved = std::env::temp_dir().join(format!("tsgraph-fuzz-{target}-failure"));
        let _ = std::fs::write(&saved, input);
        eprintln!(
            "{target}: {label} failed; input saved to {}",
            saved.display()
        );
        resume_unwind(panic);
    }
}

#[test]
fn every_regression_input_passes() {
    for target in TARGETS {
        let dir = regressions_dir(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths
            .iter()
            .filter(|p| p.is_file() && !p.ends_with("README.md"))
        {
            let input = std::fs::read(path).expect("read a regression input");
            check(target, &path.display().to_string(), &input);
        }
    }
}

/// One random edit of `input`: flip a bit, set a byte to an interesting value, insert or
/// delete a run, duplicate a slice, or splice in part of another seed.
fn mutate(rng: &mut fastrand::Rng, input: &mut Vec<u8>, other: &[u8]) {
    const INTERESTING: [u8; 12] = [
        0, 1, 0x7f, 0x80, 0xff, b'\n', b'{', b'}', b'(', b':', b',', b'"',
    ];
    let len = input.len();
    match rng.u8(..6) {
        0 if len > 0 => {
            let at = rng.usize(..len);
            input[at] ^= 1 << rng.u8(..8);
        }
        1 if len > 0 => {
            let at = rng.usize(..len);
            input[at] = INTERESTING[rng.usize(..INTERESTING.len())];
        }
        2 => {
            let at = rng.usize(..=len);
            let count = rng.usize(1..9);
            let run: Vec<u8> = std::iter::repeat_with(|| rng.u8(..)).take(count).collect();
            input.splice(at..at, run);
        }
        3 if len > 0 => {
            let at = rng.usize(..len);
            let end = (at + rng.usize(1..33)).min(len);
            input.drain(at..end);
        }
        4 if len > 0 => {
            let at = rng.usize(..len);
            let end = (at + rng.usize(1..65)).min(len);
            let copy = input[at..end].to_vec();
            let to = rng.usize(..=input.len());
            input.splice(to..to, copy);
        }
        _ if !other.is_empty() => {
            let at = rng.usize(..other.len());
            let end = (at + rng.usize(1..129)).min(other.len());
            let to = rng.usize(..=input.len());
            input.splice(to..to, other[at..end].iter().copied());
        }
        _ => input.push(rng.u8(..)),
    }
}

/// Mutations per target at the default scale: a few seconds in a debug build.
fn iterations(target: &str) -> usize {
    let scale = std::env::var("TSGRAPH_FUZZ_ITERATIONS")
        .ok()
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or(1.0);
    let base = match target {
        "toon" => 3000.0,
        "indexer" => 400.0,
        _ => 150.0,
    };
    (base * scale) as usize
}

#[test]
fn seeded_mutations_of_the_seed_corpora_pass() {
    let seed = std::env::var("TSGRAPH_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed_f022);
    for target in TARGETS {
        let corpus = seeds(target);
        assert!(!corpus.is_empty(), "{target} has seeds");
        for (name, input) in &corpus {
            check(target, &format!("seed {name}"), input);
        }
        let mut rng = fastrand::Rng::with_seed(seed);
        for i in 0..iterations(target) {
            let (name, start) = &corpus[rng.usize(..corpus.len())];
            let (_, other) = &corpus[rng.usize(..corpus.len())];
            let mut input = start.clone();
            for _ in 0..rng.usize(1..5) {
                mutate(&mut rng, &mut input, other);
            }
            check(
                target,
                &format!("mutation {i} of seed {name} (seed {seed})"),
                &input,
            );
        }
    }
}
