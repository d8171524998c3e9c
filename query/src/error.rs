//! Query errors.

use tsgraph_engine::StoreError;

/// Why a query failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// Reading the store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The sink failed: writing failed, or an encoder refused what it was given.
    #[error("writing the result")]
    Output(#[from] crate::SinkError),
    /// A search pattern or filter is invalid.
    #[error(transparent)]
    Search(#[from] crate::search::SearchError),
    /// `deps` was asked about a package no file belongs to and no file imports.
    #[error("no package named `{package}`{}", suggestion_text(.suggestions, *.close))]
    UnknownPackage {
        /// The name asked for.
        package: String,
        /// The closest package names when `close`, else every package of the project
        /// (at most 20).
        suggestions: Vec<String>,
        /// Whether `suggestions` are close to the name rather than the whole list.
        close: bool,
    },
    /// A path endpoint is a class or interface with several methods and no path through the
    /// class itself: one of its methods was meant.
    #[error("`{class}` is a class with no path through itself; give one of its methods")]
    MethodMeant {
        /// The class's ID.
        class: String,
        /// Its methods (at most 20).
        methods: Vec<crate::Candidate>,
    },
    /// A listing was asked to start past its last result.
    #[error("offset {offset} is past the end of the answer ({total} results)")]
    OffsetPastEnd {
        /// The offset asked for.
        offset: usize,
        /// The results there are.
        total: usize,
    },
    /// A node key named by an edge or a caller does not exist.
    #[error("node key {0} is not in the store (the store may be corrupt; rebuild it)")]
    MissingNode(u32),
}

fn suggestion_text(suggestions: &[String], close: bool) -> String {
    match (suggestions.is_empty(), close) {
        (true, _) => String::new(),
        (false, true) => format!("; closest: {}", suggestions.join(", ")),
        (false, false) => format!("; the project's packages: {}", suggestions.join(", ")),
    }
}
