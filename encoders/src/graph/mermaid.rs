//! The Mermaid encoder: a `flowchart` of a path, of neighbors, of the trees of callers,
//! callees and impact (each result drawn from the node it was reached through), and of the
//! packages of deps (an arrow from importer to imported, with the count of file imports),
//! with the queried node or package marked.
//!
//! A diagram listed in part (its token budget cut it) says so in `%%` comments: how many
//! nodes it draws of how many, the files of the rest and the `--offset` that continues it;
//! every diagram ends with `%% complete` or `%% incomplete`.
//!
//! Node ids are `n` followed by the node ID with every byte outside `[A-Za-z0-9]` written
//! as `_` and two hex digits — unique, stable and safe (no keyword, no `o`/`x` edge
//! ambiguity). Labels are quoted, with `"`, `#`, `&`, `<` and `>` written as Mermaid entity
//! codes.

use std::fmt::Write as _;
use std::io::{self, Write};

use tsgraph_query::engine::{EdgeKind, NodeView};
use tsgraph_query::{
    Answer, Budget, Dependency, Direction, EdgeInfo, Group, GroupLevel, Header, Listing, NodeInfo,
    QueryError, QueryKind, Question, ResultSink, SinkError, Summary,
};

use super::budget;
use super::node_fields::{label, lines_cell, unresolved_note};

/// Writes results as a Mermaid flowchart.
pub struct MermaidSink<W: Write> {
    out: W,
    kind: QueryKind,
    /// Deps: which way the arrows go from the package asked for.
    direction: Direction,
    id: String,
    other: String,
    label: String,
    lines: String,
    /// The answer's token budget and the offset it lists from.
    budget: Budget,
}

impl<W: Write> MermaidSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> MermaidSink<W> {
        MermaidSink {
            out,
            kind: QueryKind::Callers,
            direction: Direction::Out,
            id: String::new(),
            other: String::new(),
            label: String::new(),
            lines: String::new(),
            budget: Budget::UNBOUNDED,
        }
    }

    /// The same sink with a token budget (and the offset to list from): a diagram that
    /// does not fit draws the nodes that do, nearest first, and says what it left out.
    pub fn with_budget(mut self, budget: Budget) -> MermaidSink<W> {
        self.budget = budget;
        self
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn declare(&mut self, node: &NodeView<'_>, class: Option<&str>) -> io::Result<()> {
        node_id(node.id(), &mut self.id);
        lines_cell(node, &mut self.lines);
        self.label.clear();
        escape(label(node), &mut self.label);
        self.label.push_str("<br/>");
        escape(node.kind().as_str(), &mut self.label);
        self.label.push_str(" · ");
        escape(node.file(), &mut self.label);
        self.label.push(':');
        self.label.push_str(&self.lines);
        write!(self.out, "  {}[\"{}\"]", self.id, self.label)?;
        if let Some(class) = class {
            write!(self.out, ":::{class}")?;
        }
        writeln!(self.out)
    }

    fn arrow(
        &mut self,
        from: &str,
        to: &str,
        kind: EdgeKind,
        count: u32,
        dotted: bool,
    ) -> io::Result<()> {
        node_id(from, &mut self.id);
        node_id(to, &mut self.other);
        let arrow = if dotted { "-.->" } else { "-->" };
        if count > 1 {
            writeln!(
                self.out,
                "  {} {arrow}|\"{kind} ×{count}\"| {}",
                self.id, self.other
            )
        } else {
            writeln!(self.out, "  {} {arrow}|{kind}| {}", self.id, self.other)
        }
    }
}

impl<W: Write> MermaidSink<W> {
    /// Callers: a dashed note pointing at `node`, saying how many unresolved call sites of
    /// its name may reach it (its id is the node's with `_u` appended).
    fn unresolved(&mut self, count: usize, node: &NodeView<'_>) -> io::Result<()> {
        node_id(node.id(), &mut self.id);
        self.label.clear();
        escape(&unresolved_note(count, node), &mut self.label);
        writeln!(self.out, "  {}_u[\"{}\"]:::unresolved", self.id, self.label)?;
        writeln!(self.out, "  {}_u -.-> {}", self.id, self.id)
    }
}

/// The Mermaid id of a package: `p` (`x` outside the project) and the escaped name, so a
/// package never shares an id with a node or with an external package of its name.
fn package_id(name: &str, external: bool, out: &mut String) {
    node_id(name, out);
    out.replace_range(..1, if external { "x" } else { "p" });
}

impl<W: Write> MermaidSink<W> {
    /// Declares a package: its name, and its module or that it is outside the project.
    fn package(&mut self, name: &str, module: Option<&str>, class: Option<&str>) -> io::Result<()> {
        package_id(name, module.is_none(), &mut self.id);
        self.label.clear();
        escape(name, &mut self.label);
        match module {
            Some(module) => {
                self.label.push_str("<br/>package · ");
                escape(module, &mut self.label);
            }
            None => self.label.push_str("<br/>external package"),
        }
        write!(self.out, "  {}[\"{}\"]", self.id, self.label)?;
        if let Some(class) = class {
            write!(self.out, ":::{class}")?;
        }
        writeln!(self.out)
    }
}

/// The Mermaid id of a node ID (see the module docs).
fn node_id(id: &str, out: &mut String) {
    out.clear();
    out.push('n');
    for byte in id.bytes() {
        if byte.is_ascii_alphanumeric() {
            out.push(char::from(byte));
        } else {
            // Writing into a String cannot fail.
            let _ = write!(out, "_{byte:02x}");
        }
    }
}

/// Label text with the characters Mermaid would misread written as entity codes.
fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '&' => out.push_str("#amp;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
}

impl<W: Write> ResultSink for MermaidSink<W> {
    fn wants_edge_facts(&self) -> bool {
        // Edges are written with their call count alone.
        false
    }

    fn begin(&mut self, header: &Header<'_>) -> Result<(), SinkError> {
        self.kind = header.kind();
        writeln!(self.out, "flowchart LR")?;
        writeln!(
            self.out,
            "  classDef queried fill:#ff9,stroke:#333,stroke-width:3px"
        )?;
        match &header.question {
            Question::Traversal(t) => {
                self.direction = t.direction;
                let unresolved = t.walk.counts.unresolved;
                let callers = t.kind == QueryKind::Callers;
                if callers && unresolved > 0 {
                    writeln!(self.out, "  classDef unresolved stroke-dasharray:4 3")?;
                }
                self.declare(&t.root, Some("queried"))?;
                if callers && header.shape.sections == 0 && unresolved > 0 {
                    self.unresolved(unresolved, &t.root)?;
                }
            }
            Question::Deps(d) => {
                self.direction = d.direction;
                writeln!(self.out, "  classDef external stroke-dasharray:4 3")?;
                self.package(d.package, d.module, Some("queried"))?;
            }
            Question::Path(p) => {
                self.declare(&p.from, Some("queried"))?;
                self.declare(&p.to, Some("queried"))?;
                if p.reversed {
                    writeln!(
                        self.out,
                        "  %% reversed: no path the way asked, this one goes back"
                    )?;
                }
            }
            Question::ChangeImpact(change) => {
                for removed in change.removed {
                    writeln!(self.out, "  %% removed: {}", removed.id)?;
                    for place in change.named_at.iter().filter(|p| p.symbol == removed.id) {
                        let line = place.line.map(|l| format!(":{l}")).unwrap_or_default();
                        writeln!(
                            self.out,
                            "  %%   still named at {}{line} ({})",
                            place.file, place.how
                        )?;
                    }
                }
            }
            Question::Search(_) | Question::FileSymbols { .. } | Question::Export => {}
        }
        if let Some(listing) = header.listing {
            let traversal = header.walk().is_some();
            let bound = if listing.exact || !traversal {
                ""
            } else {
                " at least"
            };
            let order = if traversal { ", nearest first" } else { "" };
            writeln!(
                self.out,
                "  %% listed {} of{bound} {} nodes, from {}{order}",
                listing.listed, listing.total, listing.offset
            )?;
        }
        Ok(())
    }

    fn unlisted(&mut self, listing: &Listing<'_>) -> Result<bool, SinkError> {
        if listing.after() > 0 {
            writeln!(self.out, "  %% not listed: {} more", listing.after())?;
            for count in listing.unlisted_files {
                writeln!(self.out, "  %%   {}: {}", count.file, count.nodes)?;
            }
            if listing.more_files > 0 {
                writeln!(
                    self.out,
                    "  %%   {} more files: {}",
                    listing.more_files, listing.more_nodes
                )?;
            }
        }
        if let Some(offset) = listing.next_offset() {
            writeln!(
                self.out,
                "  %% next: offset {offset}, generation {}",
                listing.generation
            )?;
        }
        Ok(true)
    }

    fn budget(&self) -> Option<Budget> {
        Some(self.budget)
    }

    fn measure(&self, limit: usize, answer: &mut Answer<'_>) -> Result<Option<usize>, QueryError> {
        budget::measure(limit, MermaidSink::new, answer)
    }

    fn group(&mut self, group: &Group<'_>) -> Result<bool, SinkError> {
        if let (GroupLevel::Section, Some(target)) = (group.level, &group.node) {
            self.declare(target, None)?;
            if self.kind != QueryKind::Path {
                // A method of the queried class.
                node_id(target.id(), &mut self.id);
                writeln!(self.out, "  {}:::queried", self.id)?;
                if self.kind == QueryKind::Callers && group.unresolved > 0 {
                    self.unresolved(group.unresolved, target)?;
                }
            }
        }
        Ok(true)
    }

    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.declare(node, None)?;
        if let Some(via) = info.via {
            if self.kind != QueryKind::Neighbors {
                // Drawn in the stored direction: a caller calls, a dependent depends.
                let (from, to) = if via.from_node {
                    (node.id(), via.id)
                } else {
                    (via.id, node.id())
                };
                let count = via.edge.map_or(0, |e| e.count());
                // A call found by dispatch may happen: dotted.
                self.arrow(from, to, via.kind, count, info.may_call)?;
            }
        } else if let Some(parent) = info.parent {
            self.arrow(parent, node.id(), EdgeKind::Contains, 0, true)?;
        }
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        self.arrow(
            edge.source,
            edge.target,
            edge.kind,
            edge.count,
            // An implementation hop and a call that may happen are both dotted.
            edge.reversed || edge.may_call(),
        )?;
        Ok(true)
    }

    fn dependency(&mut self, d: &Dependency<'_>) -> Result<bool, SinkError> {
        let module = (!d.external).then_some(d.module);
        self.package(d.name, module, d.external.then_some("external"))?;
        // `via` is a package of the project: only those are followed further.
        package_id(d.via, false, &mut self.id);
        package_id(d.name, d.external, &mut self.other);
        let (from, to) = match self.direction {
            Direction::In => (&self.other, &self.id),
            _ => (&self.id, &self.other),
        };
        if d.imports > 1 {
            writeln!(
                self.out,
                "  {from} -->|\"{} ×{}\"| {to}",
                EdgeKind::Imports,
                d.imports
            )?;
        } else {
            writeln!(self.out, "  {from} -->|{}| {to}", EdgeKind::Imports)?;
        }
        Ok(true)
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), SinkError> {
        if summary.truncated && self.kind == QueryKind::Deps {
            writeln!(self.out, "  %% truncated at depth {}", summary.limit)?;
        } else if summary.truncated {
            writeln!(self.out, "  %% truncated at {} nodes", summary.limit)?;
        }
        if let Some(depth) = summary.deeper() {
            writeln!(self.out, "  %% more past depth {depth}")?;
        }
        let completeness = if summary.complete() {
            "complete"
        } else {
            "incomplete"
        };
        writeln!(self.out, "  %% {completeness}")?;
        Ok(self.out.flush()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_injective_and_safe() {
        let mut a = String::new();
        let mut b = String::new();
        node_id("src/a.ts:A.b", &mut a);
        node_id("src/a_ts:A.b", &mut b);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'));
        let mut label = String::new();
        escape("Map<string, \"x\"> & #", &mut label);
        assert_eq!(label, "Map#lt;string, #quot;x#quot;#gt; #amp; #35;");
    }
}
