//! `kill -9` at random moments of a real `tsgraph index`: afterwards the store opens, passes its
//! integrity check, and holds the last committed graph — the same graph an uninterrupted index
//! writes, or none when no index of that store ever completed (then a query indexes first).
//!
//! `TSGRAPH_CRASH_ROUNDS` sets the number of rounds (default 10), `TSGRAPH_CRASH_SEED` the
//! seed of the kill times. Each round prints one line (run with `--nocapture` to see them).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tsgraph::Project;
use tsgraph_tests::{copy_dir, fixture, fixture_copy};

use crate::process::{output, tsgraph};

/// Copies of the fixture's sources added to the project, so that an index lasts long enough
/// to be interrupted in each of its phases.
const COPIES: usize = 40;

/// The symbol every round asks for, by ID: the copies hold more `saveUser`s.
const SYMBOL: &str = "src/db/user.ts:saveUser";

/// The basic fixture plus `COPIES` copies of its `src` folder under `copies/`.
fn large_project() -> (tempfile::TempDir, PathBuf) {
    let (dir, project) = fixture_copy("basic");
    for copy in 0..COPIES {
        copy_dir(
            &fixture("basic").join("src"),
            &project.join(format!("copies/c{copy}")),
        )
        .expect("copy the sources");
    }
    (dir, project)
}

fn export(project: &Project) -> String {
    let mut out = Vec::new();
    project.export(&mut out).expect("export");
    String::from_utf8(out).expect("UTF-8")
}

/// `tsgraph callers SYMBOL` through the CLI: exit code 0 and its output.
fn callers(project: &Path) -> String {
    let (run, stdout, stderr) = output(tsgraph(project).args(["callers", SYMBOL]));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    stdout
}

#[cfg(unix)]
#[test]
fn a_killed_index_leaves_a_store_that_opens_and_answers_with_the_last_committed_graph() {
    let (_dir, project) = large_project();
    let store_dir = project.join(".tsgraph");

    // The uninterrupted index: its graph, its answer, and how long it takes.
    let started = Instant::now();
    let (run, _, stderr) = output(tsgraph(&project).arg("index"));
    let full = started.elapsed();
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let expected_graph = export(&Project::open(&project, None).expect("open"));
    let expected_answer = callers(&project);
    assert!(
        expected_answer.contains("src/main.ts:main"),
        "{expected_answer}"
    );

    let rounds = tsgraph_tests::env_number("TSGRAPH_CRASH_ROUNDS", 10);
    let seed = tsgraph_tests::env_number("TSGRAPH_CRASH_SEED", 0xc4a5_4001);
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut killed_rounds, mut unindexed_rounds) = (0, 0);
    for round in 0..rounds {
        // A third of the rounds start without a store; some re-index with --rebuild, which
        // deletes the store first.
        let fresh = rng.u8(..3) == 0;
        if fresh {
            std::fs::remove_dir_all(&store_dir).expect("remove the store");
        }
        let rebuild = !fresh && rng.u8(..4) == 0;
        let mut command = tsgraph(&project);
        command.arg("index");
        if rebuild {
            command.arg("--rebuild");
        }
        let mut child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("tsgraph starts");
        let delay = full.mul_f64(rng.f64() * 1.2);
        std::thread::sleep(delay);
        let killed = child.try_wait().expect("poll").is_none();
        if killed {
            child.kill().expect("kill -9");
            killed_rounds += 1;
        }
        let status = child.wait().expect("reap");
        let context = format!(
            "round {round} (seed {seed:#x}): {} after {delay:?}{}{}",
            if killed { "killed" } else { "finished" },
            if fresh { ", no store before" } else { "" },
            if rebuild { ", --rebuild" } else { "" },
        );
        assert!(killed || status.success(), "{context}: {status}");

        let indexed = {
            let opened = Project::open(&project, None)
                .unwrap_or_else(|err| panic!("{context}: the store does not open: {err}"));
            let indexed = opened.is_indexed().expect("read the index marker");
            if indexed {
                assert!(
                    export(&opened) == expected_graph,
                    "{context}: the store holds another graph"
                );
            }
            indexed
        };
        // Not indexed only where no index of this store had completed: a new store, or one
        // that --rebuild had just deleted.
        assert!(
            indexed || (killed && (fresh || rebuild)),
            "{context}: the store lost its graph"
        );
        if !indexed {
            unindexed_rounds += 1;
        }
        // The CLI answers as before (indexing first when the store holds no graph).
        assert_eq!(callers(&project), expected_answer, "{context}");
        eprintln!(
            "{context}: {}",
            if indexed {
                "indexed"
            } else {
                "not yet indexed"
            }
        );
    }
    eprintln!(
        "{rounds} rounds, {killed_rounds} killed, {unindexed_rounds} left a store not yet \
         indexed; an uninterrupted index took {:?}",
        Duration::from_millis(full.as_millis() as u64)
    );
}
