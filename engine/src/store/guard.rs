//! The engine's panic boundary. redb trusts the bytes of a file it shut down cleanly and may
//! panic on bytes it did not write (an `unreachable!` in its B-tree cursor, a UTF-8 `unwrap`,
//! debug assertions); every call into redb goes through [`Boundary::run`], which turns such a
//! panic into [`StoreError::Corrupted`] and marks the store so that nothing reads it again.
//!
//! The default panic hook would still print "thread … panicked at …" for a caught panic. A hook
//! installed once wraps whatever hook was there: inside a boundary, on the current thread, it
//! only records the message (which becomes the error's detail); everywhere else, and on every
//! other thread, it hands the panic to the previous hook unchanged.
//!
//! This relies on unwinding: built with `panic = "abort"`, a redb panic aborts the process.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::panic::{AssertUnwindSafe, PanicHookInfo};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};

use crate::error::StoreError;

thread_local! {
    /// How many boundaries the current thread is inside.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// The message of the last panic caught inside a boundary on this thread.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

fn install_hook() {
    // `take_hook` panics on a panicking thread (a store dropped while unwinding); the hook is
    // then installed by a later call.
    if std::thread::panicking() {
        return;
    }
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let inside = DEPTH.try_with(Cell::get).unwrap_or(0) > 0;
            // A second panic before the first was caught is one in a drop during unwinding,
            // which aborts the process: that one is shown.
            let first = LAST_PANIC
                .try_with(|last| last.borrow().is_none())
                .unwrap_or(false);
            if inside && first {
                let _ = LAST_PANIC.try_with(|last| *last.borrow_mut() = Some(describe(info)));
            } else {
                previous(info);
            }
        }));
    });
}

/// The panic's message and, in brackets, the file name and line it came from.
fn describe(info: &PanicHookInfo<'_>) -> String {
    let message = payload_text(info.payload());
    match info.location() {
        Some(at) => {
            let file = at.file().rsplit(['/', '\\']).next().unwrap_or(at.file());
            format!("{message} [{file}:{}]", at.line())
        }
        None => message,
    }
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic".to_owned()
    }
}

/// Runs `f`, turning a panic into `Err(detail)`.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    // `try_with`: a store kept in a thread-local may be dropped after these are gone.
    let _ = DEPTH.try_with(|depth| depth.set(depth.get() + 1));
    let result = std::panic::catch_unwind(AssertUnwindSafe(f));
    let _ = DEPTH.try_with(|depth| depth.set(depth.get().saturating_sub(1)));
    result.map_err(|payload| {
        LAST_PANIC
            .try_with(|last| last.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_else(|| payload_text(payload.as_ref()))
    })
}

/// The panic boundary of one store and its snapshots: the file's path for messages, and a flag
/// set by the first panic, after which the store is not touched again.
#[derive(Clone)]
pub(crate) struct Boundary {
    path: Arc<PathBuf>,
    poisoned: Arc<AtomicBool>,
}

impl Boundary {
    pub(crate) fn new(path: &Path) -> Boundary {
        Boundary {
            path: Arc::new(path.to_path_buf()),
            poisoned: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The store file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f`, which calls into redb: a panic becomes [`StoreError::Corrupted`] naming `what`,
    /// and so does any call after one. Every error names the store file.
    pub(crate) fn run<T>(
        &self,
        what: &str,
        f: impl FnOnce() -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if self.poisoned.load(Ordering::Acquire) {
            return Err(self.corrupted(what, "an earlier read of this store failed inside redb"));
        }
        match catch(f) {
            Ok(result) => result.map_err(|err| err.at(&self.path)),
            Err(detail) => {
                self.poisoned.store(true, Ordering::Release);
                Err(self.corrupted(what, detail))
            }
        }
    }

    /// The result of a read made outside the boundary (a graph file's bytes, read by
    /// tsgraph's own checked code, where no redb panic can arise), its error naming the store
    /// file as one from [`Boundary::run`] does.
    pub(crate) fn outside<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        result.map_err(|err| err.at(&self.path))
    }

    /// Whether a panic inside redb made this store unusable.
    pub(crate) fn is_poisoned(&self) -> bool {
        self.poisoned.load(Ordering::Acquire)
    }

    /// A [`StoreError::Corrupted`] naming the file and `what` was being done.
    pub(crate) fn corrupted(&self, what: &str, detail: impl ToString) -> StoreError {
        StoreError::corrupted(what, detail).at(&self.path)
    }
}

/// A redb object (database, read transaction, table, value guard) whose drop runs inside the boundary: closing a
/// database reads and writes the file, and a panic there is swallowed, since nothing is left
/// to report it to.
pub(crate) struct Quiet<T> {
    value: ManuallyDrop<T>,
}

impl<T> Quiet<T> {
    pub(crate) fn new(value: T) -> Quiet<T> {
        Quiet {
            value: ManuallyDrop::new(value),
        }
    }
}

impl<T> Deref for Quiet<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Quiet<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> Drop for Quiet<T> {
    fn drop(&mut self) {
        // SAFETY: `value` is dropped here once and never touched again: this is its owner's
        // drop, after which the `ManuallyDrop` itself goes away.
        let _ = catch(|| unsafe { ManuallyDrop::drop(&mut self.value) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_inside_the_boundary_is_an_error_with_its_message_and_poisons_the_store() {
        let boundary = Boundary::new(Path::new("g.redb"));
        let err = boundary
            .run("read node", || -> Result<(), StoreError> {
                panic!("bad page")
            })
            .expect_err("caught");
        let text = err.to_string();
        assert!(
            text.starts_with("g.redb (read node): the store is corrupt (bad page [guard.rs:"),
            "{text}"
        );
        let again = boundary.run("read ids", || Ok(1)).expect_err("poisoned");
        assert!(again.is_corrupted(), "{again}");
    }

    #[test]
    fn a_panic_outside_any_boundary_still_reaches_the_previous_hook() {
        // The hook is installed by the boundary; a panic elsewhere must still unwind as usual
        // (and be reported by the previous hook, which the test harness captures).
        let _ = Boundary::new(Path::new("g.redb")).run("x", || Ok(()));
        let outside = std::panic::catch_unwind(|| panic!("outside"));
        assert!(outside.is_err());
        assert_eq!(DEPTH.with(Cell::get), 0);
        assert!(LAST_PANIC.with(|last| last.borrow().is_none()));
    }
}
