//! Why an update re-links a file: the rule that brought it in, as `index --explain` lists it.

use crate::reach::ReachRule;

/// Why an update re-linked a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelinkReason {
    /// Its text changed, or it is new.
    Changed,
    /// Its imports resolve to other files since files came or went.
    ImportsMoved,
    /// It uses what `from` exports, which changed.
    Uses {
        /// The file whose exports changed.
        from: String,
        /// How the change reached it.
        rule: ReachRule,
        /// The changed name it uses, a namespace's member as `NS.member`.
        name: String,
    },
    /// It has an edge into `node`, a node of a changed file that went or may be reached
    /// differently (a class, an interface or a member).
    EdgeIntoChanged {
        /// The node.
        node: String,
    },
    /// It has an edge into `member`, an interface member whose implementations changed.
    ImplementationsChanged {
        /// The interface member.
        member: String,
    },
    /// Linking the others gives edges from its node `node` (a node's edges are rewritten
    /// together).
    EdgesFrom {
        /// The node.
        node: String,
    },
}

impl std::fmt::Display for RelinkReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RelinkReason::Changed => f.write_str("its text changed"),
            RelinkReason::ImportsMoved => f.write_str("its imports resolve to other files now"),
            RelinkReason::Uses { from, rule, name } => match rule {
                ReachRule::ImportsName => write!(f, "it imports `{name}` from {from}"),
                ReachRule::NamesMember => write!(f, "it names `{name}` of {from}"),
                ReachRule::UsesNamespace => {
                    write!(f, "it uses the namespace `{name}` of {from} whole")
                }
                ReachRule::Reexports => write!(f, "it re-exports `{name}` of {from}"),
            },
            RelinkReason::EdgeIntoChanged { node } => {
                write!(f, "it has an edge into {node}, which changed or went")
            }
            RelinkReason::ImplementationsChanged { member } => write!(
                f,
                "it has an edge into {member}, whose implementations changed"
            ),
            RelinkReason::EdgesFrom { node } => {
                write!(f, "linking the others gives edges from its node {node}")
            }
        }
    }
}
