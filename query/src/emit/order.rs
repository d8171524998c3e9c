//! How the nodes of a section are ordered and grouped: the group levels a sink's grouping
//! asks for (module and package only where the nodes differ), and the sort that puts each
//! group's nodes together in position or rank order.

use rustc_hash::FxHashMap;
use tsgraph_engine::NodeView;

use super::{Item, Order};
use crate::sink::{GroupLevel, Grouping};

/// The levels nodes are grouped by, outermost first.
pub(super) fn group_levels(
    grouping: Grouping,
    module_level: bool,
    package_level: bool,
) -> Vec<GroupLevel> {
    match grouping {
        Grouping::None => Vec::new(),
        Grouping::FileKind => vec![GroupLevel::File, GroupLevel::Kind],
        Grouping::PackageKind => {
            let mut levels = Vec::new();
            if module_level {
                levels.push(GroupLevel::Module);
            }
            if package_level {
                levels.push(GroupLevel::Package);
            }
            levels.push(GroupLevel::Kind);
            levels
        }
    }
}

/// A node's value at `level` (its module, package, file or kind).
pub(super) fn level_value<'g>(level: GroupLevel, node: &NodeView<'g>) -> &'g str {
    match level {
        GroupLevel::Module => node.module(),
        GroupLevel::Package => node.package(),
        GroupLevel::File => node.file(),
        GroupLevel::Kind => node.kind().as_str(),
        GroupLevel::Section => "",
    }
}

/// A section's node ready to stream: its sort key, the item and its record.
#[derive(Clone, Copy)]
pub(super) struct Placed<'v> {
    key: SortKey,
    /// The node's file and start line, read out of its record once for the sort.
    position: (&'v str, u32),
    pub(super) item: Item,
    pub(super) node: NodeView<'v>,
}

impl Placed<'_> {
    /// Whether `other` lies in the same group as this node at every level down to `depth`.
    pub(super) fn same_groups(&self, other: &Placed<'_>, depth: usize) -> bool {
        self.key.groups[..=depth] == other.key.groups[..=depth]
    }

    /// Whether this node's group at `depth` is the one `open` holds.
    pub(super) fn in_group(&self, depth: usize, open: Option<u32>) -> bool {
        open == Some(self.key.groups[depth])
    }

    /// The value that stands for this node's group at `depth` (see [`Self::in_group`]).
    pub(super) fn group(&self, depth: usize) -> u32 {
        self.key.groups[depth]
    }
}

/// What a section's nodes are sorted by before their position: each group level's value and
/// the rank (search). A group's string (module, package, file) is replaced by its rank among
/// the section's distinct values, so sorting and grouping compare integers; the position
/// (file, start line, ID) is compared as it is, on ties only, so long paths are not hashed
/// unless files are a group level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct SortKey {
    groups: [u32; MAX_LEVELS],
    rank: u32,
}

/// The most group levels a grouping has (module, package, kind).
const MAX_LEVELS: usize = 3;

/// A section's items with their records (`views`, one per item), in the order they stream:
/// by their groups (`levels`, outermost first), then rank (search), then position; as given
/// for [`Order::Given`].
pub(super) fn placed<'v>(
    items: &[Item],
    views: &[NodeView<'v>],
    order: Order,
    levels: &[GroupLevel],
) -> Vec<Placed<'v>> {
    debug_assert_eq!(items.len(), views.len(), "a record per item");
    let mut placed = Vec::with_capacity(items.len());
    let mut strings = StringRanks::with_capacity(items.len());
    for (item, &node) in items.iter().zip(views) {
        let mut key = SortKey {
            rank: if order == Order::Rank { item.rank } else { 0 },
            ..SortKey::default()
        };
        for (value, level) in key.groups.iter_mut().zip(levels) {
            *value = match level {
                GroupLevel::Kind => node.kind() as u32,
                GroupLevel::Section => 0,
                _ => strings.slot(level_value(*level, &node)),
            };
        }
        placed.push(Placed {
            key,
            position: (node.file(), node.start_line()),
            item: *item,
            node,
        });
    }
    if order == Order::Given {
        return placed;
    }
    // Slots stand for strings in the order first met; ranks order them as the strings do.
    let rank_of = strings.ranks();
    for Placed { key, .. } in &mut placed {
        for (value, level) in key.groups.iter_mut().zip(levels) {
            if !matches!(level, GroupLevel::Kind | GroupLevel::Section) {
                *value = rank_of[*value as usize];
            }
        }
    }
    // Positions are distinct (an ID is), so an unstable sort orders as a stable one would.
    placed.sort_unstable_by(|a, b| {
        (a.key, a.position)
            .cmp(&(b.key, b.position))
            .then_with(|| a.node.id().cmp(b.node.id()))
    });
    placed
}

/// The distinct strings of a section, each given a slot as it is first met.
struct StringRanks<'v> {
    slots: FxHashMap<&'v str, u32>,
}

impl<'v> StringRanks<'v> {
    fn with_capacity(capacity: usize) -> StringRanks<'v> {
        StringRanks {
            slots: FxHashMap::with_capacity_and_hasher(capacity, Default::default()),
        }
    }

    fn slot(&mut self, value: &'v str) -> u32 {
        let next = self.slots.len() as u32;
        *self.slots.entry(value).or_insert(next)
    }

    /// Each slot's rank among the strings in byte order, by slot.
    fn ranks(self) -> Vec<u32> {
        let mut sorted: Vec<(&str, u32)> = self.slots.into_iter().collect();
        sorted.sort_unstable();
        let mut rank_of = vec![0; sorted.len()];
        for (rank, (_, slot)) in sorted.iter().enumerate() {
            rank_of[*slot as usize] = rank as u32;
        }
        rank_of
    }
}
