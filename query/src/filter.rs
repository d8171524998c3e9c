//! The filters of a search (`--kind`, `--file`, `--module`, `--package`, `--exported`),
//! shared by pattern and topic search.

use globset::{Glob, GlobMatcher};
use tsgraph_engine::NodeView;

use crate::error::QueryError;
use crate::search::{SearchError, SearchOptions};

/// The filters of one search, the file glob compiled.
pub(crate) struct Filter<'o> {
    options: &'o SearchOptions,
    file: Option<GlobMatcher>,
}

impl<'o> Filter<'o> {
    /// The filters of `options`; a file glob that does not compile is an error naming it.
    pub(crate) fn new(options: &'o SearchOptions) -> Result<Filter<'o>, QueryError> {
        let file = options
            .file
            .as_deref()
            .map(|glob| {
                Glob::new(glob)
                    .map(|g| g.compile_matcher())
                    .map_err(|err| SearchError::FileGlob {
                        glob: glob.to_owned(),
                        message: err.kind().to_string(),
                    })
            })
            .transpose()?;
        Ok(Filter { options, file })
    }

    /// Whether no filter is set (every node is kept).
    pub(crate) fn is_empty(&self) -> bool {
        let o = self.options;
        o.kinds.is_empty()
            && self.file.is_none()
            && o.module.is_none()
            && o.package.is_none()
            && o.exported.is_none()
    }

    /// Whether `view` passes every filter.
    pub(crate) fn keeps(&self, view: &NodeView<'_>) -> bool {
        let o = self.options;
        (o.kinds.is_empty() || o.kinds.contains(&view.kind()))
            && self.file.as_ref().is_none_or(|g| g.is_match(view.file()))
            && o.module.as_deref().is_none_or(|m| view.module() == m)
            && o.package.as_deref().is_none_or(|p| view.package() == p)
            && o.exported.is_none_or(|e| view.exported() == e)
    }
}
