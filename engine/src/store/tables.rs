//! The redb table definitions: one place that names every table and its key/value types.

use redb::TableDefinition;

/// Node key → archived `NodeRecord`.
pub(crate) const NODES: TableDefinition<u32, &[u8]> = TableDefinition::new("nodes");
/// Public node ID → node key.
pub(crate) const IDS: TableDefinition<&str, u32> = TableDefinition::new("ids");
/// File path → archived `FileRecord`.
pub(crate) const FILES: TableDefinition<&str, &[u8]> = TableDefinition::new("files");
/// Node key → the node's outgoing edges with their facts (layout: `adjacency.rs`).
pub(crate) const OUT_EDGES: TableDefinition<u32, &[u8]> = TableDefinition::new("out_edges");
/// `(target key, source key, edge kind)` → nothing: one entry per edge, so an edge into a
/// node with thousands of incoming edges is added or removed without rewriting them.
pub(crate) const IN_EDGES: TableDefinition<(u32, u32, u8), ()> = TableDefinition::new("in_edges");
/// File path → an opaque blob the writer keeps with the file (the indexer's summary).
pub(crate) const BLOBS: TableDefinition<&str, &[u8]> = TableDefinition::new("blobs");
/// `(called name, file path)` → archived `UnresolvedList`: the file's unresolved call sites
/// of that name, so that the sites of one name are one range of small values (a question
/// about a name reads only its own sites, never a file's whole list).
pub(crate) const UNRESOLVED: TableDefinition<(&str, &str), &[u8]> =
    TableDefinition::new("unresolved");
/// File path → archived `Vec<String>`: the called names of the file's unresolved calls, each
/// once (what a writer removes when the file changes).
pub(crate) const UNRESOLVED_NAMES: TableDefinition<&str, &[u8]> =
    TableDefinition::new("unresolved_names");
/// `(name, node ID)` → node key: every function and method of a name that more than
/// `crowded::CROWDED` of them share (`crowded.rs`), so that the callables an unresolved call
/// of the name may reach are counted and listed by ID in one range read.
pub(crate) const CROWDED: TableDefinition<(&str, &str), u32> = TableDefinition::new("crowded");
/// Lowercased simple name or symbol path → the keys of the nodes it finds (the search
/// index's postings: ascending u32 little endian, `search::Postings`).
pub(crate) const TERMS: TableDefinition<&str, &[u8]> = TableDefinition::new("terms");
/// The search index's FST of every term (one blob, rebuilt with each write).
pub(crate) const SEARCH: TableDefinition<&str, &[u8]> = TableDefinition::new("search");
/// The overlay (what changed since the graph file was built), node key → the commit that
/// last rewrote the node's record or outgoing list: readers take both from the tables above.
pub(crate) const OVERLAY_NODES: TableDefinition<u32, u64> = TableDefinition::new("overlay_nodes");
/// The overlay's incoming entries: `(target, source, kind)` → (whether the edge is there
/// now, the commit that last added or removed it).
pub(crate) const OVERLAY_IN: TableDefinition<InEdge, InChange> = TableDefinition::new("overlay_in");
/// An incoming entry's key: target, source, edge kind.
pub(crate) type InEdge = (u32, u32, u8);
/// An overlay change to an incoming entry: whether the edge is there now, and the commit.
pub(crate) type InChange = (bool, u64);
/// The overlay's IDs: node ID → (its key now, `u32::MAX` when it is gone; the commit).
pub(crate) const OVERLAY_IDS: TableDefinition<&str, (u32, u64)> =
    TableDefinition::new("overlay_ids");
/// Metadata: schema version, next key, project root, config hash, counts.
pub(crate) const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");

/// Meta key of the schema version (u32, little endian).
pub(crate) const META_SCHEMA: &str = "schema_version";
/// Meta key of the next free node key (u32, little endian).
pub(crate) const META_NEXT_KEY: &str = "next_key";
/// Meta key of the store's generation (16 bytes, little endian): a number drawn when the
/// store file was created, then the count of its commits. A process holding state derived
/// from the store compares it to learn whether anyone wrote since.
pub(crate) const META_GENERATION: &str = "generation";
/// The graph file that serves this store state (`mapped::GraphFileName`).
pub(crate) const META_GRAPH_FILE: &str = "graph_file";
