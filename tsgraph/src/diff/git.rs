//! Running git for `impact --diff`: the `-U0` diff of a change and the old text of a file.

use std::path::Path;
use std::process::Command;

use crate::error::Error;
use crate::request::DiffSpec;

/// Runs `git ARGS` in `root`; its standard output, or [`Error::Git`] with git's message.
fn git(root: &Path, args: &[&str]) -> Result<Vec<u8>, Error> {
    let shown = args.join(" ");
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        // Paths as they are (no octal escapes), no pager, no external diff tools.
        .args(["-c", "core.quotepath=off", "--no-pager"])
        .args(args)
        .output()
        .map_err(|err| Error::Git {
            args: shown.clone(),
            message: format!("could not run git: {err}"),
        })?;
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr).trim().to_owned();
        return Err(Error::Git {
            args: shown,
            message: if message.is_empty() {
                format!("exited with {}", output.status)
            } else {
                message
            },
        });
    }
    Ok(output.stdout)
}

/// The `-U0` diff `spec` names, with paths relative to `root` (files outside it left out)
/// and renames found.
pub(crate) fn diff(root: &Path, spec: &DiffSpec) -> Result<String, Error> {
    let mut args = vec![
        "diff",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        "--relative",
        "-U0",
        "-M",
    ];
    match spec {
        DiffSpec::WorkingTree => {}
        DiffSpec::Since(rev) => revision(rev)?,
        DiffSpec::Between(from, to) => {
            revision(from)?;
            revision(to)?;
        }
    }
    match spec {
        DiffSpec::WorkingTree => args.push("HEAD"),
        DiffSpec::Since(rev) => args.push(rev),
        DiffSpec::Between(from, to) => {
            args.push(from);
            args.push(to);
        }
    }
    args.push("--");
    let out = git(root, &args)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Refuses a revision git could take for an option (`--output=…`), that is not one
/// revision (`A...B`, `A..`), or that names a tree or a path rather than a commit
/// (`HEAD:dir`, `:/message`, spaces and control characters).
fn revision(rev: &str) -> Result<(), Error> {
    let odd = |c: char| c == ':' || c.is_whitespace() || c.is_control();
    if rev.starts_with('-') || rev.contains("..") || rev.is_empty() || rev.contains(odd) {
        return Err(Error::Git {
            args: format!("diff {rev}"),
            message: "give one revision (`main`, `HEAD~2`) or two as A..B".to_owned(),
        });
    }
    Ok(())
}

/// The text of `path` (relative to `root`) at `rev`, or `None` when it has no such file.
pub(crate) fn show(root: &Path, rev: &str, path: &str) -> Result<Option<Vec<u8>>, Error> {
    revision(rev)?;
    // `ls-tree` prints nothing for a path the revision does not have (in any locale).
    if git(root, &["ls-tree", rev, "--", path])?.is_empty() {
        return Ok(None);
    }
    // `REV:./path` is relative to the folder git runs in, the project root.
    git(root, &["show", &format!("{rev}:./{path}")]).map(Some)
}

#[cfg(test)]
mod tests {
    use super::revision;

    #[test]
    fn only_one_commit_revision_is_taken() {
        for good in ["main", "HEAD~2", "v1.0.0", "origin/main", "abc123^"] {
            assert!(revision(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "--output=/tmp/x",
            "A..B",
            "A...B",
            "HEAD:../sibling",
            ":/fix",
            "main extra",
            "main\n",
        ] {
            assert!(revision(bad).is_err(), "{bad:?}");
        }
    }
}
