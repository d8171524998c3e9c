//! Facts about the machine and the process: cores, CPU model, peak resident memory.

use std::fs;

/// Logical cores available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The CPU model from `/proc/cpuinfo`, or `"unknown"`.
pub fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Total memory in bytes from `/proc/meminfo`, if readable.
pub fn total_memory() -> Option<u64> {
    let text = fs::read_to_string("/proc/meminfo").ok()?;
    status_kib(&text, "MemTotal:").map(|kib| kib * 1024)
}

/// The process's peak resident set size in bytes (`VmHWM` in `/proc/self/status`); `None`
/// where there is no such file (not Linux).
pub fn peak_rss() -> Option<u64> {
    let text = fs::read_to_string("/proc/self/status").ok()?;
    status_kib(&text, "VmHWM:").map(|kib| kib * 1024)
}

/// Resets the peak RSS to the current RSS (writing `5` to `/proc/self/clear_refs`, Linux 4.0
/// and later), so that the next [`peak_rss`] covers only what runs after this call. Returns
/// false when the kernel refuses; the peak then covers the whole process so far.
pub fn reset_peak_rss() -> bool {
    fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The value in KiB of a `Name:   1234 kB` line.
fn status_kib(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find(|l| l.starts_with(name))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// `bytes` in binary units with one decimal (`12.3 MiB`).
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
