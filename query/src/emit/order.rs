//! How the nodes of a section are ordered and grouped: the group levels a sink's grouping
//! asks for (module and package only where the nodes differ), and the sort that puts each
//! group's nodes together in position or rank order.

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

/// Sorts a section's nodes by their groups, then rank (search), then position.
pub(super) fn sort(
    placed: &mut [(Item, NodeView<'_>)],
    order: Order,
    grouping: Grouping,
    module_level: bool,
    package_level: bool,
) {
    if order == Order::Given {
        return;
    }
    // Every key ends in the position (file, start line, ID), which is distinct: an unstable
    // sort orders as a stable one would, without a buffer.
    placed.sort_unstable_by(|(ia, a), (ib, b)| {
        let groups = match grouping {
            Grouping::None => std::cmp::Ordering::Equal,
            Grouping::FileKind => (a.file(), a.kind()).cmp(&(b.file(), b.kind())),
            Grouping::PackageKind => {
                let module = if module_level {
                    a.module().cmp(b.module())
                } else {
                    std::cmp::Ordering::Equal
                };
                let package = if package_level {
                    a.package().cmp(b.package())
                } else {
                    std::cmp::Ordering::Equal
                };
                module.then(package).then(a.kind().cmp(&b.kind()))
            }
        };
        let rank = match order {
            Order::Rank => ia.rank.cmp(&ib.rank),
            _ => std::cmp::Ordering::Equal,
        };
        groups.then(rank).then_with(|| {
            (a.file(), a.start_line(), a.id()).cmp(&(b.file(), b.start_line(), b.id()))
        })
    });
}
