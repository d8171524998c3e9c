//! A counting global allocator: allocations, bytes, current and peak heap, switched on only
//! around the code being measured so that timed runs pay nothing but one relaxed load.
//!
//! A binary installs it with
//! `#[global_allocator] static ALLOC: CountingAlloc = CountingAlloc;` and then wraps the
//! code to measure in [`measure`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The system allocator with counters; see the module docs.
pub struct CountingAlloc;

static TRACKING: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
/// Live bytes allocated while tracking, minus bytes freed while tracking. It can go below the
/// value it had when tracking started (frees of older blocks), so it wraps as `usize`
/// arithmetic and is only read relative to its starting value.
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(by: usize) {
    let now = CURRENT.fetch_add(by, Relaxed).wrapping_add(by);
    // Compare as offsets from the (large) starting point set in `measure`, so a temporary dip
    // below the start does not read as a huge peak.
    PEAK.fetch_max(now, Relaxed);
}

fn shrink(by: usize) {
    CURRENT.fetch_sub(by, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the
// counters never influence what is allocated.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (the caller upholds `GlobalAlloc::alloc`'s contract).
        let ptr = unsafe { System.alloc(layout) };
        if TRACKING.load(Relaxed) && !ptr.is_null() {
            ALLOCS.fetch_add(1, Relaxed);
            BYTES.fetch_add(layout.size() as u64, Relaxed);
            grow(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if TRACKING.load(Relaxed) && !ptr.is_null() {
            ALLOCS.fetch_add(1, Relaxed);
            BYTES.fetch_add(layout.size() as u64, Relaxed);
            grow(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) };
        if TRACKING.load(Relaxed) {
            shrink(layout.size());
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if TRACKING.load(Relaxed) && !new.is_null() {
            REALLOCS.fetch_add(1, Relaxed);
            BYTES.fetch_add(new_size as u64, Relaxed);
            if new == ptr {
                // Resized in place: only the difference was ever live.
                if new_size >= layout.size() {
                    grow(new_size - layout.size());
                } else {
                    shrink(layout.size() - new_size);
                }
            } else {
                // Moved: old and new block were both live while the bytes were copied.
                grow(new_size);
                shrink(layout.size());
            }
        }
        new
    }
}

/// What the allocator saw during one [`measure`] call.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllocStats {
    /// Calls to `alloc` / `alloc_zeroed`.
    pub allocs: u64,
    /// Calls to `realloc` (each may allocate a new block).
    pub reallocs: u64,
    /// Bytes requested by those calls (a realloc counts its new size).
    pub bytes: u64,
    /// The highest heap in use during the call, above what was in use when it started.
    pub peak_above_start: usize,
    /// Heap in use when the call ended, above what was in use when it started (negative when
    /// the call freed older blocks).
    pub retained: isize,
}

impl AllocStats {
    /// Allocations of either kind (`alloc` + `realloc`).
    pub fn allocations(&self) -> u64 {
        self.allocs + self.reallocs
    }
}

/// The value `CURRENT` starts from in [`measure`]: far from both ends of `usize`, so frees of
/// blocks allocated before the call can lower it without wrapping.
const START: usize = usize::MAX / 2;

/// Runs `f` with counting switched on and returns its result with what it allocated.
///
/// Only allocations on any thread during `f` are counted, so call it from a quiet,
/// single-threaded section. Results are dropped by the caller, outside the measurement.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, AllocStats) {
    ALLOCS.store(0, Relaxed);
    REALLOCS.store(0, Relaxed);
    BYTES.store(0, Relaxed);
    CURRENT.store(START, Relaxed);
    PEAK.store(START, Relaxed);
    TRACKING.store(true, Relaxed);
    let result = f();
    TRACKING.store(false, Relaxed);
    let current = CURRENT.load(Relaxed);
    let stats = AllocStats {
        allocs: ALLOCS.load(Relaxed),
        reallocs: REALLOCS.load(Relaxed),
        bytes: BYTES.load(Relaxed),
        peak_above_start: PEAK.load(Relaxed).saturating_sub(START),
        retained: current.wrapping_sub(START) as isize,
    };
    (result, stats)
}
