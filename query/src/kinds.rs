//! Sets of edge kinds: what a traversal follows (`--edge-kinds calls,includes`).

use std::fmt;

use tsgraph_engine::EdgeKind;

/// A set of [`EdgeKind`]s, one bit per kind.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct EdgeKinds(u16);

impl EdgeKinds {
    /// No kind.
    pub const NONE: EdgeKinds = EdgeKinds(0);

    /// The kinds of `kinds`.
    pub const fn of(kinds: &[EdgeKind]) -> EdgeKinds {
        let mut bits = 0u16;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i].as_u8();
            i += 1;
        }
        EdgeKinds(bits)
    }

    /// Callers and callees by default: calls, and JSX elements including a component.
    pub const CALLS: EdgeKinds = EdgeKinds::of(&[EdgeKind::Calls, EdgeKind::Includes]);

    /// Impact by default: every dependency kind. CONTAINS is structure, not dependency:
    /// following it from a member up to its file would pull in every importer of the file.
    pub const DEPENDENCIES: EdgeKinds = EdgeKinds::of(&[
        EdgeKind::Calls,
        EdgeKind::Imports,
        EdgeKind::Extends,
        EdgeKind::Implements,
        EdgeKind::UsesType,
        EdgeKind::References,
        EdgeKind::Includes,
    ]);

    /// Paths by default: the edges along which control or data flows, and heritage.
    pub const PATH: EdgeKinds = EdgeKinds::of(&[
        EdgeKind::Calls,
        EdgeKind::References,
        EdgeKind::Extends,
        EdgeKind::Implements,
        EdgeKind::Includes,
    ]);

    /// Every kind.
    pub const ALL: EdgeKinds = EdgeKinds(0xff);

    /// Whether `kind` is in the set.
    pub const fn contains(self, kind: EdgeKind) -> bool {
        self.0 & (1 << kind.as_u8()) != 0
    }

    /// The set with `kind` added.
    pub const fn with(self, kind: EdgeKind) -> EdgeKinds {
        EdgeKinds(self.0 | (1 << kind.as_u8()))
    }

    /// The kinds of both sets.
    pub const fn intersect(self, other: EdgeKinds) -> EdgeKinds {
        EdgeKinds(self.0 & other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in the set, in declaration order.
    pub fn iter(self) -> impl Iterator<Item = EdgeKind> {
        EdgeKind::ALL
            .iter()
            .copied()
            .filter(move |k| self.contains(*k))
    }

    /// Parses a comma-separated list of kind names (`calls,REFERENCES,uses_type`).
    pub fn parse(text: &str) -> Result<EdgeKinds, String> {
        let mut set = EdgeKinds::NONE;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let kind = EdgeKind::parse(part).ok_or_else(|| {
                let names: Vec<&str> = EdgeKind::ALL.iter().map(|k| k.as_str()).collect();
                format!("unknown edge kind `{part}`; one of {}", names.join(", "))
            })?;
            set = set.with(kind);
        }
        if set.is_empty() {
            return Err("no edge kind given".to_owned());
        }
        Ok(set)
    }
}

impl fmt::Debug for EdgeKinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for EdgeKinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, kind) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(kind.as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_kind_lists() {
        let set = EdgeKinds::parse("calls, references").expect("valid");
        assert!(set.contains(EdgeKind::Calls) && set.contains(EdgeKind::References));
        assert!(!set.contains(EdgeKind::Includes));
        assert_eq!(set.to_string(), "CALLS,REFERENCES");
        assert!(EdgeKinds::parse("calls,nope").is_err());
        assert!(EdgeKinds::parse("").is_err());
        assert!(!EdgeKinds::DEPENDENCIES.contains(EdgeKind::Contains));
    }
}
