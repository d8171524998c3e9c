//! `tsgraph watch` as a process: it keeps the store level with files written, saved by
//! rename, and deleted, while other processes query the same store.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::process::{output, tsgraph};

/// A running `watch`, killed when dropped.
struct Watching {
    child: Child,
    lines: Receiver<String>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watching {
    /// Log lines until `done` holds after one (a write can reach the watcher as more than
    /// one burst of events, each its own update); the last line.
    fn line_when(&self, awaited: &str, done: impl Fn() -> bool) -> String {
        loop {
            let line = self.next_line(awaited);
            if done() {
                return line;
            }
        }
    }

    /// The next log line, or a failure naming what was awaited.
    fn next_line(&self, awaited: &str) -> String {
        match self.lines.recv_timeout(Duration::from_secs(30)) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no log line while waiting for {awaited}"),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("watch ended while waiting for {awaited}")
            }
        }
    }
}

fn callers_of(project: &std::path::Path, symbol: &str) -> String {
    let (out, stdout, stderr) = output(tsgraph(project).args(["callers", symbol]));
    assert!(out.status.success(), "{stderr}");
    stdout
}

/// `tsgraph watch` on `project`, its log lines read as they come.
fn start_watch(project: &std::path::Path) -> Watching {
    let mut child = tsgraph(project)
        .arg("watch")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    Watching { child, lines }
}

#[test]
fn watch_replaces_a_store_of_another_schema_version() {
    let (_dir, project) = tsgraph_tests::fixture_copy("basic");
    let expected = callers_of(&project, "saveUser");
    tsgraph::Project::open(&project, None)
        .expect("open the store")
        .store()
        .set_meta("schema_version", &999u32.to_le_bytes())
        .expect("write the version");
    let watching = start_watch(&project);
    assert_eq!(watching.next_line("ready"), "ready");
    assert_eq!(callers_of(&project, "saveUser"), expected);
}

#[test]
fn watch_follows_writes_saves_by_rename_and_deletions() {
    let (_dir, project) = tsgraph_tests::fixture_copy("basic");
    let watching = start_watch(&project);
    assert_eq!(watching.next_line("ready"), "ready");

    // A new file.
    std::fs::write(
        project.join("src/audit.ts"),
        "import { saveUser } from \"./db/user\";\n\nexport function auditTrail() {\n  saveUser({ id: \"2\", name: \"Grace\" });\n}\n",
    )
    .unwrap();
    // Another process queries the store the watcher writes.
    let line = watching.line_when("the new file", || {
        callers_of(&project, "saveUser").contains("src/audit.ts:auditTrail")
    });
    assert!(line.starts_with("updated src/audit.ts in "), "{line}");

    // An editor's save: write a temporary file, rename it over the old one.
    let temporary = project.join("src/audit.ts.tmp~");
    std::fs::write(
        &temporary,
        "import { findUser } from \"./db/user\";\n\nexport function auditTrail() {\n  findUser(\"2\");\n}\n",
    )
    .unwrap();
    std::fs::rename(&temporary, project.join("src/audit.ts")).unwrap();
    let line = watching.line_when("the save by rename", || {
        callers_of(&project, "findUser").contains("src/audit.ts:auditTrail")
    });
    assert!(line.starts_with("updated src/audit.ts in "), "{line}");
    assert!(!callers_of(&project, "saveUser").contains("auditTrail"));

    // A deletion takes the file's nodes and edges out of the graph.
    std::fs::remove_file(project.join("src/audit.ts")).unwrap();
    let line = watching.line_when("the deletion", || {
        !callers_of(&project, "findUser").contains("auditTrail")
    });
    assert!(line.starts_with("updated src/audit.ts in "), "{line}");
    assert!(line.contains("nodes +0 -2"), "{line}");

    // A configuration change makes a sync.
    std::fs::write(project.join(".gitignore"), "generated/\nsrc/ui/\n").unwrap();
    let line = watching.line_when("the sync", || {
        let (out, _, _) = output(tsgraph(&project).args(["file-symbols", "src/ui/UserCard.tsx"]));
        out.status.code() == Some(2)
    });
    assert!(line.starts_with("synced (.gitignore changed)"), "{line}");
    assert!(line.contains("1 removed"), "{line}");
}
