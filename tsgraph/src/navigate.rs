//! Editor navigation over one snapshot: the symbol at a place in a file, and one hop of
//! calls, supertypes, subtypes and uses around a symbol, as plain data with the lines of each
//! use. A language server's call and type hierarchies and its references are built on this,
//! and an editor extension asks the same questions the same way.
//!
//! Lines are one-based, as the graph stores them. The graph records lines, not columns: a
//! front end that needs a column finds the name on the line in the file's text.

use tsgraph_engine::{EdgeKind, NodeKey, NodeKind, NodeView, Snapshot};

use crate::error::Error;

/// A node as an editor shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The node ID (`src/a.ts:Class.method`).
    pub id: String,
    /// Its simple name (`method`); the path for a file.
    pub name: String,
    /// Its kind.
    pub kind: NodeKind,
    /// Its file, relative to the project root.
    pub file: String,
    /// Its first and last line (one-based).
    pub lines: (u32, u32),
    /// Its parameters and type as declared (`(id: string): User`), empty when it has none.
    pub signature: String,
    /// Its module (the folder of its nearest module marker, `.` for the root).
    pub module: String,
    /// Its package (the package.json name), empty outside any.
    pub package: String,
    /// Whether its file exports it.
    pub exported: bool,
}

/// The other end of an edge, with the lines where the use is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    /// The symbol at the other end.
    pub symbol: Symbol,
    /// The edge's kind.
    pub kind: EdgeKind,
    /// The lines of the uses, in the file of the edge's source (one-based, ascending); empty
    /// for the kinds that record none (EXTENDS, IMPLEMENTS, USES_TYPE, CONTAINS): the use
    /// then lies within the source's lines.
    pub lines: Vec<u32>,
    /// A CALLS edge that may happen: dispatch to an override or implementation, or an entry
    /// of a table called by a computed key.
    pub may_call: bool,
}

/// One hop around a symbol, at most `limit` uses, nearest file first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Uses {
    /// The uses listed, by file and line of the other end.
    pub uses: Vec<Use>,
    /// How many there are in all (more than listed when the limit cut them).
    pub total: usize,
}

/// The graph edges a call hierarchy follows: calls, and JSX elements that render a component.
const CALL_KINDS: [EdgeKind; 2] = [EdgeKind::Calls, EdgeKind::Includes];
/// The edges a type hierarchy follows.
const TYPE_KINDS: [EdgeKind; 2] = [EdgeKind::Extends, EdgeKind::Implements];

/// Navigation questions over one snapshot.
///
/// ```
/// use tsgraph::{Project, navigate::Navigator};
///
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.ts"), "export function main() {\n  helper();\n}\nfunction helper() {}\n").unwrap();
/// let project = Project::open(dir.path(), None).unwrap();
/// project.index(&Default::default()).unwrap();
/// let snapshot = project.snapshot().unwrap();
/// let nav = Navigator::new(&snapshot);
/// // The cursor on `helper` in line 2 names the function declared in line 4.
/// let at = nav.symbols_at("a.ts", 2, "helper").unwrap();
/// assert_eq!(at[0].id, "a.ts:helper");
/// let callers = nav.calls_in("a.ts:helper", 100).unwrap();
/// assert_eq!((callers.uses[0].symbol.id.as_str(), callers.uses[0].lines.as_slice()), ("a.ts:main", &[2][..]));
/// ```
pub struct Navigator<'s> {
    snapshot: &'s Snapshot,
}

impl<'s> Navigator<'s> {
    /// Navigation over `snapshot`.
    pub fn new(snapshot: &'s Snapshot) -> Navigator<'s> {
        Navigator { snapshot }
    }

    /// The snapshot it reads.
    pub fn snapshot(&self) -> &'s Snapshot {
        self.snapshot
    }

    /// The node with ID `id`, if there is one.
    pub fn symbol(&self, id: &str) -> Result<Option<Symbol>, Error> {
        match self.snapshot.key_of(id)? {
            Some(key) => self.symbol_of(key).map(Some),
            None => Ok(None),
        }
    }

    /// What `word` at `line` of `file` names: the symbol declared there under that name,
    /// else what the innermost declaration around the line uses under that name on that
    /// line (a call, a type, an import), else what it uses under that name anywhere. Empty
    /// when the graph knows of nothing (an unresolved name, a local variable).
    pub fn symbols_at(&self, file: &str, line: u32, word: &str) -> Result<Vec<Symbol>, Error> {
        let Some(keys) = self.snapshot.file_keys(file)? else {
            return Ok(Vec::new());
        };
        let mut declared = Vec::new();
        let mut around = Vec::new();
        for key in keys {
            let Some(guard) = self.snapshot.node(key)? else {
                continue;
            };
            let node = guard.view()?;
            if node.name() == word && node.start_line() == line && node.kind() != NodeKind::File {
                declared.push((span(&node), key));
            }
            if node.start_line() <= line && line <= node.end_line() {
                around.push((span(&node), key));
            }
        }
        if let Some(&(_, key)) = declared.iter().min() {
            return Ok(vec![self.symbol_of(key)?]);
        }
        // Innermost first: the narrowest declaration around the line, the file node last.
        around.sort_unstable();
        for (_, key) in around {
            let used = self.used_by(key, line, word)?;
            if !used.is_empty() {
                return used.into_iter().map(|k| self.symbol_of(k)).collect();
            }
        }
        Ok(Vec::new())
    }

    /// What `key` uses under the name `word`: on `line` when the edge records lines (a
    /// use recorded on other lines is another use, perhaps of another thing of that name,
    /// and is not taken), anywhere in `key` when it records none (a type, a base class),
    /// and through an import of that name on that line (the imported file's declaration).
    fn used_by(&self, key: NodeKey, line: u32, word: &str) -> Result<Vec<NodeKey>, Error> {
        let list = self.snapshot.out_edges(key)?;
        let (mut on_line, mut unplaced) = (Vec::new(), Vec::new());
        for edge in list.edges()? {
            if edge.kind() == EdgeKind::Contains {
                continue;
            }
            let facts = edge.view()?;
            if edge.kind() == EdgeKind::Imports {
                if facts.names().any(|name| name == word) && facts.sites().any(|s| s == line) {
                    on_line.extend(self.declared_in(edge.other(), word)?);
                }
                continue;
            }
            let Some(guard) = self.snapshot.node(edge.other())? else {
                continue;
            };
            if guard.view()?.name() != word {
                continue;
            }
            if facts.sites().len() == 0 {
                unplaced.push(edge.other());
            } else if facts.sites().any(|site| site == line) {
                on_line.push(edge.other());
            }
        }
        let mut found = if on_line.is_empty() {
            unplaced
        } else {
            on_line
        };
        found.sort_unstable();
        found.dedup();
        Ok(found)
    }

    /// The top-level declaration named `name` of the file node `file`.
    fn declared_in(&self, file: NodeKey, name: &str) -> Result<Option<NodeKey>, Error> {
        let list = self.snapshot.out_edges(file)?;
        for edge in list.edges()? {
            if edge.kind() == EdgeKind::Contains
                && let Some(guard) = self.snapshot.node(edge.other())?
                && guard.view()?.name() == name
            {
                return Ok(Some(edge.other()));
            }
        }
        Ok(None)
    }

    /// Who calls (or renders) `id` directly, each with the lines of its calls.
    pub fn calls_in(&self, id: &str, limit: usize) -> Result<Uses, Error> {
        self.incoming(id, &CALL_KINDS, limit)
    }

    /// What `id` calls (or renders) directly, each with the lines of the calls.
    pub fn calls_out(&self, id: &str, limit: usize) -> Result<Uses, Error> {
        self.outgoing(id, &CALL_KINDS, limit)
    }

    /// How many calls (and renders) reach `id` directly, counted without reading the callers.
    pub fn count_calls_in(&self, id: &str) -> Result<usize, Error> {
        self.count_calls(id, true)
    }

    /// How many symbols `id` calls (or renders) directly, counted without reading them.
    pub fn count_calls_out(&self, id: &str) -> Result<usize, Error> {
        self.count_calls(id, false)
    }

    fn count_calls(&self, id: &str, incoming: bool) -> Result<usize, Error> {
        let key = self.key(id)?;
        let list = if incoming {
            self.snapshot.in_edges(key)?
        } else {
            self.snapshot.out_edges(key)?
        };
        Ok(list
            .edges()?
            .filter(|edge| CALL_KINDS.contains(&edge.kind()))
            .count())
    }

    /// What `id` extends or implements.
    pub fn supertypes(&self, id: &str, limit: usize) -> Result<Uses, Error> {
        self.outgoing(id, &TYPE_KINDS, limit)
    }

    /// What extends or implements `id`.
    pub fn subtypes(&self, id: &str, limit: usize) -> Result<Uses, Error> {
        self.incoming(id, &TYPE_KINDS, limit)
    }

    /// Every use of `id` by another node: calls, renders, references, type uses, extends
    /// and implements (not the file or class that contains it; imports name files, not
    /// symbols, so an import of it is not among them).
    pub fn uses(&self, id: &str, limit: usize) -> Result<Uses, Error> {
        let kinds: Vec<EdgeKind> = EdgeKind::ALL
            .iter()
            .copied()
            .filter(|kind| *kind != EdgeKind::Contains)
            .collect();
        self.incoming(id, &kinds, limit)
    }

    fn key(&self, id: &str) -> Result<NodeKey, Error> {
        self.snapshot
            .key_of(id)?
            .ok_or_else(|| Error::SymbolNotFound {
                symbol: id.to_owned(),
                file: None,
                suggestions: Vec::new(),
                elsewhere: Vec::new(),
            })
    }

    /// The edges of `kinds` into `id`, with the lines each source records.
    fn incoming(&self, id: &str, kinds: &[EdgeKind], limit: usize) -> Result<Uses, Error> {
        let key = self.key(id)?;
        let list = self.snapshot.in_edges(key)?;
        let mut uses = Vec::new();
        for edge in list.edges()? {
            if !kinds.contains(&edge.kind()) {
                continue;
            }
            // Incoming lists carry no facts: they live once, with the source.
            let source = self.snapshot.out_edges(edge.other())?;
            let (lines, may_call) = match source.find(edge.kind(), key)? {
                Some(stored) => (stored.view()?.sites().collect(), is_may_call(&stored)),
                None => (Vec::new(), false),
            };
            uses.push((edge.other(), edge.kind(), lines, may_call));
        }
        self.listed(uses, limit)
    }

    /// The edges of `kinds` out of `id`, with the lines they record.
    fn outgoing(&self, id: &str, kinds: &[EdgeKind], limit: usize) -> Result<Uses, Error> {
        let key = self.key(id)?;
        let list = self.snapshot.out_edges(key)?;
        let mut uses = Vec::new();
        for edge in list.edges()? {
            if kinds.contains(&edge.kind()) {
                let lines = edge.view()?.sites().collect();
                uses.push((edge.other(), edge.kind(), lines, is_may_call(&edge)));
            }
        }
        self.listed(uses, limit)
    }

    /// The first `limit` of `found` by the other end's file and line, as symbols.
    fn listed(
        &self,
        found: Vec<(NodeKey, EdgeKind, Vec<u32>, bool)>,
        limit: usize,
    ) -> Result<Uses, Error> {
        let total = found.len();
        let mut uses = found
            .into_iter()
            .map(|(key, kind, lines, may_call)| {
                Ok(Use {
                    symbol: self.symbol_of(key)?,
                    kind,
                    lines,
                    may_call,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        uses.sort_by(|a, b| {
            (&a.symbol.file, a.symbol.lines.0, &a.symbol.id, a.kind).cmp(&(
                &b.symbol.file,
                b.symbol.lines.0,
                &b.symbol.id,
                b.kind,
            ))
        });
        uses.truncate(limit);
        Ok(Uses { uses, total })
    }

    /// The symbol whose node is `key`.
    pub fn symbol_of(&self, key: NodeKey) -> Result<Symbol, Error> {
        let guard = self
            .snapshot
            .node(key)?
            .ok_or(tsgraph_query::QueryError::MissingNode(key.0))?;
        let node = guard.view()?;
        Ok(Symbol {
            id: node.id().to_owned(),
            name: node.name().to_owned(),
            kind: node.kind(),
            file: node.file().to_owned(),
            lines: (node.start_line(), node.end_line()),
            signature: signature(&node),
            module: node.module().to_owned(),
            package: node.package().to_owned(),
            exported: node.exported(),
        })
    }
}

/// How many lines a node spans: the narrower sorts first.
fn span(node: &NodeView<'_>) -> u32 {
    node.end_line().saturating_sub(node.start_line())
}

fn is_may_call(edge: &tsgraph_engine::EdgeRef<'_>) -> bool {
    edge.kind() == EdgeKind::Calls && edge.resolution().is_may_call()
}

/// `(parameters): type` for functions and methods, `: type` for the rest, as declared.
fn signature(node: &NodeView<'_>) -> String {
    let parameters: Vec<&str> = node.parameters().collect();
    let callable = matches!(node.kind(), NodeKind::Function | NodeKind::Method);
    let mut out = String::new();
    if callable {
        out.push('(');
        out.push_str(&parameters.join(", "));
        out.push(')');
    }
    if !node.type_text().is_empty() {
        out.push_str(": ");
        out.push_str(node.type_text());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Project;

    fn indexed(files: &[(&str, &str)]) -> (tempfile::TempDir, Project) {
        let dir = tempfile::tempdir().expect("temp dir");
        for (path, text) in files {
            std::fs::write(dir.path().join(path), text).expect("write");
        }
        let project = Project::open(dir.path(), None).expect("open");
        project.index(&Default::default()).expect("index");
        (dir, project)
    }

    #[test]
    fn a_name_on_a_line_without_its_use_names_nothing() {
        let util = "export function format(n: number): string {\n  return String(n);\n}\n";
        let main = "import { format } from \"./util\";\nexport function main() {\n  format(1);\n  const o = { format: 2 };\n  return o.format;\n}\n";
        let (_dir, project) = indexed(&[("util.ts", util), ("main.ts", main)]);
        let snapshot = project.snapshot().expect("snapshot");
        let nav = Navigator::new(&snapshot);
        let at = |line| -> Vec<String> {
            let found = nav.symbols_at("main.ts", line, "format").expect("symbols");
            found.into_iter().map(|s| s.id).collect()
        };
        assert_eq!(at(3), ["util.ts:format"], "the call");
        assert_eq!(at(1), ["util.ts:format"], "the import");
        assert!(at(4).is_empty(), "a property of the same name");
        assert!(at(5).is_empty(), "a member read of the same name");
        assert_eq!(at(2), Vec::<String>::new(), "a line with no use");
    }

    #[test]
    fn one_hop_lists_are_cut_at_the_limit_and_say_the_total() {
        let lib = "export function hub() {}\n";
        let calls: String = (0..5)
            .map(|i| format!("export function c{i}() {{ hub(); }}\n"))
            .collect();
        let main = format!("import {{ hub }} from \"./lib\";\n{calls}");
        let (_dir, project) = indexed(&[("lib.ts", lib), ("main.ts", &main)]);
        let snapshot = project.snapshot().expect("snapshot");
        let nav = Navigator::new(&snapshot);
        let callers = nav.calls_in("lib.ts:hub", 3).expect("callers");
        assert_eq!(callers.total, 5);
        let listed: Vec<(&str, &[u32])> = callers
            .uses
            .iter()
            .map(|u| (u.symbol.id.as_str(), u.lines.as_slice()))
            .collect();
        assert_eq!(
            listed,
            [
                ("main.ts:c0", &[2][..]),
                ("main.ts:c1", &[3][..]),
                ("main.ts:c2", &[4][..])
            ]
        );
        assert!(nav.calls_in("lib.ts:nothing", 3).is_err());
    }
}
