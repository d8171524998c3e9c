//! What a bulk load ([`super::load::Loader`]) prepares aside from its write transaction, on a
//! thread of its own: the search terms of the nodes it writes (sorted, with their FST), the
//! rows of the crowded names (`crowded.rs`) and the rows of the unresolved call sites (grouped
//! by name and archived). The writer thread is
//! what a full index waits for; this work needs none of its tables, so it runs while the
//! writer inserts and the linker links. The terms reach the tables at commit, in key order;
//! the unresolved rows go back to the writer as they are ready ([`Aside::ready_rows`]), to be
//! inserted by its next call rather than all held until the commit.
//!
//! The nodes come first in a load, so the terms are sorted and their FST built as soon as the
//! first files come ([`Aside::nodes_done`]), while the writer writes the files' edges; nodes
//! added after that are taken in too, and the terms sorted again at the end.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, unbounded};

use super::crowded::Callables;
use super::search::{TermPairs, fst_of};
use super::unresolved::UnresolvedRows;
use crate::error::StoreError;
use crate::record::{NodeRecord, UnresolvedCall};

/// Pieces of work queued for the preparing thread at most (a node batch is about a megabyte
/// and a half): the terms take longer than the inserts, and an unbounded queue held most of
/// the records a second time (about 20 MB at the corpus's peak); a writer that gets ahead
/// waits instead. Two rather than four took 2 MiB off the peak of a 1M-line index without
/// slowing it (2026-11-28).
const WORK_AHEAD: usize = 2;

/// One piece of work for the preparing thread.
enum Work {
    /// Nodes written under consecutive keys from `first`.
    Nodes { first: u32, nodes: Vec<NodeRecord> },
    /// Every node is in: sort the terms and build their FST now.
    NodesDone,
    /// The unresolved call sites of files new to the load, by file path.
    Unresolved(Vec<(String, Vec<UnresolvedCall>)>),
}

/// What the preparing thread hands the commit.
pub(super) struct Prepared {
    /// Every node's search terms, sorted by term, then key.
    pub(super) terms: TermPairs,
    /// The FST of `terms`.
    pub(super) fst: Vec<u8>,
    /// The functions and methods of the crowded names, in the table's key order.
    pub(super) crowded: Callables,
    /// The unresolved call sites' rows not yet taken by [`Aside::ready_rows`], each batch
    /// in key order.
    pub(super) unresolved: Vec<UnresolvedRows>,
}

/// The preparing side of a load: a thread fed through a channel, or (when no thread could be
/// started) the same work done on the writer's thread as it comes.
pub(super) struct Aside {
    sender: Option<Sender<Work>>,
    /// The unresolved rows the thread has made, as it makes them.
    ready: Option<Receiver<UnresolvedRows>>,
    /// `None` once [`Aside::finish`] took the work.
    worker: Option<Worker>,
    /// Set when the aside is dropped unfinished (a load dropped or failed): the thread drops
    /// what is left instead of sorting terms nobody will write.
    abandoned: Arc<AtomicBool>,
}

enum Worker {
    Thread(JoinHandle<Result<Prepared, StoreError>>),
    Inline(Box<Preparing>),
}

impl Aside {
    pub(super) fn start() -> Aside {
        let (sender, receiver) = crossbeam_channel::bounded::<Work>(WORK_AHEAD);
        let (ready_sender, ready) = unbounded::<UnresolvedRows>();
        let abandoned = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&abandoned);
        let thread = std::thread::Builder::new()
            .name("tsgraph-load-aside".to_owned())
            .spawn(move || {
                // No store is read here: a panic is a fault of this code, reported as the
                // load's error rather than as damage to the store.
                let prepared = super::guard::catch(move || {
                    let mut preparing = Preparing {
                        ready: Some(ready_sender),
                        abandoned: flag,
                        ..Preparing::default()
                    };
                    for work in receiver {
                        preparing.take(work);
                    }
                    preparing.finish()
                });
                prepared.unwrap_or_else(|detail| {
                    Err(StoreError::InvalidLoad(format!(
                        "preparing the load's search terms and rows panicked: {detail}"
                    )))
                })
            });
        match thread {
            Ok(thread) => Aside {
                sender: Some(sender),
                ready: Some(ready),
                worker: Some(Worker::Thread(thread)),
                abandoned,
            },
            Err(_) => Aside::idle(),
        }
    }

    /// An aside with nothing to prepare, done on the caller's thread.
    pub(super) fn idle() -> Aside {
        Aside {
            sender: None,
            ready: None,
            worker: Some(Worker::Inline(Box::default())),
            abandoned: Arc::default(),
        }
    }

    /// Takes the nodes written under consecutive keys from `first`.
    pub(super) fn nodes(&mut self, first: u32, nodes: Vec<NodeRecord>) {
        self.send(Work::Nodes { first, nodes });
    }

    /// Says every node is in (more may still come; they are taken in at the end).
    pub(super) fn nodes_done(&mut self) {
        self.send(Work::NodesDone);
    }

    /// Takes the unresolved call sites of files new to the load, by file path.
    pub(super) fn unresolved(&mut self, files: Vec<(String, Vec<UnresolvedCall>)>) {
        if !files.is_empty() {
            self.send(Work::Unresolved(files));
        }
    }

    /// The unresolved rows made since the last call, each batch in key order.
    pub(super) fn ready_rows(&mut self) -> Vec<UnresolvedRows> {
        match (&mut self.worker, &self.ready) {
            (Some(Worker::Thread(_)), Some(ready)) => ready.try_iter().collect(),
            (Some(Worker::Inline(preparing)), _) => std::mem::take(&mut preparing.held),
            _ => Vec::new(),
        }
    }

    fn send(&mut self, work: Work) {
        match (&mut self.worker, &self.sender) {
            // A thread that is gone failed: its result at `finish` says so.
            (Some(Worker::Thread(_)), Some(sender)) => drop(sender.send(work)),
            (Some(Worker::Inline(preparing)), _) => preparing.take(work),
            _ => {}
        }
    }

    /// Waits for the work to be done and takes it (once).
    pub(super) fn finish(&mut self) -> Result<Prepared, StoreError> {
        drop(self.sender.take());
        let mut prepared = match self.worker.take() {
            Some(Worker::Thread(thread)) => match thread.join() {
                Ok(prepared) => prepared?,
                // The thread catches its panics; this is one in unwinding itself.
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Some(Worker::Inline(preparing)) => preparing.finish()?,
            None => {
                return Err(StoreError::InvalidLoad(
                    "the load's prepared work was taken already".to_owned(),
                ));
            }
        };
        if let Some(ready) = self.ready.take() {
            prepared.unresolved.extend(ready.try_iter());
        }
        Ok(prepared)
    }
}

impl Drop for Aside {
    fn drop(&mut self) {
        if self.worker.is_some() {
            self.abandoned.store(true, Ordering::Relaxed);
        }
    }
}

/// The work as it accumulates.
#[derive(Default)]
struct Preparing {
    terms: TermPairs,
    callables: Callables,
    /// The FST of `terms`, while no node came after it was built.
    fst: Option<Vec<u8>>,
    /// Where made unresolved rows go: the writer's channel, else `held`.
    ready: Option<Sender<UnresolvedRows>>,
    held: Vec<UnresolvedRows>,
    buffer: rkyv::util::AlignedVec<16>,
    /// The first failure; later work is dropped, and `finish` returns it.
    failed: Option<StoreError>,
    /// The load went without committing: nothing more is worth doing.
    abandoned: Arc<AtomicBool>,
}

impl Preparing {
    fn take(&mut self, work: Work) {
        if self.failed.is_some() || self.abandoned.load(Ordering::Relaxed) {
            return;
        }
        if let Err(err) = self.try_take(work) {
            self.failed = Some(err);
        }
    }

    fn try_take(&mut self, work: Work) -> Result<(), StoreError> {
        match work {
            Work::Nodes { first, nodes } => {
                self.fst = None;
                for (key, node) in (first..).zip(&nodes) {
                    self.terms.add_node(key, node)?;
                    self.callables.add_node(key, node)?;
                }
            }
            Work::NodesDone => self.seal_terms()?,
            Work::Unresolved(files) => {
                let (paths, calls): (Vec<String>, Vec<Vec<UnresolvedCall>>) =
                    files.into_iter().unzip();
                let calls = (paths.iter().zip(calls))
                    .flat_map(|(path, calls)| calls.into_iter().map(move |c| (path.as_str(), c)));
                let rows = UnresolvedRows::of(calls, &mut self.buffer)?;
                match &self.ready {
                    // A writer that is gone takes nothing more.
                    Some(ready) => drop(ready.send(rows)),
                    None => self.held.push(rows),
                }
            }
        }
        Ok(())
    }

    /// Sorts the terms and builds their FST, unless that is done for the terms there are.
    fn seal_terms(&mut self) -> Result<(), StoreError> {
        if self.fst.is_none() {
            self.terms.sort();
            self.fst = Some(fst_of(&self.terms)?);
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Prepared, StoreError> {
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        if self.abandoned.load(Ordering::Relaxed) {
            return Err(StoreError::InvalidLoad("the load was dropped".to_owned()));
        }
        self.seal_terms()?;
        Ok(Prepared {
            fst: self.fst.take().unwrap_or_default(),
            crowded: std::mem::take(&mut self.callables).crowded(),
            terms: self.terms,
            unresolved: self.held,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use super::*;
    use crate::model::NodeKind;

    fn node(id: &str, name: &str) -> NodeRecord {
        NodeRecord::new(id, NodeKind::Function, name, "a.ts", 1, 1)
    }

    /// The prepared terms as `(term, key)`, and the FST's terms.
    fn terms_of(prepared: &Prepared) -> (Vec<(String, u32)>, Vec<String>) {
        let pairs = prepared
            .terms
            .iter()
            .map(|(t, k)| (t.to_owned(), k))
            .collect();
        let set = fst::Set::new(prepared.fst.clone()).unwrap();
        let words = set.stream().into_strs().unwrap();
        (pairs, words)
    }

    fn call(path: &str, name: &str, line: u32) -> (String, UnresolvedCall) {
        let call = UnresolvedCall {
            caller: format!("{path}:f"),
            callee: format!("x.{name}"),
            name: name.to_owned(),
            line,
            reason: "unknown-receiver".to_owned(),
        };
        (path.to_owned(), call)
    }

    /// Every row of `batches`, sorted.
    fn union(batches: &[UnresolvedRows]) -> crate::store::unresolved::RowParts {
        let (mut lists, mut names) = (Vec::new(), Vec::new());
        for batch in batches {
            let (l, n) = batch.rows();
            lists.extend(l);
            names.extend(n);
        }
        lists.sort();
        names.sort();
        (lists, names)
    }

    #[test]
    fn unresolved_rows_come_back_as_they_are_made_and_the_rest_at_finish() {
        let first = vec![call("a.ts", "save", 3), call("a.ts", "load", 1)];
        let second = vec![call("b.ts", "save", 7), call("b.ts", "save", 2)];
        let all = first.iter().chain(&second);
        let mut buffer = rkyv::util::AlignedVec::new();
        let expected =
            UnresolvedRows::of(all.map(|(p, c)| (p.as_str(), c.clone())), &mut buffer).unwrap();
        // Made in key order, the order the writer inserts them in.
        let (lists, names) = expected.rows();
        assert!(lists.is_sorted_by(|a, b| a.0 < b.0) && names.is_sorted_by(|a, b| a.0 < b.0));
        let expected = union(&[expected]);
        assert_eq!(expected.0.len(), 3);
        let by_file = |calls: &[(String, UnresolvedCall)]| {
            let path = calls[0].0.clone();
            vec![(path, calls.iter().map(|(_, c)| c.clone()).collect())]
        };

        for mut aside in [Aside::start(), Aside::idle()] {
            aside.unresolved(by_file(&first));
            // The first file's rows come back before the load ends.
            let mut taken = Vec::new();
            for _ in 0..10_000 {
                taken = aside.ready_rows();
                if !taken.is_empty() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            assert!(!taken.is_empty(), "the first file's rows never came back");
            aside.unresolved(by_file(&second));
            let prepared = aside.finish().unwrap();
            taken.extend(prepared.unresolved);
            assert_eq!(union(&taken), expected);
            // Taken once.
            assert!(aside.finish().is_err());
        }
    }

    #[test]
    fn nodes_after_the_seal_are_sorted_in_and_the_fst_is_built_again() {
        let mut all_at_once = Aside::start();
        all_at_once.nodes(
            0,
            vec![node("a.ts:zeta", "zeta"), node("a.ts:alpha", "alpha")],
        );
        all_at_once.nodes(2, vec![node("a.ts:mid", "mid")]);
        all_at_once.nodes_done();
        let expected = terms_of(&all_at_once.finish().unwrap());
        assert!(expected.1.contains(&"mid".to_owned()));

        for mut late in [Aside::start(), Aside::idle()] {
            late.nodes(
                0,
                vec![node("a.ts:zeta", "zeta"), node("a.ts:alpha", "alpha")],
            );
            late.nodes_done();
            late.nodes(2, vec![node("a.ts:mid", "mid")]);
            assert_eq!(terms_of(&late.finish().unwrap()), expected);
        }
    }
}
