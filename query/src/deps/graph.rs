//! The package graph of a snapshot: every package some file belongs to (a File node's
//! `package`), every package outside the project a file imports, and for each pair of
//! packages the file imports that make one depend on the other.

use std::collections::{BTreeMap, HashMap};

use petgraph::graph::{DiGraph, NodeIndex};
use tsgraph_engine::{EdgeKind, NodeKey, NodeKind, Snapshot};

use crate::error::QueryError;
use crate::order::existing;

/// One package of the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Package {
    /// Its name (`@libs/toolkit`); empty for files with no named package.json above them.
    pub(crate) name: String,
    /// The module of its files; empty for an external package.
    pub(crate) module: String,
    /// Outside the project: known only from the imports of project files.
    pub(crate) external: bool,
}

/// One import of a file by a file of another package (or of a package outside the project).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct FileImport {
    /// The importing file.
    pub(crate) from: String,
    /// The imported file; `None` for an external package (the store keeps only its name).
    pub(crate) to: Option<String>,
    /// The line of the first import statement; `None` when unknown (external packages).
    pub(crate) line: Option<u32>,
}

/// Packages and the dependencies between them.
#[derive(Debug, Default)]
pub(crate) struct PackageGraph {
    /// Internal packages first, then external ones, each by name (so an index orders them).
    pub(crate) packages: Vec<Package>,
    /// `(importer, imported)` → the file imports, sorted; never a package with itself.
    pub(crate) imports: BTreeMap<(usize, usize), Vec<FileImport>>,
    /// The dependencies as a petgraph graph whose node indexes are `packages`' indexes;
    /// both directions list their packages ascending.
    pub(crate) links: DiGraph<(), ()>,
    /// Adjacency lists read to build it: one per file.
    pub(crate) lists_read: usize,
}

/// A file node as the first pass reads it.
struct FileEntry {
    path: String,
    key: NodeKey,
    package: String,
    external: Vec<String>,
}

impl PackageGraph {
    /// Reads every file node and its IMPORTS edges: two reads per file and one per import.
    pub(crate) fn build(snapshot: &Snapshot) -> Result<PackageGraph, QueryError> {
        let mut files: Vec<FileEntry> = Vec::new();
        // (external, name) → module; ordered, so indexes put internal packages first.
        let mut named: BTreeMap<(bool, String), String> = BTreeMap::new();
        for stamp in snapshot.file_stamps()? {
            let Some(key) = snapshot
                .file_keys(&stamp.path)?
                .and_then(|keys| keys.first().copied())
            else {
                continue;
            };
            let guard = existing(snapshot, key)?;
            let view = guard.view()?;
            if view.kind() != NodeKind::File {
                continue;
            }
            named
                .entry((false, view.package().to_owned()))
                .or_insert_with(|| view.module().to_owned());
            for external in &stamp.external {
                named.entry((true, external.clone())).or_default();
            }
            files.push(FileEntry {
                path: stamp.path,
                key,
                package: view.package().to_owned(),
                external: stamp.external,
            });
        }
        let index: HashMap<(bool, &str), usize> = named
            .keys()
            .enumerate()
            .map(|(i, (external, name))| ((*external, name.as_str()), i))
            .collect();
        let by_key: HashMap<NodeKey, (usize, &str)> = files
            .iter()
            .map(|f| {
                (
                    f.key,
                    (index[&(false, f.package.as_str())], f.path.as_str()),
                )
            })
            .collect();
        let mut imports: BTreeMap<(usize, usize), Vec<FileImport>> = BTreeMap::new();
        for file in &files {
            let from = index[&(false, file.package.as_str())];
            let list = snapshot.out_edges(file.key)?;
            for edge in list.edges()? {
                if edge.kind() != EdgeKind::Imports {
                    continue;
                }
                let Some(&(to, path)) = by_key.get(&edge.other()) else {
                    continue;
                };
                if to != from {
                    imports.entry((from, to)).or_default().push(FileImport {
                        from: file.path.clone(),
                        to: Some(path.to_owned()),
                        line: edge.view()?.sites().min(),
                    });
                }
            }
            for external in &file.external {
                imports
                    .entry((from, index[&(true, external.as_str())]))
                    .or_default()
                    .push(FileImport {
                        from: file.path.clone(),
                        to: None,
                        line: None,
                    });
            }
        }
        let packages: Vec<Package> = named
            .into_iter()
            .map(|((external, name), module)| Package {
                name,
                module,
                external,
            })
            .collect();
        let mut links = DiGraph::with_capacity(packages.len(), imports.len());
        for _ in &packages {
            links.add_node(());
        }
        for list in imports.values_mut() {
            list.sort();
        }
        // A petgraph graph lists a node's edges newest first: adding them in descending
        // (from, to) order lists both directions ascending, the order the walk reaches
        // packages in.
        for &(from, to) in imports.keys().rev() {
            links.add_edge(NodeIndex::new(from), NodeIndex::new(to), ());
        }
        Ok(PackageGraph {
            packages,
            imports,
            links,
            lists_read: files.len(),
        })
    }

    /// The index of the internal package `name`, else of the external one.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        let internal = self
            .packages
            .iter()
            .position(|p| !p.external && p.name == name);
        internal.or_else(|| self.packages.iter().position(|p| p.name == name))
    }
}
