//! Every file's nodes, assigned from its summary when first asked for.
//!
//! A full index asks for all of them (and assigns them on two threads first); an update in a
//! new process reaches the nodes of the few files it links and of what they link to, and
//! assigning every file's took about a fifth of restoring a project's state.

use std::sync::OnceLock;

use super::ids::{FileNodes, assign};
use crate::facts::FileFacts;
use crate::facts_table::FactsTable;
use crate::resolve::FileId;

/// The nodes of each file, by file id; a cell left empty is assigned on first use.
#[derive(Debug, Default)]
pub(crate) struct NodeTable {
    cells: Vec<OnceLock<FileNodes>>,
}

impl NodeTable {
    /// `count` files, none assigned yet.
    pub(crate) fn unassigned(count: usize) -> NodeTable {
        NodeTable {
            cells: (0..count).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Files whose nodes are assigned already, in file order.
    pub(crate) fn assigned(nodes: Vec<FileNodes>) -> NodeTable {
        NodeTable {
            cells: nodes.into_iter().map(OnceLock::from).collect(),
        }
    }

    /// How many files the table has.
    pub(crate) fn len(&self) -> usize {
        self.cells.len()
    }

    /// Replaces file `file`'s nodes.
    pub(crate) fn set(&mut self, file: FileId, nodes: FileNodes) {
        self.cells[file as usize] = OnceLock::from(nodes);
    }

    /// Adds the nodes of a new file, the next id.
    pub(crate) fn push(&mut self, nodes: FileNodes) {
        self.cells.push(OnceLock::from(nodes));
    }

    /// The nodes of `file`, when they were assigned.
    #[cfg(test)]
    pub(crate) fn assigned_of(&self, file: FileId) -> Option<&FileNodes> {
        self.cells[file as usize].get()
    }

    /// The table read against the summaries its nodes come from.
    pub(crate) fn view<'a>(&'a self, files: &'a FactsTable) -> Nodes<'a> {
        Nodes { table: self, files }
    }
}

/// A [`NodeTable`] with the summaries to assign from: what linking reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Nodes<'a> {
    table: &'a NodeTable,
    files: &'a FactsTable,
}

impl<'a> Nodes<'a> {
    /// The nodes of `file`, assigned now if they were not.
    pub(crate) fn of(self, file: FileId) -> &'a FileNodes {
        self.table.cells[file as usize].get_or_init(|| assign(self.files.get(file)))
    }

    /// How many files there are.
    pub(crate) fn len(self) -> usize {
        self.table.len()
    }

    /// Each file's summary and nodes, in file order.
    pub(crate) fn iter(self) -> impl Iterator<Item = (&'a FileFacts, &'a FileNodes)> + 'a {
        (0..self.len()).map(move |file| {
            let file = FileId::try_from(file).unwrap_or(FileId::MAX);
            (self.files.get(file), self.of(file))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::NodeTable;
    use crate::extract::Extractor;

    #[test]
    fn nodes_are_assigned_on_first_use_and_kept() {
        let mut extractor = Extractor::new().expect("grammar");
        let files = crate::facts_table::FactsTable::loaded(vec![
            extractor.extract("a.ts", b"export function a() {}\n", 1),
            extractor.extract("b.ts", b"export class B { m() {} }\n", 2),
        ]);
        let table = NodeTable::unassigned(files.len());
        assert!(table.assigned_of(1).is_none());
        let nodes = table.view(&files);
        let b = nodes.of(1);
        assert!(b.iter().any(|(symbol, _)| symbol == "B.m"));
        assert!(table.assigned_of(0).is_none(), "only what was asked for");
        assert!(std::ptr::eq(table.assigned_of(1).expect("kept"), b));
        let all: Vec<usize> = nodes.iter().map(|(_, n)| n.len()).collect();
        assert_eq!(all.len(), 2);
        assert!(table.assigned_of(0).is_some());
    }
}
