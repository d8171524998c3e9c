//! CPU time per phase of a full index, all threads counted: the process's CPU clock read
//! when the index starts, when it tells of linking and of writing (its progress hook), and
//! when it returns. The phases: walking, parsing and extracting; reading the project model
//! and resolving; linking and writing the store (two threads side by side, then the commit,
//! the graph file and the search index).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tsgraph_indexer::{IndexOptions, IndexProgress, ProgressHook};

use crate::timing::process_cpu_time;

/// CPU time of each phase of one index run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhaseCpu {
    /// Walking, parsing and extracting (the parse workers).
    pub extract: Duration,
    /// Reading the project model and resolving imports.
    pub resolve: Duration,
    /// Linking and writing, the commit, the graph file and the search index.
    pub link_write: Duration,
}

/// Reads the CPU clock at each phase boundary of an index run.
#[derive(Clone, Default)]
pub struct PhaseClock {
    marks: Arc<Mutex<Vec<Duration>>>,
}

impl PhaseClock {
    /// `options` with a progress hook that reads the clock when linking and writing begin
    /// (any hook `options` had still hears every event). Reads the clock once: the start.
    pub fn watch(&self, options: &IndexOptions) -> IndexOptions {
        self.marks
            .lock()
            .expect("the clock's lock")
            .push(process_cpu_time());
        let marks = Arc::clone(&self.marks);
        let inner = options.progress.clone();
        let hook = move |progress: IndexProgress| {
            if matches!(progress, IndexProgress::Linking | IndexProgress::Writing) {
                marks
                    .lock()
                    .expect("the clock's lock")
                    .push(process_cpu_time());
            }
            if let Some(inner) = &inner {
                (inner.0)(progress);
            }
        };
        IndexOptions {
            progress: Some(ProgressHook(Arc::new(hook))),
            ..options.clone()
        }
    }

    /// The phases, once the run returned (reads the clock a last time); `None` when the
    /// run did not tell of both boundaries.
    pub fn phases(&self) -> Option<PhaseCpu> {
        let mut marks = self.marks.lock().expect("the clock's lock");
        marks.push(process_cpu_time());
        let [start, linking, writing, end] = marks.as_slice() else {
            return None;
        };
        Some(PhaseCpu {
            extract: linking.saturating_sub(*start),
            resolve: writing.saturating_sub(*linking),
            link_write: end.saturating_sub(*writing),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_run_has_three_phases_that_add_up_to_its_cpu_time() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let root = dir.path();
        std::fs::write(root.join("package.json"), r#"{"name":"p"}"#).expect("write");
        std::fs::write(
            root.join("a.ts"),
            "export function a() { return b(); }\nexport function b() { return 1; }\n",
        )
        .expect("write");
        let store =
            tsgraph_engine::Store::open_or_create(root.join("g.redb")).expect("create the store");
        let clock = PhaseClock::default();
        let before = process_cpu_time();
        let options = clock.watch(&IndexOptions::default());
        tsgraph_indexer::index_project(root, &store, &options).expect("index");
        let phases = clock.phases().expect("both boundaries told");
        let total = process_cpu_time().saturating_sub(before);
        let summed = phases.extract + phases.resolve + phases.link_write;
        assert!(summed <= total, "{phases:?} against {total:?}");
        // A second reading is not a run of its own.
        assert_eq!(clock.phases(), None);
    }
}
