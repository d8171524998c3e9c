//! From resolved summaries to the graph: nodes with deterministic IDs, and CALLS (with
//! provenance, and dispatch to implementations), INCLUDES, EXTENDS, IMPLEMENTS (class to
//! interface and member to member), REFERENCES, USES_TYPE, IMPORTS and CONTAINS edges; plus
//! the call sites nothing was found for.

mod ids;
mod table;

pub(crate) use ids::{FileNodes, assign as assign_nodes, node_id};
pub(crate) use table::{NodeTable, Nodes};

use std::collections::{BTreeMap, HashMap};

use rustc_hash::FxHashMap;
use tsgraph_engine::{
    EdgeEntry, EdgeFacts, EdgeKind, EdgeSpec, FileEntry, GraphBatch, LoadedFile, NodeFlags,
    NodeKind, NodeRecord, UnresolvedCall, UseContext,
};

use crate::facts::{DeclId, DeclKind, Expr, ExprId, FILE_DECL, FileFacts, TypeExpr, TypeId};
use crate::resolve::{
    CallTarget, DeclRef, FileId, Hierarchy, ModuleTarget, Program, Provenance, Resolver, Ty,
    Unresolved,
};

/// What linking counted.
#[derive(Debug, Default, Clone)]
pub(crate) struct LinkStats {
    pub(crate) resolved_calls: usize,
    pub(crate) unresolved_calls: usize,
    /// Unresolved call sites by reason.
    pub(crate) unresolved_by_reason: BTreeMap<&'static str, usize>,
}

impl LinkStats {
    /// Adds the counts of another link (of other files).
    pub(crate) fn absorb(&mut self, other: &LinkStats) {
        self.resolved_calls += other.resolved_calls;
        self.unresolved_calls += other.unresolved_calls;
        for (reason, count) in &other.unresolved_by_reason {
            *self.unresolved_by_reason.entry(reason).or_default() += count;
        }
    }
}

/// The linked graph: its batch holds the nodes, edges, unresolved calls and external
/// imports of the linked files.
pub(crate) struct Linked {
    pub(crate) batch: GraphBatch,
    /// Updates do not report link counts (a full index counts them in [`KeyedPart`]s); the
    /// tests read them.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) stats: LinkStats,
}

/// The package (module folder, package name) a file belongs to.
pub(crate) type PackageOf<'a> = dyn Fn(&str) -> (String, String) + Sync + 'a;

/// The files a link writes: all of them, or the ones an update re-links.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scope<'s> {
    All,
    Files(&'s [FileId]),
}

/// Links the summaries of `scope`'s files into graph nodes and edges (edges whose source is
/// in those files), resolving across every file. `nodes` gives every file's node IDs
/// ([`assign_nodes`]).
pub(crate) fn link(
    program: &Program<'_>,
    hierarchy: &Hierarchy,
    nodes: Nodes<'_>,
    package_of: &PackageOf<'_>,
    scope: Scope<'_>,
) -> Linked {
    let resolver = Resolver::new(program);
    let mut builder = Builder::new(program, &resolver, hierarchy, nodes);
    let all: Vec<FileId>;
    let selected: &[FileId] = match scope {
        Scope::All => {
            all = (0..nodes.len())
                .map(|i| FileId::try_from(i).unwrap_or(u32::MAX))
                .collect();
            &all
        }
        Scope::Files(files) => files,
    };
    for &file in selected {
        builder.add_file_entry(file);
        let facts = program.file(file);
        let records = node_records(facts, nodes.of(file), package_of);
        builder
            .batch
            .nodes
            .extend(records.into_iter().map(|(_, record)| record));
    }
    builder.link_files(selected);
    builder.finish()
}

/// Every node's store key, per file and then per node index (as [`FileNodes`] numbers them);
/// [`NO_KEY`] for a node without a record.
pub(crate) type NodeKeys = Vec<Vec<u32>>;

/// The key of a node that has no record.
pub(crate) const NO_KEY: u32 = u32::MAX;

/// One part of a bulk load: some files, with every edge whose source is one of their nodes,
/// by store key.
pub(crate) struct KeyedPart {
    pub(crate) files: Vec<LoadedFile>,
    pub(crate) edges: Vec<(u32, EdgeEntry)>,
    /// Edges these files gave whose source is a node of another file: a class's inherited
    /// member implementing an interface member for it (IMPLEMENTS from the base class's
    /// member, found while linking the subclass).
    pub(crate) foreign: Vec<(u32, EdgeEntry)>,
    pub(crate) stats: LinkStats,
}

/// Links `files` (ascending) as [`link`] does, for a bulk load whose nodes are written
/// already: no node records, edges by the keys `keys` gives, and each file with its nodes'
/// keys. `resolver` is kept across parts, with its caches. An edge to a node without a
/// record is an error naming both ends.
pub(crate) fn link_keyed(
    resolver: &Resolver<'_, '_>,
    hierarchy: &Hierarchy,
    nodes: Nodes<'_>,
    keys: &[Vec<u32>],
    files: &[FileId],
) -> Result<KeyedPart, String> {
    let program = resolver.program;
    let mut builder = Builder::new(program, resolver, hierarchy, nodes);
    for &file in files {
        builder.add_file_entry(file);
    }
    builder.link_files(files);
    builder.finish_keyed(keys, files)
}

/// The records of a file's nodes, each with its index among the file's nodes (a node whose
/// representative declaration is not a graph node has none).
pub(crate) fn node_records(
    facts: &FileFacts,
    file_nodes: &FileNodes,
    package_of: &PackageOf<'_>,
) -> Vec<(u32, NodeRecord)> {
    let (module, package) = package_of(&facts.path);
    let mut records = Vec::with_capacity(file_nodes.len());
    for (index, (symbol, decls)) in file_nodes.iter().enumerate() {
        let Some((first, kind)) = recorded(facts, decls) else {
            continue;
        };
        let d = facts.decl(*first);
        let mut record = NodeRecord::new(
            ids::node_id(&facts.path, symbol),
            kind,
            facts.name(d.name).to_owned(),
            facts.path.clone(),
            d.start_line,
            d.end_line,
        );
        if *first == crate::facts::FILE_DECL {
            record.name = facts
                .path
                .rsplit('/')
                .next()
                .unwrap_or(&facts.path)
                .to_owned();
        }
        record.module = module.clone();
        record.package = package.clone();
        record.visibility = d.visibility;
        record.doc = facts.doc(*first).to_owned();
        let parameters = |d: &crate::facts::Decl| -> Vec<String> {
            d.params_text()
                .iter()
                .map(|text| facts.text(*text).to_owned())
                .collect()
        };
        record.parameters = parameters(d);
        record.type_text = facts.text(d.type_text).to_owned();
        let mut flags = 0u16;
        for decl in decls {
            let other = facts.decl(*decl);
            flags |= other.node_flags;
            record.start_line = record.start_line.min(other.start_line);
            record.end_line = record.end_line.max(other.end_line);
            if record.parameters.is_empty() {
                record.parameters = parameters(other);
            }
            if record.type_text.is_empty() {
                record.type_text = facts.text(other.type_text).to_owned();
            }
        }
        if d.flags & crate::facts::decl_flags::ASYNC != 0 {
            flags |= NodeFlags::ASYNC;
        }
        record.flags = flags & !NodeFlags::OPTIONAL | (d.node_flags & NodeFlags::OPTIONAL);
        records.push((u32::try_from(index).unwrap_or(NO_KEY), record));
    }
    records
}

/// The keys a bulk load gives the nodes of `files` (consecutive from 0, in file order, only
/// to nodes with a record: those of [`node_records`]), without making the records.
pub(crate) fn node_keys(nodes: Nodes<'_>) -> NodeKeys {
    let mut next: u32 = 0;
    nodes
        .iter()
        .map(|(facts, file_nodes)| {
            file_nodes
                .iter()
                .map(|(_, decls)| match recorded(facts, decls) {
                    Some(_) => {
                        let key = next;
                        next = next.saturating_add(1);
                        key
                    }
                    None => NO_KEY,
                })
                .collect()
        })
        .collect()
}

/// A node's representative declaration and kind, when it is a graph node (has a record).
fn recorded<'d>(facts: &FileFacts, decls: &'d [DeclId]) -> Option<(&'d DeclId, NodeKind)> {
    let first = decls.first()?;
    Some((first, facts.decl(*first).node?))
}

/// A node: (file, index among the file's nodes).
type NodeRef = (u32, u32);

/// The index of a file's own node among its nodes: the File declaration comes first
/// ([`crate::facts::FILE_DECL`]), and every extracted file has one.
const FILE_NODE: u32 = 0;

struct Builder<'p, 'a> {
    program: &'p Program<'a>,
    resolver: &'p Resolver<'p, 'a>,
    hierarchy: &'p Hierarchy,
    nodes: Nodes<'p>,
    batch: GraphBatch,
    /// Edges merged per (source, kind, target), in a stable order.
    edges: BTreeMap<(NodeRef, u8, NodeRef), EdgeFacts>,
    stats: LinkStats,
    /// Implementations found for an interface or abstract member, by (member, receiver).
    dispatch: FxHashMap<(DeclRef, DeclRef), Vec<DeclRef>>,
    /// What a class's `implements` or an interface's `extends` clauses name
    /// ([`Builder::clause_targets`]), evaluated once for every class that reaches it.
    heritage: FxHashMap<DeclRef, Vec<DeclRef>>,
}

impl<'p, 'a> Builder<'p, 'a> {
    fn node_of(&self, decl: DeclRef) -> Option<NodeRef> {
        if self.program.is_builtin(decl.file) {
            return None;
        }
        // A file's node is its first: an edge to a module reads no summary of it.
        if decl.decl == FILE_DECL {
            return Some((decl.file, FILE_NODE));
        }
        let local = self.nodes.of(decl.file).node_of(decl.decl)?;
        Some((decl.file, local))
    }

    /// The node credited for code of `decl` (itself or the nearest enclosing node).
    fn owner_node(&self, file: FileId, decl: DeclId) -> NodeRef {
        let facts = self.program.file(file);
        (file, self.nodes.of(file).owner_node(facts, decl))
    }

    fn id(&self, node: NodeRef) -> String {
        // A file node's ID is its path: known without the file's summary (a resumed state
        // reads a summary only when asked for it, see `crate::resume`).
        let path = self.program.path(node.0);
        if node.1 == FILE_NODE {
            return path.to_owned();
        }
        ids::node_id(path, self.nodes.of(node.0).symbol(node.1))
    }

    fn new(
        program: &'p Program<'a>,
        resolver: &'p Resolver<'p, 'a>,
        hierarchy: &'p Hierarchy,
        nodes: Nodes<'p>,
    ) -> Builder<'p, 'a> {
        Builder {
            program,
            resolver,
            hierarchy,
            nodes,
            batch: GraphBatch::default(),
            edges: BTreeMap::new(),
            stats: LinkStats::default(),
            dispatch: FxHashMap::default(),
            heritage: FxHashMap::default(),
        }
    }

    /// The file's entry, which the import pass completes with its external packages.
    fn add_file_entry(&mut self, file: FileId) {
        let facts = self.program.file(file);
        self.batch.files.push(FileEntry {
            path: facts.path.clone(),
            hash: facts.hash,
            size: facts.bytes,
            modified: facts.modified,
            external: Vec::new(),
        });
    }

    fn link_files(&mut self, files: &[FileId]) {
        for &file in files {
            let facts = self.program.file(file);
            self.contains(file, facts);
            self.imports(file, facts);
            self.calls(file, facts);
            self.jsx(file, facts);
            self.heritage(file, facts);
            self.references(file, facts);
            self.type_uses(file, facts);
        }
    }

    fn add_edge(
        &mut self,
        source: NodeRef,
        target: NodeRef,
        kind: EdgeKind,
        line: u32,
        update: impl FnOnce(&mut EdgeFacts),
    ) {
        let facts = self
            .edges
            .entry((source, kind.as_u8(), target))
            .or_default();
        if matches!(
            kind,
            EdgeKind::Calls | EdgeKind::Includes | EdgeKind::References
        ) {
            facts.count = facts.count.saturating_add(1);
            if line > 0 && !facts.sites.contains(&line) {
                facts.sites.push(line);
            }
        }
        update(facts);
    }

    fn contains(&mut self, file: FileId, facts: &FileFacts) {
        let nodes = self.nodes.of(file);
        let mut pairs = Vec::new();
        for (local, (_, decls)) in nodes.iter().enumerate() {
            let Some(first) = decls.first() else { continue };
            if *first == crate::facts::FILE_DECL {
                continue;
            }
            let parent_decl = facts.decl(*first).path_parent;
            let parent = nodes.owner_node(facts, parent_decl);
            let local = u32::try_from(local).unwrap_or(u32::MAX);
            if parent != local {
                pairs.push(((file, parent), (file, local)));
            }
        }
        for (parent, child) in pairs {
            self.add_edge(parent, child, EdgeKind::Contains, 0, |_| {});
        }
    }

    fn imports(&mut self, file: FileId, facts: &FileFacts) {
        for (index, import) in facts.imports.iter().enumerate() {
            match self.program.module(file, index) {
                ModuleTarget::File(target) => {
                    let names: Vec<String> = import
                        .bindings
                        .iter()
                        .map(|b| facts.name(b.imported).to_owned())
                        .collect();
                    let type_only = import.type_only;
                    let line = import.line;
                    self.add_edge((file, 0), (*target, 0), EdgeKind::Imports, 0, |edge| {
                        let first = edge.names.is_empty() && edge.sites.is_empty();
                        for name in names {
                            if !edge.names.contains(&name) {
                                edge.names.push(name);
                            }
                        }
                        edge.type_only = if first {
                            type_only
                        } else {
                            edge.type_only && type_only
                        };
                        if !edge.sites.contains(&line) {
                            edge.sites.push(line);
                        }
                    });
                }
                ModuleTarget::External(package) => {
                    // The file's entry was added before its edges were linked.
                    let entry = self
                        .batch
                        .files
                        .iter_mut()
                        .rev()
                        .find(|f| f.path == facts.path);
                    if let Some(entry) = entry
                        && !entry.external.contains(package)
                    {
                        entry.external.push(package.clone());
                    }
                }
                ModuleTarget::Unresolved => {}
            }
        }
    }

    fn calls(&mut self, file: FileId, facts: &FileFacts) {
        for site in &facts.calls {
            let caller = self.owner_node(file, site.caller);
            match self.resolver.resolve_call(file, site) {
                Ok(targets) => {
                    let mut linked = false;
                    for target in targets {
                        linked |= self.call_edge(caller, target, site.line);
                    }
                    if linked {
                        self.stats.resolved_calls += 1;
                    } else {
                        self.unresolved_site(
                            file,
                            caller,
                            site.expr,
                            site.line,
                            Unresolved::External,
                        );
                    }
                }
                Err(reason) => self.unresolved_site(file, caller, site.expr, site.line, reason),
            }
        }
    }

    fn unresolved_site(
        &mut self,
        file: FileId,
        caller: NodeRef,
        expr: ExprId,
        line: u32,
        reason: Unresolved,
    ) {
        self.stats.unresolved_calls += 1;
        *self
            .stats
            .unresolved_by_reason
            .entry(reason.as_str())
            .or_default() += 1;
        if matches!(reason, Unresolved::External) {
            return;
        }
        let facts = self.program.file(file);
        let callee = render_callee(facts, expr);
        let name = callee
            .rsplit(['.', '(', '['])
            .find(|part| !part.is_empty() && *part != ")" && *part != "]")
            .unwrap_or(&callee)
            .trim_end_matches([')', ']'])
            .to_owned();
        self.batch.unresolved.push((
            facts.path.clone(),
            UnresolvedCall {
                caller: self.id(caller),
                callee,
                name,
                line,
                reason: reason.as_str().to_owned(),
            },
        ));
    }

    /// A CALLS edge to `target`, and to the implementations it dispatches to.
    fn call_edge(&mut self, caller: NodeRef, target: CallTarget, line: u32) -> bool {
        let Some(node) = self.node_of(target.decl) else {
            return false;
        };
        self.call_edge_to(caller, node, target.provenance, line);
        for implementation in self.implementations(target.decl, target.receiver) {
            if let Some(imp) = self.node_of(implementation)
                && imp != node
            {
                self.call_edge_to(caller, imp, Provenance::Dispatch, line);
            }
        }
        true
    }

    /// One call of `target` by `caller`. The lowest resolution a pair is reached with wins,
    /// so that a pair reached several ways is stored the same whatever the order of the calls.
    fn call_edge_to(&mut self, caller: NodeRef, target: NodeRef, how: Provenance, line: u32) {
        let resolution = how.as_resolution().as_u8();
        self.add_edge(caller, target, EdgeKind::Calls, line, |edge| {
            if edge.count == 1 || resolution < edge.resolution {
                edge.resolution = resolution;
            }
        });
    }

    /// The class members an interface member or abstract method dispatches to: its
    /// implementations in the classes below `receiver` (the type it was called on; the
    /// member's own type when unknown).
    fn implementations(&mut self, member: DeclRef, receiver: Option<DeclRef>) -> Vec<DeclRef> {
        let d = self.program.decl(member);
        let owner = DeclRef::new(member.file, d.path_parent);
        let owner_kind = self.program.decl(owner).kind;
        let is_interface_member = matches!(d.kind, DeclKind::MethodSig | DeclKind::PropertySig)
            && matches!(owner_kind, DeclKind::Interface | DeclKind::TypeAlias);
        let is_abstract = d.kind == DeclKind::Method
            && owner_kind == DeclKind::Class
            && d.node_flags & NodeFlags::ABSTRACT != 0;
        if !is_interface_member && !is_abstract {
            return Vec::new();
        }
        let from = receiver.unwrap_or(owner);
        if let Some(found) = self.dispatch.get(&(member, from)) {
            return found.clone();
        }
        let mut found = Vec::new();
        for sub in self.hierarchy.below(from) {
            if self.program.decl(sub).kind != DeclKind::Class {
                continue;
            }
            // As member IMPLEMENTS finds them: by name, or by the constant a computed key
            // names.
            let members = self
                .resolver
                .implementing_members(&Ty::Object(sub, crate::resolve::ty_empty_env()), member);
            let Some(m) = members.first() else { continue };
            let declared_in = DeclRef::new(m.decl.file, self.program.decl(m.decl).path_parent);
            if m.decl != member
                && self.program.decl(declared_in).kind == DeclKind::Class
                && !found.contains(&m.decl)
            {
                found.push(m.decl);
            }
        }
        self.dispatch.insert((member, from), found.clone());
        found
    }

    fn jsx(&mut self, file: FileId, facts: &FileFacts) {
        for site in &facts.jsx {
            let caller = self.owner_node(file, site.caller);
            if let Some(target) = self.resolver.resolve_jsx(file, site.tag)
                && let Some(node) = self.node_of(target)
            {
                self.add_edge(caller, node, EdgeKind::Includes, site.line, |_| {});
            }
        }
    }

    fn heritage(&mut self, file: FileId, facts: &FileFacts) {
        for (index, decl) in facts.decls.iter().enumerate() {
            let here = DeclRef::new(file, u32::try_from(index).unwrap_or(u32::MAX));
            if !matches!(decl.kind, DeclKind::Class | DeclKind::Interface) {
                continue;
            }
            let Some(source) = self.node_of(here) else {
                continue;
            };
            if decl.kind == DeclKind::Class {
                if let Some(base) = self.hierarchy.base(here)
                    && let Some(target) = self.node_of(base)
                {
                    self.add_edge(source, target, EdgeKind::Extends, 0, |_| {});
                }
                let named = self.clause_targets(file, facts.implements(here.decl));
                for &iface in &named {
                    if let Some(target) = self.node_of(iface) {
                        self.add_edge(source, target, EdgeKind::Implements, 0, |_| {});
                    }
                }
                self.member_implements(here, named);
            } else {
                for base in self.clause_targets(file, facts.extends_types(here.decl)) {
                    if let Some(target) = self.node_of(base) {
                        self.add_edge(source, target, EdgeKind::Extends, 0, |_| {});
                    }
                }
            }
        }
    }

    /// The interfaces a class implements as the checker names them: those its `implements`
    /// clauses (and its bases') name, and the interfaces those extend — not through a type
    /// alias, which is a clause target of its own (see [`Self::clause_targets`]); an alias of
    /// an object type (`type Output = { … }`) declares its members itself and counts.
    /// `named` is what the class's own `implements` clauses name (its edges' targets).
    fn named_interfaces(&mut self, class: DeclRef, named: Vec<DeclRef>) -> Vec<DeclRef> {
        let mut stack = named;
        let mut current = self.hierarchy.base(class);
        for _ in 0..64 {
            let Some(c) = current else { break };
            stack.extend_from_slice(self.heritage_targets(c));
            current = self.hierarchy.base(c);
        }
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        while let Some(iface) = stack.pop() {
            let declared = self.program.decl(iface);
            let has_members = match declared.kind {
                DeclKind::Interface => true,
                DeclKind::TypeAlias => !declared.members().is_empty(),
                _ => false,
            };
            if has_members && seen.insert(iface) {
                out.push(iface);
                stack.extend_from_slice(self.heritage_targets(iface));
            }
        }
        out.sort();
        out
    }

    /// [`Self::clause_targets`] of a class's `implements` or an interface's `extends`,
    /// remembered.
    fn heritage_targets(&mut self, decl: DeclRef) -> &[DeclRef] {
        if !self.heritage.contains_key(&decl) {
            let facts = self.program.file(decl.file);
            let clauses = if facts.decl(decl.decl).kind == DeclKind::Class {
                facts.implements(decl.decl)
            } else {
                facts.extends_types(decl.decl)
            };
            let targets = self.clause_targets(decl.file, clauses);
            self.heritage.insert(decl, targets);
        }
        &self.heritage[&decl]
    }

    /// What the types of an interface's `extends` or a class's `implements` name, as the
    /// checker names them: a type alias itself (the hierarchy keeps the types it stands for,
    /// which dispatch needs), so that an alias of the built-in library (`Omit<T, K>`) gives
    /// no edge to its argument; else the classes and interfaces the type evaluates to.
    fn clause_targets(&self, file: FileId, types: &[TypeId]) -> Vec<DeclRef> {
        let facts = self.program.file(file);
        let mut out = Vec::new();
        for &ty in types {
            if let Some((scope, path, _)) = facts.ty(ty).reference_parts()
                && let Some(decl) = self.resolver.resolve_type_path(file, scope, path)
                && self.program.decl(decl).kind == DeclKind::TypeAlias
            {
                out.push(decl);
                continue;
            }
            let evaluated = self
                .resolver
                .eval_type(file, ty, &crate::resolve::ty_empty_env());
            out.extend(crate::resolve::object_decls(&evaluated));
        }
        out.sort();
        out.dedup();
        out
    }

    /// IMPLEMENTS from each class member to the interface members it implements.
    /// `named`: what the class's own `implements` clauses name.
    fn member_implements(&mut self, class: DeclRef, named: Vec<DeclRef>) {
        let instance = Ty::Object(class, crate::resolve::ty_empty_env());
        for iface in self.named_interfaces(class, named) {
            let members = self.program.decl(iface).members();
            for &member in members {
                let member = DeclRef::new(iface.file, member);
                let m = self.program.decl(member);
                if !matches!(m.kind, DeclKind::MethodSig | DeclKind::PropertySig) {
                    continue;
                }
                let Some(target) = self.node_of(member) else {
                    continue;
                };
                let found = self.resolver.implementing_members(&instance, member);
                let Some(implementation) = found.first() else {
                    continue;
                };
                let owner = self.program.decl(implementation.decl).path_parent;
                if self
                    .program
                    .decl(DeclRef::new(implementation.decl.file, owner))
                    .kind
                    != DeclKind::Class
                {
                    continue;
                }
                if let Some(source) = self.node_of(implementation.decl)
                    && source != target
                {
                    self.add_edge(source, target, EdgeKind::Implements, 0, |_| {});
                }
            }
        }
    }

    fn references(&mut self, file: FileId, facts: &FileFacts) {
        for reference in &facts.refs {
            let Some(target) = self.resolver.resolve_value_reference(file, reference.expr) else {
                continue;
            };
            let Some(node) = self.node_of(target) else {
                continue;
            };
            let source = self.owner_node(file, reference.from);
            if source == node {
                continue;
            }
            let context = reference.context;
            self.add_edge(source, node, EdgeKind::References, reference.line, |edge| {
                if edge.context == UseContext::None.as_u8() {
                    edge.context = context.as_u8();
                }
            });
        }
    }

    fn type_uses(&mut self, file: FileId, facts: &FileFacts) {
        for type_use in &facts.type_uses {
            let source = self.owner_node(file, type_use.from);
            let mut targets = Vec::new();
            self.named_types(file, facts, type_use.ty, &mut targets, 0);
            for target in targets {
                let Some(node) = self.node_of(target) else {
                    continue;
                };
                if node == source {
                    continue;
                }
                let context = type_use.context;
                self.add_edge(source, node, EdgeKind::UsesType, 0, |edge| {
                    if edge.context == UseContext::None.as_u8() {
                        edge.context = context.as_u8();
                    }
                });
            }
        }
    }

    /// Every declared type a type expression names.
    fn named_types(
        &self,
        file: FileId,
        facts: &FileFacts,
        ty: TypeId,
        out: &mut Vec<DeclRef>,
        depth: u32,
    ) {
        if depth > 32 {
            return;
        }
        match facts.ty(ty) {
            reference @ TypeExpr::Ref { .. } => {
                let Some((scope, path, args)) = reference.reference_parts() else {
                    return;
                };
                if let Some(decl) = self.resolver.resolve_type_path(file, scope, path)
                    && matches!(
                        self.program.decl(decl).kind,
                        DeclKind::Class
                            | DeclKind::Interface
                            | DeclKind::TypeAlias
                            | DeclKind::Enum
                    )
                    && !out.contains(&decl)
                {
                    out.push(decl);
                }
                for arg in args {
                    self.named_types(file, facts, *arg, out, depth + 1);
                }
            }
            TypeExpr::Union(parts)
            | TypeExpr::Intersection(parts)
            | TypeExpr::Tuple(parts)
            | TypeExpr::Mentions(parts) => {
                for part in parts {
                    self.named_types(file, facts, *part, out, depth + 1);
                }
            }
            TypeExpr::Array(inner) => self.named_types(file, facts, *inner, out, depth + 1),
            TypeExpr::Indexed { object, .. } => {
                self.named_types(file, facts, *object, out, depth + 1)
            }
            TypeExpr::Decl(decl) => {
                let d = facts.decl(*decl);
                if matches!(d.kind, DeclKind::CallSig | DeclKind::ConstructSig) {
                    for param in d.params() {
                        if let Some(param_ty) = facts.decl(*param).ty.get() {
                            self.named_types(file, facts, param_ty, out, depth + 1);
                        }
                    }
                    if let Some(ret) = d.ret.get() {
                        self.named_types(file, facts, ret, out, depth + 1);
                    }
                } else {
                    for member in d.members() {
                        if let Some(member_ty) = facts.decl(*member).ty.get() {
                            self.named_types(file, facts, member_ty, out, depth + 1);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The merged edges in their stable order, with the facts as stored: sites sorted, and
    /// kept only by the kinds that show them.
    fn take_edges(
        &mut self,
    ) -> impl Iterator<Item = (NodeRef, EdgeKind, NodeRef, EdgeFacts)> + use<> {
        std::mem::take(&mut self.edges).into_iter().filter_map(
            |((source, kind, target), mut facts)| {
                let kind = EdgeKind::from_u8(kind)?;
                facts.sites.sort_unstable();
                if !matches!(
                    kind,
                    EdgeKind::Calls | EdgeKind::Includes | EdgeKind::References | EdgeKind::Imports
                ) {
                    facts.sites.clear();
                }
                Some((source, kind, target, facts))
            },
        )
    }

    fn finish(mut self) -> Linked {
        for (source, kind, target, facts) in self.take_edges() {
            self.batch.edges.push(EdgeSpec {
                source: self.id(source),
                target: self.id(target),
                kind,
                facts,
            });
        }
        Linked {
            batch: self.batch,
            stats: self.stats,
        }
    }

    /// `files`: the linked files, ascending.
    fn finish_keyed(mut self, keys: &[Vec<u32>], files: &[FileId]) -> Result<KeyedPart, String> {
        let key_of = |node: NodeRef| {
            keys.get(node.0 as usize)
                .and_then(|file| file.get(node.1 as usize))
                .copied()
                .filter(|&key| key != NO_KEY)
        };
        let mut edges = Vec::with_capacity(self.edges.len());
        let mut foreign = Vec::new();
        for (source, kind, target, facts) in self.take_edges() {
            let (Some(from), Some(to)) = (key_of(source), key_of(target)) else {
                return Err(format!(
                    "a {kind} edge from `{}` to `{}` names a node without a record",
                    self.id(source),
                    self.id(target)
                ));
            };
            let entry = EdgeEntry {
                kind: kind.as_u8(),
                other: to,
                facts,
            };
            if files.binary_search(&source.0).is_ok() {
                edges.push((from, entry));
            } else {
                foreign.push((from, entry));
            }
        }
        let mut unresolved: HashMap<String, Vec<UnresolvedCall>> = HashMap::new();
        for (path, call) in self.batch.unresolved {
            unresolved.entry(path).or_default().push(call);
        }
        let loaded = self
            .batch
            .files
            .into_iter()
            .zip(files)
            .map(|(entry, &file)| LoadedFile {
                unresolved: unresolved.remove(&entry.path).unwrap_or_default(),
                entry,
                keys: keys[file as usize]
                    .iter()
                    .copied()
                    .filter(|&key| key != NO_KEY)
                    .collect(),
                blob: None,
            })
            .collect();
        debug_assert!(unresolved.is_empty(), "unresolved calls outside the part");
        Ok(KeyedPart {
            files: loaded,
            edges,
            foreign,
            stats: self.stats,
        })
    }
}

/// A callee as it is written (`this.repo.save`, `make().run`), for unresolved sites.
fn render_callee(facts: &FileFacts, expr: ExprId) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut current = match facts.expr(expr) {
        Expr::Call { callee, .. } | Expr::New { callee, .. } => *callee,
        _ => expr,
    };
    for _ in 0..32 {
        match facts.expr(current) {
            Expr::Member { object, name } => {
                parts.push(facts.name(*name).to_owned());
                current = *object;
            }
            Expr::Ident { name, .. } => {
                parts.push(facts.name(*name).to_owned());
                break;
            }
            Expr::This { .. } => {
                parts.push("this".to_owned());
                break;
            }
            Expr::Super { .. } => {
                parts.push("super".to_owned());
                break;
            }
            Expr::Call { callee, .. } => {
                parts.push("()".to_owned());
                current = *callee;
            }
            Expr::Element { object } => {
                parts.push("[]".to_owned());
                current = *object;
            }
            _ => {
                parts.push("…".to_owned());
                break;
            }
        }
    }
    parts.reverse();
    parts.join(".").replace(".()", "()").replace(".[]", "[]")
}

#[cfg(test)]
mod tests;
