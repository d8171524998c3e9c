//! What changed in what a file exports: every name, or some names — and of a name that is a
//! namespace (`export * as Hash from "./Hash"`), perhaps only some of its members, so that a
//! file naming `Hash.hash` is not re-linked when `Hash.appended` came.

use std::collections::{BTreeMap, BTreeSet};

/// What changed in what a file exports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ExportChange {
    /// Anything may have: a script's globals, the modules it re-exports everything from.
    All,
    /// These exported names came, went, or changed what they stand for.
    Names(BTreeMap<String, NameChange>),
}

/// How one exported name changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NameChange {
    /// What it stands for changed (or it came or went).
    Whole,
    /// It is a namespace, and these of its members came, went or changed.
    Members(BTreeSet<String>),
}

impl ExportChange {
    /// Nothing changed.
    pub(crate) fn none() -> ExportChange {
        ExportChange::Names(BTreeMap::new())
    }

    /// How `name` may have changed; `None` when it did not.
    pub(crate) fn get(&self, name: &str) -> Option<&NameChange> {
        match self {
            ExportChange::All => Some(&NameChange::Whole),
            ExportChange::Names(names) => names.get(name),
        }
    }

    /// The changed names, as the members of a namespace whose module this is (`None`: any).
    pub(crate) fn as_members(&self) -> Option<BTreeSet<String>> {
        match self {
            ExportChange::All => None,
            ExportChange::Names(names) => Some(names.keys().cloned().collect()),
        }
    }

    /// Adds `other`'s changes to these; whether anything was new.
    pub(crate) fn merge(&mut self, other: &ExportChange) -> bool {
        match (&mut *self, other) {
            (ExportChange::All, _) => false,
            (_, ExportChange::All) => {
                *self = ExportChange::All;
                true
            }
            (ExportChange::Names(_), ExportChange::Names(theirs)) => {
                let mut grew = false;
                for (name, change) in theirs {
                    grew |= self.add_change(name, change.clone());
                }
                grew
            }
        }
    }

    /// Adds one name, changed whole; whether that was new.
    pub(crate) fn add(&mut self, name: &str) -> bool {
        self.add_change(name, NameChange::Whole)
    }

    /// Adds a change to the namespace `name`'s `members` (`None`: any of them); whether that
    /// was new.
    pub(crate) fn add_members(&mut self, name: &str, members: Option<BTreeSet<String>>) -> bool {
        match members {
            None => self.add(name),
            Some(members) => self.add_change(name, NameChange::Members(members)),
        }
    }

    fn add_change(&mut self, name: &str, change: NameChange) -> bool {
        let ExportChange::Names(names) = self else {
            return false;
        };
        match (names.get_mut(name), change) {
            (None, change) => {
                names.insert(name.to_owned(), change);
                true
            }
            (Some(NameChange::Whole), _) => false,
            (Some(existing), NameChange::Whole) => {
                *existing = NameChange::Whole;
                true
            }
            (Some(NameChange::Members(mine)), NameChange::Members(theirs)) => {
                let before = mine.len();
                mine.extend(theirs);
                mine.len() > before
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(names: &[&str]) -> Option<BTreeSet<String>> {
        Some(names.iter().map(|n| (*n).to_owned()).collect())
    }

    #[test]
    fn member_changes_grow_and_a_whole_change_absorbs_them() {
        let mut change = ExportChange::none();
        assert!(change.add_members("Hash", members(&["a"])));
        assert!(!change.add_members("Hash", members(&["a"])));
        assert!(change.add_members("Hash", members(&["b"])));
        assert_eq!(
            change.get("Hash"),
            Some(&NameChange::Members(["a", "b"].map(String::from).into()))
        );
        assert!(change.add("Hash"));
        assert!(!change.add_members("Hash", members(&["c"])));
        assert_eq!(change.get("Hash"), Some(&NameChange::Whole));
        assert_eq!(change.get("Other"), None);
        let mut all = ExportChange::All;
        assert!(!all.merge(&change));
        assert!(change.merge(&ExportChange::All));
        assert_eq!(change, ExportChange::All);
    }
}
