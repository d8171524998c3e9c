//! Where a store's bytes go, table by table (for `tsgraph bench` and for deciding what to
//! make smaller).

use redb::{ReadableTableMetadata, TableStats};

use super::Store;
use super::tables::{
    BLOBS, CROWDED, FILES, IDS, IN_EDGES, META, NODES, OUT_EDGES, SEARCH, TERMS, UNRESOLVED,
    UNRESOLVED_NAMES,
};
use crate::error::{DbResultExt, StoreError};

/// The space one table takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpace {
    /// The table's name.
    pub table: &'static str,
    /// Keys and values as stored.
    pub stored_bytes: u64,
    /// B-tree branch pages and other metadata.
    pub metadata_bytes: u64,
    /// Unused space inside the table's pages.
    pub fragmented_bytes: u64,
}

impl TableSpace {
    /// Everything the table occupies.
    pub fn total(&self) -> u64 {
        self.stored_bytes + self.metadata_bytes + self.fragmented_bytes
    }
}

impl Store {
    /// The space each table takes in the last committed state, largest first.
    pub fn space(&self) -> Result<Vec<TableSpace>, StoreError> {
        self.run("measure tables", || {
            let txn = self.begin_read()?;
            let space = |table: &'static str, stats: TableStats| TableSpace {
                table,
                stored_bytes: stats.stored_bytes(),
                metadata_bytes: stats.metadata_bytes(),
                fragmented_bytes: stats.fragmented_bytes(),
            };
            let mut tables = Vec::new();
            // The tables are of different types: one statement each.
            macro_rules! measure {
                ($open:ident: $($name:literal => $definition:expr),+) => {
                    $(
                        let table = txn.$open($definition).ctx("open table")?;
                        tables.push(space($name, table.stats().ctx("table stats")?));
                    )+
                };
            }
            measure!(open_table:
                "nodes" => NODES, "ids" => IDS, "files" => FILES, "out_edges" => OUT_EDGES,
                "in_edges" => IN_EDGES, "blobs" => BLOBS, "unresolved" => UNRESOLVED,
                "unresolved_names" => UNRESOLVED_NAMES, "search" => SEARCH, "meta" => META,
                "terms" => TERMS, "crowded" => CROWDED);
            tables.sort_by(|a, b| b.total().cmp(&a.total()).then(a.table.cmp(b.table)));
            Ok(tables)
        })
    }
}
