//! The progress bar of a long index, drawn on stderr only when stderr is a terminal (a pipe
//! or a log file gets nothing, and the summary line is all that is written).

use std::io::IsTerminal;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use tsgraph::indexer::{IndexProgress, ProgressHook};

/// A bar and the hook that moves it; hidden when stderr is not a terminal. Clear it with
/// [`ProgressBar::finish_and_clear`] before printing the summary.
pub(super) fn index_progress() -> (Option<ProgressHook>, ProgressBar) {
    if !std::io::stderr().is_terminal() {
        return (None, ProgressBar::hidden());
    }
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template(
        "{msg:>8} [{bar:32}] {pos}/{len} files, {per_sec}, {elapsed} (eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message("parsing");
    let moved = bar.clone();
    let hook = ProgressHook(Arc::new(move |progress| match progress {
        IndexProgress::Parsing { done, total } => {
            moved.set_length(total);
            moved.set_position(done);
        }
        IndexProgress::Linking => moved.set_message("linking"),
        IndexProgress::Writing => moved.set_message("writing"),
        _ => {}
    }));
    (Some(hook), bar)
}
