//! Many processes on one store: readers beside a writer that re-indexes in a loop, two
//! `index` runs at once, and a user who may read the store but not write it.
//!
//! The reader test runs 3 s with 3 readers by default; `TSGRAPH_STRESS_SECS=60
//! TSGRAPH_STRESS_READERS=8` runs the full-length version.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::process::{output, tsgraph};

const USER_TS: &str = "src/db/user.ts";

/// The fixture's `user.ts` in one of two versions that answer `callees saveUser` differently.
fn user_ts(original: &str, version: usize) -> String {
    if version == 0 {
        original.to_owned()
    } else {
        original.replacen(
            "  validate(user);\n",
            "  validate(user);\n  findUser(user.id);\n",
            1,
        )
    }
}

fn index(project: &Path, rebuild: bool) {
    let mut command = tsgraph(project);
    command.arg("index");
    if rebuild {
        command.arg("--rebuild");
    }
    let (out, _, stderr) = output(&mut command);
    assert!(out.status.success(), "index failed: {stderr}");
}

fn callees(project: &Path) -> Result<String, String> {
    let (out, stdout, stderr) =
        output(tsgraph(project).args(["callees", "saveUser", "--format", "json"]));
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(stderr)
    }
}

#[test]
fn readers_beside_a_looping_writer_only_ever_see_committed_states() {
    let (_dir, project) = tsgraph_tests::fixture_copy("basic");
    let original = std::fs::read_to_string(project.join(USER_TS)).unwrap();
    // The two answers a committed state can give.
    let mut answers = Vec::new();
    for version in 0..2 {
        std::fs::write(project.join(USER_TS), user_ts(&original, version)).unwrap();
        index(&project, false);
        answers.push(callees(&project).expect("a first answer"));
    }
    assert_ne!(answers[0], answers[1]);

    let seconds = tsgraph_tests::env_number("TSGRAPH_STRESS_SECS", 3);
    let readers = tsgraph_tests::env_number("TSGRAPH_STRESS_READERS", 3);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let stop = Arc::new(AtomicBool::new(false));
    let problems = Arc::new(Mutex::new(Vec::<String>::new()));
    let counts = Arc::new(Mutex::new([0usize; 2]));
    let mut threads = Vec::new();
    for _ in 0..readers {
        let (project, answers, stop, problems, counts) = (
            project.clone(),
            answers.clone(),
            Arc::clone(&stop),
            Arc::clone(&problems),
            Arc::clone(&counts),
        );
        threads.push(std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                match callees(&project) {
                    Ok(answer) => match answers.iter().position(|a| *a == answer) {
                        Some(which) => counts.lock().unwrap()[which] += 1,
                        None => problems
                            .lock()
                            .unwrap()
                            .push(format!("uncommitted answer: {answer}")),
                    },
                    Err(stderr) => problems.lock().unwrap().push(stderr),
                }
            }
        }));
    }
    // The writer: alternate the file's versions, re-indexing incrementally, and rebuilding
    // from scratch every third round (a new store file renamed over the one readers use).
    let mut rounds = 0;
    while Instant::now() < deadline {
        std::fs::write(project.join(USER_TS), user_ts(&original, rounds % 2)).unwrap();
        index(&project, rounds % 3 == 2);
        rounds += 1;
    }
    stop.store(true, Ordering::Relaxed);
    for thread in threads {
        thread.join().unwrap();
    }
    let problems = problems.lock().unwrap();
    let counts = *counts.lock().unwrap();
    eprintln!(
        "{readers} readers, {seconds} s: {} and {} answers of the two states, {rounds} writes, {} problems",
        counts[0],
        counts[1],
        problems.len()
    );
    assert!(
        problems.is_empty(),
        "{} failures, first: {}",
        problems.len(),
        problems[0]
    );
    assert!(
        counts[0] + counts[1] >= readers as usize,
        "every reader answered"
    );
    assert!(rounds >= 2, "the writer wrote both versions");
}

#[test]
fn two_index_runs_at_once_both_finish() {
    let (_dir, project) = tsgraph_tests::fixture_copy("basic");
    index(&project, false);
    std::fs::write(project.join("src/extra.ts"), "export function extra() {}\n").unwrap();
    let runs: Vec<_> = (0..2)
        .map(|_| {
            tsgraph(&project)
                .args(["index"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for run in runs {
        let out = run.wait_with_output().unwrap();
        // The second waits for the first (up to 30 s) and then finds the store up to date.
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (out, stdout, _) = output(tsgraph(&project).args(["search", "extra", "--format", "json"]));
    assert!(out.status.success());
    assert!(stdout.contains("src/extra.ts:extra"), "{stdout}");
}

#[cfg(unix)]
#[test]
fn a_user_who_cannot_write_the_store_can_query_it() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;

    let (dir, project) = tsgraph_tests::fixture_copy("basic");
    index(&project, false);
    let store = project.join(".tsgraph/graph.redb");
    let before = std::fs::read(&store).unwrap();
    // Readable by everyone, writable by no one; as root (where permissions do not bind),
    // the query runs as `nobody`.
    let read_only = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let mut folders = vec![dir.path().to_path_buf()];
    for entry in walk(&project) {
        if entry.is_dir() {
            folders.push(entry);
        } else {
            read_only(&entry, 0o444);
        }
    }
    for folder in &folders {
        read_only(folder, 0o555);
    }
    let mut command = tsgraph(&project);
    command.args(["callers", "saveUser"]);
    let is_root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    if is_root {
        command.uid(65534).gid(65534);
    }
    let (out, stdout, stderr) = output(&mut command);
    for folder in &folders {
        read_only(folder, 0o755);
    }
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("src/main.ts:main"), "{stdout}");
    assert_eq!(
        std::fs::read(&store).unwrap(),
        before,
        "the store is unchanged"
    );
}

fn walk(folder: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            found.extend(walk(&path));
        }
        found.push(path);
    }
    found
}
