//! CPU-time sampling: per-thread CPU clocks, medians, and interleaved rounds over several
//! contenders so that drift on a shared machine hits all of them alike.

use std::hint::black_box;
use std::time::Duration;

use anyhow::{Result, bail};

/// CPU time consumed so far by the calling thread.
///
/// Thread CPU time rather than wall time: another process on the (shared) machine delays
/// the benchmark without being charged to it. It still pays for cache misses it causes.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on
    // every Linux since 2.6.12. On failure `ts` stays zero and the sample reads as 0.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}

/// Runs `f` once and returns its result with the thread CPU time it took. The result is
/// returned, not dropped, so freeing it is not timed.
pub fn time_cpu<R>(f: impl FnOnce() -> R) -> (R, Duration) {
    let start = thread_cpu_time();
    let result = black_box(f());
    let elapsed = thread_cpu_time().saturating_sub(start);
    (result, elapsed)
}

/// The median of `samples` (the mean of the two middle ones for an even count).
pub fn median(samples: &[Duration]) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    }
}

/// One benchmarked operation. The closure does the work and returns whatever it produced
/// (dropped after the clock stops); `every` > 1 runs it only in every n-th round, for
/// contenders too slow to run as often as the others.
pub struct Contender<'a> {
    /// The row label.
    pub name: &'static str,
    /// Run in rounds `0, every, 2 * every, …` only.
    pub every: usize,
    /// The operation.
    pub run: Box<dyn FnMut() -> Result<Box<dyn std::any::Any>> + 'a>,
}

/// Timing samples of one contender.
#[derive(Debug, Clone)]
pub struct Samples {
    /// The contender's name.
    pub name: &'static str,
    /// One thread-CPU-time sample per round it ran in.
    pub times: Vec<Duration>,
}

impl Samples {
    /// The median sample.
    pub fn median(&self) -> Duration {
        median(&self.times)
    }
}

/// Runs every contender once per round for `rounds` rounds, rotating which goes first in
/// each round (interleaving: slow drift of the machine spreads over all of them), after one
/// untimed warm-up run each.
pub fn interleave(contenders: &mut [Contender<'_>], rounds: usize) -> Result<Vec<Samples>> {
    if contenders.is_empty() {
        bail!("nothing to measure");
    }
    for c in contenders.iter_mut() {
        drop((c.run)()?);
    }
    let mut samples: Vec<Samples> = contenders
        .iter()
        .map(|c| Samples {
            name: c.name,
            times: Vec::with_capacity(rounds),
        })
        .collect();
    let n = contenders.len();
    for round in 0..rounds {
        for k in 0..n {
            let i = (round + k) % n;
            let c = &mut contenders[i];
            if round % c.every.max(1) != 0 {
                continue;
            }
            let (out, took) = time_cpu(&mut c.run);
            drop(out?);
            samples[i].times.push(took);
        }
    }
    Ok(samples)
}

/// CPU time consumed so far by the whole process (all threads).
pub fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: as in `thread_cpu_time`.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}
