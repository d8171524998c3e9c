//! The benchmark report as Markdown: readable in a terminal, and a file a team can commit
//! next to its numbers.

use std::io::{self, Write};
use std::time::Duration;

use super::machine::{cores, cpu_model, human_bytes, total_memory};
use super::{BenchReport, QueryLatency};

impl BenchReport {
    /// Writes the report as Markdown; `chart`, when given, is the file name of the latency
    /// chart to link.
    pub fn write_markdown(&self, out: &mut dyn Write, chart: Option<&str>) -> io::Result<()> {
        let index = &self.index;
        writeln!(out, "# tsgraph bench: {}\n", self.root.display())?;
        writeln!(
            out,
            "tsgraph {}; {} cores, {}, {} RAM\n",
            env!("CARGO_PKG_VERSION"),
            cores(),
            cpu_model(),
            total_memory().map_or_else(|| "?".to_owned(), human_bytes)
        )?;

        writeln!(out, "## Index (fresh, into a temporary store)\n")?;
        writeln!(out, "| measure | value |\n|---|---|")?;
        writeln!(
            out,
            "| files / lines / source | {} / {} / {} |",
            index.files,
            index.lines,
            human_bytes(index.bytes)
        )?;
        for (phase, time) in [
            ("walk, parse, extract", index.parse_time),
            ("resolve and link (overlaps writing)", index.link_time),
            ("write the store (overlaps linking)", index.write_time),
            ("total", index.total_time),
        ] {
            writeln!(out, "| {phase} | {} |", millis(time))?;
        }
        let seconds = index.total_time.as_secs_f64().max(1e-9);
        writeln!(
            out,
            "| throughput | {:.0} lines/s, {:.1} MB/s |",
            index.lines as f64 / seconds,
            index.bytes as f64 / 1e6 / seconds
        )?;
        match self.peak_rss {
            // Per million lines only where the fixed cost of the process no longer dominates.
            Some(rss) if index.lines >= 100_000 => writeln!(
                out,
                "| peak RSS (index) | {} ({} per million lines) |",
                human_bytes(rss),
                human_bytes(per_million(rss, index.lines))
            )?,
            Some(rss) => writeln!(out, "| peak RSS (index) | {} |", human_bytes(rss))?,
            None => writeln!(out, "| peak RSS (index) | not reported by this OS |")?,
        }
        writeln!(
            out,
            "| store | {} ({} bytes per node, {} per edge) |",
            human_bytes(self.store_bytes),
            self.store_bytes / (index.nodes.max(1) as u64),
            self.store_bytes / (index.edges.max(1) as u64)
        )?;
        writeln!(
            out,
            "| parse errors | {:.2}% of bytes inside ERROR nodes{} |",
            index.error_share() * 100.0,
            worst_files(index)
        )?;
        writeln!(
            out,
            "| call sites resolved | {} of {} |",
            index.resolved_calls,
            index.resolved_calls + index.unresolved_calls
        )?;

        writeln!(out, "\n## Store, by table\n")?;
        writeln!(
            out,
            "| table | keys and values | branches, metadata | unused in pages |\n|---|---|---|---|"
        )?;
        for table in self.store_tables.iter().filter(|t| t.total() > 0) {
            writeln!(
                out,
                "| {} | {} | {} | {} |",
                table.table,
                human_bytes(table.stored_bytes),
                human_bytes(table.metadata_bytes),
                human_bytes(table.fragmented_bytes)
            )?;
        }

        writeln!(out, "\n## Graph\n")?;
        writeln!(
            out,
            "| nodes | count | | edges | count |\n|---|---|---|---|---|"
        )?;
        let nodes = kind_cells(&self.nodes_by_kind);
        let edges = kind_cells(&index.edges_by_kind);
        let empty = " | ".to_owned();
        for row in 0..nodes.len().max(edges.len()) {
            writeln!(
                out,
                "| {} | | {} |",
                nodes.get(row).unwrap_or(&empty),
                edges.get(row).unwrap_or(&empty)
            )?;
        }
        writeln!(
            out,
            "| **all** | **{}** | | **all** | **{}** |",
            index.nodes, index.edges
        )?;

        write_latency_table(out, self.samples, &self.latencies)?;
        writeln!(out, "\n## Open to first answer\n")?;
        writeln!(out, "| how | median of 5 |\n|---|---|")?;
        writeln!(
            out,
            "| open the store and answer `callers` in this process | {} |",
            micros(self.first_answer_in_process)
        )?;
        if let Some((answer, floor)) = self.first_answer_fresh_process {
            writeln!(
                out,
                "| `tsgraph callers` in a fresh process | {} (the process alone, `tsgraph --version`: {}) |",
                micros(answer),
                micros(floor)
            )?;
        }
        if let Some(chart) = chart {
            writeln!(out, "\n![Latency distribution of each query]({chart})")?;
        }
        Ok(())
    }
}

/// Writes the query-latency section: one row per query with its percentiles.
pub fn write_latency_table(
    out: &mut dyn Write,
    samples: usize,
    latencies: &[QueryLatency],
) -> io::Result<()> {
    writeln!(
        out,
        "\n## Query latency\n\nWarm, in this process, over {} sampled functions, methods and classes; \
             traversals to depth 5 and at most 1,000 results, encoded as TOON.\n",
        samples
    )?;
    writeln!(
        out,
        "| query | p50 | p90 | p99 | max | results: mean (p10 / p50 / p90) | edges streamed (mean) | cut at the limit |\n|---|---|---|---|---|---|---|---|"
    )?;
    for latency in latencies {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.1} ({} / {} / {}) | {:.1} | {} |",
            latency.name,
            micros(latency.percentile(50.0)),
            micros(latency.percentile(90.0)),
            micros(latency.percentile(99.0)),
            micros(latency.percentile(100.0)),
            latency.mean_results(),
            latency.results_percentile(10.0),
            latency.results_percentile(50.0),
            latency.results_percentile(90.0),
            latency.mean_edges(),
            match latency.truncated_median() {
                Some(median) => format!("{} (p50 {})", latency.truncated.len(), micros(median)),
                None => "0".to_owned(),
            }
        )?;
    }
    Ok(())
}

/// `Kind | count` for each kind present.
fn kind_cells<K: std::fmt::Display, N: Copy + TryInto<u64>>(counts: &[(K, N)]) -> Vec<String> {
    counts
        .iter()
        .map(|(kind, n)| (kind, (*n).try_into().unwrap_or(u64::MAX)))
        .filter(|(_, n)| *n > 0)
        .map(|(kind, n)| format!("{kind} | {n}"))
        .collect()
}

/// The three files with the most bytes inside ERROR nodes, when there are any.
fn worst_files(index: &tsgraph::indexer::IndexSummary) -> String {
    let worst: Vec<String> = index
        .error_files
        .iter()
        .take(3)
        .map(|(path, errors, _)| format!("{path} {errors} B"))
        .collect();
    if worst.is_empty() {
        String::new()
    } else {
        format!("; worst: {}", worst.join(", "))
    }
}

fn per_million(value: u64, lines: u64) -> u64 {
    if lines == 0 {
        0
    } else {
        (value as f64 * 1e6 / lines as f64) as u64
    }
}

fn millis(time: Duration) -> String {
    format!("{:.0} ms", time.as_secs_f64() * 1e3)
}

/// A latency in µs below 10 ms, else in ms.
pub(super) fn micros(time: Duration) -> String {
    let micros = time.as_secs_f64() * 1e6;
    if micros < 10_000.0 {
        format!("{micros:.0} µs")
    } else {
        format!("{:.1} ms", micros / 1e3)
    }
}
