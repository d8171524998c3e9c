//! The allocator setting the programs built on the library (the command line, the index
//! and live benchmarks) start with. A library does not change its host process's allocator
//! on its own: an editor's process or a server linking tsgraph keeps its settings unless it
//! asks.

/// Blocks of at least this many bytes get a mapping of their own (glibc's starting value).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 128 * 1024;

/// Keeps large blocks out of the allocator's heaps, so that a freed one goes back to the
/// system.
///
/// glibc raises its mapping threshold to the size of each mapped block freed (up to 32 MiB),
/// so after an index frees its first few-megabyte buffers, later ones (node batches, the
/// search terms, encoded summaries) come from the heaps of the threads that ask; freed,
/// they leave holes there that stay resident. Fixing the threshold (which also stops the
/// raising) took the peak resident memory of a full index of the 1M-line synthetic
/// monorepo from 255 to 245 MiB (2026-11-28) at the same speed. Does nothing on other
/// platforms and C libraries.
///
/// ```
/// tsgraph::tune_allocator();
/// ```
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets one of the allocator's parameters under its own lock; no memory
    // is touched, and an unaccepted value leaves the setting as it was.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
