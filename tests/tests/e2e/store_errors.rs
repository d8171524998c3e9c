//! What the CLI says about a store it cannot use: damaged bytes are "corrupt" with the
//! rebuild advice and exit code 1 — never a panic (exit code 101) — and a store held by
//! another process is "in use", not corrupt.

use tsgraph::Project;
use tsgraph_tests::fixture_copy;

use crate::process::{output, tsgraph};

const PAGE: usize = 4096;

#[test]
fn random_bytes_over_any_page_of_the_store_give_the_answer_or_a_corrupt_store_error() {
    let (_dir, project) = fixture_copy("basic");
    let (run, expected, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let store = project.join(".tsgraph/graph.redb");
    let intact = std::fs::read(&store).expect("read the store");
    let mut rng = fastrand::Rng::with_seed(0x5707_e001);
    let (mut answers, mut errors) = (0, 0);
    // The pages that hold anything; the rest of the file is unused space.
    for page in (0..intact.len()).step_by(PAGE) {
        let end = (page + PAGE).min(intact.len());
        if intact[page..end].iter().all(|&b| b == 0) {
            continue;
        }
        let mut damaged = intact.clone();
        damaged[page..end].iter_mut().for_each(|b| *b = rng.u8(..));
        std::fs::write(&store, &damaged).expect("write the store");
        let (run, stdout, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
        let context = format!("page at {page}: exit {:?}\n{stderr}", run.status.code());
        assert!(
            !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
            "{context}"
        );
        match run.status.code() {
            Some(0) => {
                assert_eq!(stdout, expected, "{context}");
                answers += 1;
            }
            Some(1) => {
                assert!(stdout.is_empty(), "{context}");
                assert_eq!(stderr.lines().count(), 1, "{context}");
                assert!(stderr.contains("the store is corrupt"), "{context}");
                assert!(
                    stderr.contains("rebuild it with `tsgraph index --rebuild`"),
                    "{context}"
                );
                errors += 1;
            }
            _ => panic!("{context}"),
        }
    }
    assert!(
        errors > 0,
        "{answers} answers, no error: the damage never reached the graph"
    );
    std::fs::write(&store, &intact).expect("restore the store");
    let (run, _, stderr) = output(tsgraph(&project).args(["index", "--rebuild"]));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
}

#[test]
fn a_store_held_by_another_process_is_in_use_not_corrupt() {
    let (_dir, project) = fixture_copy("basic");
    let held = Project::open(&project, None).expect("open");
    let (run, stdout, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        !stderr.contains("corrupt") && !stderr.contains("--rebuild"),
        "{stderr}"
    );
    let holder = if cfg!(target_os = "linux") {
        format!(
            "the store is in use by another tsgraph process (pid {})",
            std::process::id()
        )
    } else {
        "the store is in use by another tsgraph process".to_owned()
    };
    assert!(stderr.contains(&holder), "{stderr}");
    drop(held);
    let (run, _, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
}

#[test]
fn index_replaces_a_store_of_another_schema_version() {
    let (_dir, project) = fixture_copy("basic");
    let (run, expected, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    {
        let opened = Project::open(&project, None).expect("open the store");
        let version = 999u32.to_le_bytes();
        opened
            .store()
            .set_meta("schema_version", &version)
            .expect("write the version");
    }
    // A query refuses it, saying what to do.
    let (run, _, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("schema version 999"), "{stderr}");
    // `index` indexes the project again into a new store, and says so.
    let (run, _, stderr) = output(tsgraph(&project).arg("index"));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("has schema version 999"), "{stderr}");
    let (run, answer, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert_eq!(answer, expected);
}
