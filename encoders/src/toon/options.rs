//! Encoder options shared by every TOON writer.

/// The delimiter that separates inline array values and tabular cells.
///
/// One delimiter is active for a whole document; headers declare it (`[N\t]`, `[N|]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Delimiter {
    /// `,` — the default; headers do not mention it.
    #[default]
    Comma,
    /// A horizontal tab.
    Tab,
    /// `|`.
    Pipe,
}

impl Delimiter {
    /// The delimiter's character.
    pub const fn as_char(self) -> char {
        match self {
            Delimiter::Comma => ',',
            Delimiter::Tab => '\t',
            Delimiter::Pipe => '|',
        }
    }

    /// The delimiter's byte.
    pub const fn as_byte(self) -> u8 {
        self.as_char() as u8
    }
}

/// Options of the TOON encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Spaces per indentation level (default 2).
    pub indent: usize,
    /// The document's delimiter (default comma).
    pub delimiter: Delimiter,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            indent: 2,
            delimiter: Delimiter::Comma,
        }
    }
}
