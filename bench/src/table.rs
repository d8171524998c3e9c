//! A plain-text table: rows of cells, columns padded to their widest cell.

/// A table being built row by row, printed with [`Table::render`].
#[derive(Debug, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new(header: &[&str]) -> Self {
        Table {
            header: header.iter().map(|h| (*h).to_owned()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells print empty, extra cells are kept).
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        self.rows
            .push(cells.iter().map(|c| c.as_ref().to_owned()).collect());
    }

    /// Appends a separator line.
    pub fn separator(&mut self) {
        self.rows.push(Vec::new());
    }

    /// The table as text: a header, a rule, the rows (numbers are not right-aligned; every
    /// column is left-aligned so that units line up with their figures).
    pub fn render(&self) -> String {
        let columns = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
        let mut widths = vec![0usize; columns];
        for row in std::iter::once(&self.header).chain(&self.rows) {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let total: usize = widths.iter().sum::<usize>() + 3 * columns.saturating_sub(1);
        let mut out = String::new();
        let line = |out: &mut String, row: &[String]| {
            let mut text = String::new();
            for (i, w) in widths.iter().enumerate() {
                if i > 0 {
                    text.push_str(" | ");
                }
                let cell = row.get(i).map_or("", String::as_str);
                text.push_str(cell);
                text.extend(std::iter::repeat_n(' ', w - cell.chars().count()));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        };
        line(&mut out, &self.header);
        out.push_str(&"-".repeat(total));
        out.push('\n');
        for row in &self.rows {
            if row.is_empty() {
                out.push_str(&"-".repeat(total));
                out.push('\n');
            } else {
                line(&mut out, row);
            }
        }
        out
    }
}
