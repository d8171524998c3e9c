//! The latency chart: for each query, the share of samples answered within a time (an
//! empirical distribution function), on a logarithmic time axis, as SVG.

use std::path::Path;

use plotters::prelude::*;

use super::QueryLatency;
use tsgraph::Error;

/// Writes the chart of `latencies` to `path` as SVG.
pub fn write_latency_chart(path: &Path, latencies: &[QueryLatency]) -> Result<(), Error> {
    draw(path, latencies).map_err(|err| Error::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(err.to_string()),
    })
}

fn draw(path: &Path, latencies: &[QueryLatency]) -> Result<(), Box<dyn std::error::Error>> {
    let micros = |d: std::time::Duration| (d.as_secs_f64() * 1e6).max(0.1);
    let all = latencies.iter().flat_map(|l| l.times.iter().copied());
    let (low, high) = all.fold((f64::MAX, 0.0f64), |(lo, hi), t| {
        (lo.min(micros(t)), hi.max(micros(t)))
    });
    let (low, high) = if high <= 0.0 {
        (1.0, 10.0)
    } else {
        (low / 1.5, high * 1.5)
    };

    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("tsgraph query latency (warm)", ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d((low..high).log_scale(), 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc("latency (µs, log scale)")
        .y_desc("share of samples answered")
        .draw()?;
    for (i, latency) in latencies.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let count = latency.times.len().max(1) as f64;
        let points = latency
            .times
            .iter()
            .enumerate()
            .map(|(rank, time)| (micros(*time), (rank + 1) as f64 / count));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))?
            .label(latency.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{QueryLatency, write_latency_chart};

    #[test]
    fn the_chart_is_an_svg_with_one_line_per_query() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("latency.svg");
        let latency = |name, base: u64| QueryLatency {
            name,
            times: (1..=50).map(|i| Duration::from_micros(base * i)).collect(),
            sizes: Vec::new(),
            truncated: Vec::new(),
        };
        write_latency_chart(&path, &[latency("callers", 3), latency("path", 40)]).expect("chart");
        let svg = std::fs::read_to_string(&path).expect("written");
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        assert!(svg.contains("callers") && svg.contains("path"));
        // Series are drawn 2 px wide (the mesh 1 px): a line and a legend mark per query.
        let wide = svg
            .split("<polyline")
            .filter(|element| element.contains("stroke-width=\"2\""))
            .count();
        assert_eq!(wide, 2 + 2, "two lines, two legend marks");
    }
}
