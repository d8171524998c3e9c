//! The kinds of nodes and edges of the code graph, and the compact node key.

use std::fmt;

/// A node's compact internal key. The public string ID is looked up once and then the key is
/// used everywhere: in adjacency lists, in query frontiers and in sinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeKey(pub u32);

macro_rules! byte_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal, )+ }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[repr(u8)]
        pub enum $name { $( $(#[$vmeta])* $variant = $value, )+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value stored for this variant.
            pub const fn as_u8(self) -> u8 {
                self as u8
            }

            /// The variant stored as `byte`, or `None` for a byte no variant has.
            pub const fn from_u8(byte: u8) -> Option<Self> {
                match byte {
                    $( $value => Some($name::$variant), )+
                    _ => None,
                }
            }

            /// The name used in outputs and on the command line.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }

            /// Parses the name used in outputs (case-insensitive).
            pub fn parse(text: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.as_str().eq_ignore_ascii_case(text))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

byte_enum! {
    /// What a node stands for.
    pub enum NodeKind {
        /// A source file; its ID is its path.
        File = 0 => "File",
        /// A function declaration or a function/arrow expression bound to a name.
        Function = 1 => "Function",
        /// A class.
        Class = 2 => "Class",
        /// A method of a class or an object literal.
        Method = 3 => "Method",
        /// An interface.
        Interface = 4 => "Interface",
        /// A type alias.
        TypeAlias = 5 => "TypeAlias",
        /// A variable that is not a function.
        Variable = 6 => "Variable",
        /// A class field or an interface property.
        Property = 7 => "Property",
        /// An enum.
        Enum = 8 => "Enum",
    }
}

byte_enum! {
    /// What an edge says about its two ends.
    pub enum EdgeKind {
        /// A file contains a symbol, a class its members.
        Contains = 0 => "CONTAINS",
        /// A file imports another file.
        Imports = 1 => "IMPORTS",
        /// A function or method calls another.
        Calls = 2 => "CALLS",
        /// A class or interface extends another.
        Extends = 3 => "EXTENDS",
        /// A class implements an interface.
        Implements = 4 => "IMPLEMENTS",
        /// A symbol uses a type in a signature or annotation.
        UsesType = 5 => "USES_TYPE",
        /// A symbol refers to another without calling it.
        References = 6 => "REFERENCES",
        /// A JSX element includes a component (`<Foo/>`).
        Includes = 7 => "INCLUDES",
    }
}

byte_enum! {
    /// Where a type is used or a symbol referenced (USES_TYPE and REFERENCES facts).
    pub enum UseContext {
        /// No context recorded.
        None = 0 => "none",
        /// In a parameter.
        Parameter = 1 => "parameter",
        /// In a return type.
        Return = 2 => "return",
        /// In a property.
        Property = 3 => "property",
        /// In a variable.
        Variable = 4 => "variable",
        /// Passed as a call argument.
        Argument = 5 => "argument",
        /// Any other expression.
        Expression = 6 => "expression",
        /// In an `extends` or `implements` clause (type arguments of a base).
        Heritage = 7 => "heritage",
        /// In a type alias's definition (`type Handler = (req: Request) => Response`).
        Alias = 8 => "alias",
    }
}

byte_enum! {
    /// How a CALLS edge's target was found (its provenance).
    pub enum Resolution {
        /// Not recorded (edges of other kinds).
        Unknown = 0 => "unknown",
        /// A name declared in the same file.
        Direct = 1 => "direct",
        /// A name imported from another module, or a namespace member.
        Import = 2 => "import",
        /// `this.m()`, `super.m()`, `super(…)`.
        This = 3 => "this",
        /// A member on a receiver whose type is declared.
        Typed = 4 => "typed",
        /// A member on a receiver whose type was inferred.
        Inferred = 5 => "inferred",
        /// A variable that holds a function.
        Alias = 6 => "alias",
        /// An implementation reached through an interface or abstract member.
        Dispatch = 7 => "dispatch",
        /// A function a table or list holds, called with a key that is not a literal
        /// (`handlers[kind](…)`): any of the functions it holds may be the one called.
        Element = 8 => "element",
    }
}

impl Resolution {
    /// The resolution stored as `byte`; an unknown byte reads as unknown.
    pub fn from_stored(byte: u8) -> Resolution {
        Resolution::from_u8(byte).unwrap_or(Resolution::Unknown)
    }

    /// Whether a call found this way may happen rather than surely does: dispatch to an
    /// override or implementation, or one entry of a table called by a computed key. The
    /// checker proves neither, so answers mark them and accuracy scores them apart.
    ///
    /// ```
    /// use tsgraph_engine::Resolution;
    /// assert!(Resolution::Element.is_may_call());
    /// assert!(!Resolution::Typed.is_may_call());
    /// ```
    pub fn is_may_call(self) -> bool {
        matches!(self, Resolution::Dispatch | Resolution::Element)
    }
}

impl UseContext {
    /// The context stored as `byte`; an unknown byte reads as no context.
    pub fn from_stored(byte: u8) -> UseContext {
        UseContext::from_u8(byte).unwrap_or(UseContext::None)
    }
}

byte_enum! {
    /// The declared visibility of a class member.
    pub enum Visibility {
        /// Nothing declared (public by default).
        Default = 0 => "default",
        /// `public`.
        Public = 1 => "public",
        /// `protected`.
        Protected = 2 => "protected",
        /// `private` or a `#private` name.
        Private = 3 => "private",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_unknown_bytes_are_rejected() {
        for kind in NodeKind::ALL {
            assert_eq!(NodeKind::from_u8(kind.as_u8()), Some(*kind));
        }
        for kind in EdgeKind::ALL {
            assert_eq!(EdgeKind::from_u8(kind.as_u8()), Some(*kind));
        }
        assert_eq!(NodeKind::from_u8(200), None);
        assert_eq!(EdgeKind::parse("calls"), Some(EdgeKind::Calls));
        assert_eq!(EdgeKind::UsesType.to_string(), "USES_TYPE");
    }
}
