//! Finds the source files of a project, skipping node_modules, declaration files and files over
//! the size limit, and never leaving the project root.
//!
//! Ignore rules come only from inside the root: `.gitignore` files (with or without a git
//! repository), `.ignore` files, `.tsgraphignore` files (same syntax, tsgraph only) and
//! `.git/info/exclude` of a repository whose `.git` folder is inside the root. Folders above
//! the root and the user's global git configuration (`core.excludesFile`) are not read: what is
//! indexed depends on the project alone.
//!
//! Symbolic links: folders are not followed (their files are indexed where they really are
//! when that is inside the root); a linked file is indexed, under the link's path, when its
//! target is inside the root, and skipped with a warning when it is not.

use std::path::{Path, PathBuf};

/// The project-specific ignore file: `.gitignore` syntax, read in every folder.
pub(crate) const TSGRAPH_IGNORE: &str = ".tsgraphignore";

/// A source file found by the walk.
#[derive(Debug, Clone)]
pub(crate) struct SourceFile {
    /// Size in bytes, from the walk's one look at the file.
    pub(crate) size: u64,
    /// Modification time (nanoseconds since the epoch, 0 when unknown).
    pub(crate) modified: u64,
    /// Where to read it: the file itself, or a symbolic link's target (inside the root).
    pub(crate) absolute: PathBuf,
    /// Relative to the root, forward slashes.
    pub(crate) relative: String,
}

/// What the walk found and what it passed over.
#[derive(Debug, Default)]
pub(crate) struct WalkResult {
    pub(crate) files: Vec<SourceFile>,
    /// Configuration files the project model reads (tsconfig.json, package.json, …), with
    /// their size and modification time.
    pub(crate) configs: Vec<SourceFile>,
    /// Files skipped for their size, with the size.
    pub(crate) too_large: Vec<(String, u64)>,
    /// Directory entries that could not be read.
    pub(crate) errors: Vec<String>,
    /// What a whole walk read besides the files it kept (empty for the way to one file).
    pub(crate) seen: Seen,
}

/// What a whole walk read that decides what it finds, besides the files it kept: its
/// folders and ignore files. With their stamps, `walk_listing.rs` tells later that a walk
/// would find the same files.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Every folder read (relative, "" the root) with its change time ([`change_time`];
    /// `None` unknown).
    pub(crate) folders: Vec<(String, Option<u64>)>,
    /// The ignore files the walk may have read (relative, forward slashes): those present
    /// in its folders (whether or not they are themselves ignored: the walker reads them
    /// all), and `.git/info/exclude` beside each `.git` folder, present or not.
    pub(crate) ignore_files: Vec<String>,
    /// The walk met what stamps cannot vouch for: a symbolic link (its target may change
    /// without its folder), a `.git` file (its repository lies elsewhere), an ignore file or
    /// folder it could not read, or a name that is not UTF-8.
    pub(crate) unlistable: bool,
}

/// The names of the ignore files the walker reads in each folder.
const IGNORE_FILE_NAMES: [&str; 3] = [".gitignore", ".ignore", TSGRAPH_IGNORE];

/// When the entry's inode last changed (nanoseconds since the epoch): on Unix its change
/// time, which every change of a folder's entries, of a file's contents, of permissions and
/// of the times themselves moves and nobody can set back; elsewhere its modification time.
pub(crate) fn change_time(metadata: &std::fs::Metadata) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let seconds = u64::try_from(metadata.ctime()).ok()?;
        let nanos = u64::try_from(metadata.ctime_nsec()).ok()?;
        seconds.checked_mul(1_000_000_000)?.checked_add(nanos)
    }
    #[cfg(not(unix))]
    {
        nanos(metadata.modified().ok()?)
    }
}

/// Extensions that are indexed.
const SOURCE_EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// Whether a path names a file indexing reads: a source extension, not a declaration file.
pub fn is_source_path(path: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
    !crate::model::is_declaration(path) && SOURCE_EXTENSIONS.contains(&ext)
}

/// The path as IDs spell it: UTF-8 with forward slashes. On Windows the separator is `\\`;
/// elsewhere a backslash is an ordinary character of a file name and stays.
fn relative_id_path(relative: &Path) -> Option<String> {
    let text = relative.to_str()?;
    Some(if std::path::MAIN_SEPARATOR == '\\' {
        text.replace('\\', "/")
    } else {
        text.to_owned()
    })
}

pub(crate) fn walk(root: &Path, max_file_size: u64) -> WalkResult {
    walk_within(root, max_file_size, None)
}

/// The one file at `relative` as the walk would find it: `None` when it is not a source file
/// of the project (ignored, hidden, in `node_modules`, a link out of the root, too large, or
/// not there). Only the folders on its way are read, with their ignore files.
pub(crate) fn walked_file(root: &Path, relative: &str, max_file_size: u64) -> Option<SourceFile> {
    walk_within(root, max_file_size, Some(Path::new(relative)))
        .files
        .into_iter()
        .find(|file| file.relative == relative)
}

/// The walk, of everything or only of the way to one file.
fn walk_within(root: &Path, max_file_size: u64, only: Option<&Path>) -> WalkResult {
    let mut result = WalkResult::default();
    // Symbolic links are judged against the root with its own links resolved.
    let real_root = match root.canonicalize() {
        Ok(real) => real,
        Err(err) => {
            result
                .errors
                .push(format!("{}: cannot read: {err}", root.display()));
            return result;
        }
    };
    let walk_root = root.to_path_buf();
    let whole = only.is_none();
    let only = only.map(Path::to_path_buf);
    let walker = ignore::WalkBuilder::new(root)
        // Hidden entries are skipped by `filter_entry`, except configuration files such as
        // `.pnp.cjs`.
        .hidden(false)
        .parents(false)
        .git_global(false)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .require_git(false)
        .follow_links(false)
        .add_custom_ignore_filename(TSGRAPH_IGNORE)
        // Every core for the whole project: the walk is most of a sync that finds nothing
        // changed (a look at each file and at each folder's ignore files), and each look waits
        // on the kernel alone. The way to one file (an editor's) is not worth a thread.
        .threads(if only.is_some() { 1 } else { 0 })
        .filter_entry(move |entry| {
            let name = entry.file_name();
            if name == "node_modules" || name == ".tsgraph" {
                return false;
            }
            if let Some(only) = &only {
                let on_the_way = entry
                    .path()
                    .strip_prefix(&walk_root)
                    .is_ok_and(|relative| only.starts_with(relative));
                if !on_the_way {
                    return false;
                }
            }
            let hidden = entry.depth() > 0 && name.to_string_lossy().starts_with('.');
            !hidden || (!entry.file_type().is_some_and(|t| t.is_dir()) && is_config_name(name))
        })
        .build_parallel();
    let found = parking_lot::Mutex::new(result);
    walker.visit(&mut Collector {
        found: &found,
        root,
        real_root: &real_root,
        max_file_size,
        whole,
    });
    let mut result = found.into_inner();
    result.seen.folders.sort();
    result.seen.ignore_files.sort();
    // The walkers' threads meet entries in no fixed order; what the walk gives is sorted, so
    // a sync compares (and stamps configurations) the same way every time.
    result.files.sort_by(|a, b| a.relative.cmp(&b.relative));
    result.configs.sort_by(|a, b| a.relative.cmp(&b.relative));
    result.too_large.sort();
    result.errors.sort();
    result
}

/// Makes one [`Visitor`] per walking thread, all adding to `found`.
struct Collector<'s> {
    found: &'s parking_lot::Mutex<WalkResult>,
    root: &'s Path,
    real_root: &'s Path,
    max_file_size: u64,
    /// A whole walk, which notes its folders ([`Seen`]).
    whole: bool,
}

impl<'s> ignore::ParallelVisitorBuilder<'s> for Collector<'s> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Visitor {
            found: self.found,
            root: self.root,
            real_root: self.real_root,
            max_file_size: self.max_file_size,
            whole: self.whole,
            mine: WalkResult::default(),
        })
    }
}

/// One walking thread's findings, kept apart from the others' until the thread is done.
struct Visitor<'s> {
    found: &'s parking_lot::Mutex<WalkResult>,
    root: &'s Path,
    real_root: &'s Path,
    max_file_size: u64,
    whole: bool,
    mine: WalkResult,
}

impl ignore::ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        match entry {
            Ok(entry) => self.take(entry),
            Err(err) => self.mine.errors.push(err.to_string()),
        }
        ignore::WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        let mine = std::mem::take(&mut self.mine);
        let mut found = self.found.lock();
        found.files.extend(mine.files);
        found.configs.extend(mine.configs);
        found.too_large.extend(mine.too_large);
        found.errors.extend(mine.errors);
        found.seen.folders.extend(mine.seen.folders);
        found.seen.ignore_files.extend(mine.seen.ignore_files);
        found.seen.unlistable |= mine.seen.unlistable;
    }
}

impl Visitor<'_> {
    /// Keeps the entry if it is a source or configuration file of the project.
    fn take(&mut self, entry: ignore::DirEntry) {
        let Some(file_type) = entry.file_type() else {
            return;
        };
        if file_type.is_dir() {
            if self.whole {
                self.note_folder(&entry);
            }
            return;
        }
        if !file_type.is_file() && !file_type.is_symlink() {
            return;
        }
        if file_type.is_symlink() {
            self.mine.seen.unlistable = true;
        }
        let Ok(relative) = entry.path().strip_prefix(self.root) else {
            return;
        };
        let result = &mut self.mine;
        // IDs are built from paths, so a path must map to exactly one string: a name that is
        // not UTF-8 is skipped rather than lossily converted (two such files could collide).
        let Some(relative) = relative_id_path(relative) else {
            if is_source_path(&relative.to_string_lossy()) {
                result.errors.push(format!(
                    "{}: skipped, the path is not UTF-8",
                    relative.display()
                ));
            }
            return;
        };
        if file_type.is_symlink() {
            if let Some(target) = follow_link(entry.path(), &relative, self.real_root, result) {
                add_file(result, target, relative, self.max_file_size);
            }
            return;
        }
        if is_source_path(&relative) {
            add_file(result, entry.into_path(), relative, self.max_file_size);
        } else if is_config_name(entry.file_name()) {
            let (size, modified) = std::fs::metadata(entry.path()).map_or((0, 0), |m| stamp_of(&m));
            result.configs.push(SourceFile {
                size,
                modified,
                absolute: entry.into_path(),
                relative,
            });
        }
    }
}

impl Visitor<'_> {
    /// Notes a folder a whole walk reads, with its change time, and the ignore files in it
    /// (looked for by name: an ignore file that is itself ignored never reaches a visitor,
    /// yet the walker reads it).
    fn note_folder(&mut self, entry: &ignore::DirEntry) {
        let seen = &mut self.mine.seen;
        let relative = entry
            .path()
            .strip_prefix(self.root)
            .ok()
            .and_then(relative_id_path);
        let Some(relative) = relative else {
            seen.unlistable = true;
            return;
        };
        let inside = |name: &str| match relative.as_str() {
            "" => name.to_owned(),
            folder => format!("{folder}/{name}"),
        };
        for name in IGNORE_FILE_NAMES {
            match readable(&entry.path().join(name)) {
                Some(true) => seen.ignore_files.push(inside(name)),
                Some(false) => seen.unlistable = true,
                None => {}
            }
        }
        match std::fs::symlink_metadata(entry.path().join(".git")) {
            Ok(git) if git.is_dir() => {
                let exclude = Path::new(".git/info/exclude");
                if readable(&entry.path().join(exclude)) == Some(false) {
                    seen.unlistable = true;
                }
                seen.ignore_files.push(inside(".git/info/exclude"));
            }
            Ok(_) => seen.unlistable = true,
            Err(_) => {}
        }
        // A pattern the walker could not take is in the folder's entry as an error.
        if entry.error().is_some() {
            seen.unlistable = true;
        }
        let changed = entry.metadata().ok().and_then(|m| change_time(&m));
        seen.folders.push((relative, changed));
    }
}

/// Whether the ignore file at `path` can be read (`Some(false)` when it is there but cannot
/// be, as a file: the walker then goes on without its rules and says nothing), `None` when it
/// is not there.
fn readable(path: &Path) -> Option<bool> {
    match std::fs::File::open(path) {
        Ok(file) => Some(file.metadata().is_ok_and(|m| m.is_file())),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(_) => Some(false),
    }
}

/// Where a symbolic link found by the walk leads, when that is a source file inside the root.
/// A link out of the root is reported (files and folders alike: either would read outside the
/// project); a link to a folder inside it is passed over silently, since the walk reaches that
/// folder where it really is.
fn follow_link(
    link: &Path,
    relative: &str,
    real_root: &Path,
    result: &mut WalkResult,
) -> Option<PathBuf> {
    let target = match link.canonicalize() {
        Ok(target) => target,
        Err(err) => {
            if is_source_path(relative) {
                result.errors.push(format!(
                    "{relative}: skipped, a broken symbolic link ({err})"
                ));
            }
            return None;
        }
    };
    let is_dir = target.is_dir();
    if !target.starts_with(real_root) {
        if is_dir || is_source_path(relative) {
            result.errors.push(format!(
                "{relative}: skipped, a symbolic link to {} outside the project",
                target.display()
            ));
        }
        return None;
    }
    (!is_dir && is_source_path(relative)).then_some(target)
}

fn add_file(result: &mut WalkResult, absolute: PathBuf, relative: String, max_file_size: u64) {
    let (size, modified) = std::fs::metadata(&absolute).map_or((0, 0), |m| stamp_of(&m));
    let file = SourceFile {
        size,
        modified,
        absolute,
        relative,
    };
    add_found(result, file, max_file_size);
}

/// Keeps a source file the walk found: among the files, or those over the size limit.
pub(crate) fn add_found(result: &mut WalkResult, file: SourceFile, max_file_size: u64) {
    if file.size > max_file_size {
        result.too_large.push((file.relative, file.size));
    } else {
        result.files.push(file);
    }
}

/// A file's size and modification time (nanoseconds since the epoch, 0 unknown).
pub(crate) fn stamp_of(metadata: &std::fs::Metadata) -> (u64, u64) {
    let modified = metadata.modified().ok().and_then(nanos).unwrap_or(0);
    (metadata.len(), modified)
}

/// A time as nanoseconds since the epoch (`None` before it).
pub(crate) fn nanos(time: std::time::SystemTime) -> Option<u64> {
    let since = time.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(u64::try_from(since.as_nanos()).unwrap_or(u64::MAX))
}

/// Whether a file name is one the project model reads.
fn is_config_name(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .is_some_and(|name| crate::model::DISCOVERED_NAMES.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::{is_source_path, walk};

    #[cfg(unix)]
    #[test]
    fn paths_that_are_not_utf8_are_skipped_with_a_warning() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("ok.ts"), "export const a = 1;").expect("write");
        std::fs::write(
            dir.path().join(std::ffi::OsStr::from_bytes(b"\xff.ts")),
            "x",
        )
        .expect("write");
        std::fs::write(
            dir.path().join(std::ffi::OsStr::from_bytes(b"\xfe.ts")),
            "y",
        )
        .expect("write");
        let result = walk(dir.path(), 1 << 20);
        let files: Vec<&str> = result.files.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(files, ["ok.ts"]);
        assert_eq!(result.errors.len(), 2, "{:?}", result.errors);
        assert!(
            result
                .errors
                .iter()
                .all(|e| e.ends_with("skipped, the path is not UTF-8"))
        );
    }

    fn write(path: &std::path::Path, text: &str) {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create folder");
        }
        std::fs::write(path, text).expect("write");
    }

    fn found(result: &super::WalkResult) -> Vec<&str> {
        result.files.iter().map(|f| f.relative.as_str()).collect()
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_the_root_are_followed_and_links_out_of_it_are_skipped_with_a_warning() {
        use std::os::unix::fs::symlink;
        let outer = tempfile::tempdir().expect("temp dir");
        let root = outer.path().join("project");
        let outside = outer.path().join("elsewhere");
        write(&root.join("src/a.ts"), "export const a = 1;");
        write(&root.join("lib/b.ts"), "export const b = 2;");
        write(&outside.join("secret.ts"), "export const secret = 3;");
        write(&outside.join("dir/c.ts"), "export const c = 4;");
        symlink(root.join("lib/b.ts"), root.join("src/b_link.ts")).expect("link");
        symlink(root.join("lib"), root.join("src/lib_link")).expect("link");
        symlink(outside.join("secret.ts"), root.join("src/secret.ts")).expect("link");
        symlink(outside.join("dir"), root.join("src/dir_link")).expect("link");
        symlink(outer.path().join("missing.ts"), root.join("src/broken.ts")).expect("link");

        let result = walk(&root, 1 << 20);
        assert_eq!(found(&result), ["lib/b.ts", "src/a.ts", "src/b_link.ts"]);
        let link = result.files.iter().find(|f| f.relative == "src/b_link.ts");
        assert_eq!(
            link.map(|f| f.absolute.clone()),
            Some(root.join("lib/b.ts").canonicalize().expect("real path")),
            "a link is read at its checked target"
        );
        let mut errors = result.errors.clone();
        errors.sort();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("src/broken.ts: skipped, a broken symbolic link"));
        assert!(errors[1].starts_with("src/dir_link: skipped, a symbolic link to "));
        assert!(
            errors[1].ends_with("elsewhere/dir outside the project"),
            "{}",
            errors[1]
        );
        assert!(errors[2].starts_with("src/secret.ts: skipped, a symbolic link to "));
    }

    #[test]
    fn ignore_rules_above_the_root_do_not_apply_and_those_inside_it_do() {
        let outer = tempfile::tempdir().expect("temp dir");
        // The folder above is a git repository whose .gitignore ignores every .ts file.
        write(&outer.path().join(".gitignore"), "*.ts\n");
        std::fs::create_dir_all(outer.path().join(".git/info")).expect("create .git");
        write(&outer.path().join(".git/info/exclude"), "*.tsx\n");
        write(&outer.path().join(".ignore"), "*.js\n");
        let root = outer.path().join("project");
        write(&root.join("src/a.ts"), "");
        write(&root.join("src/b.tsx"), "");
        write(&root.join("src/c.js"), "");
        // Inside the root: a nested .gitignore, an .ignore and a .tsgraphignore.
        write(&root.join("src/.gitignore"), "gen_*.ts\n");
        write(&root.join("src/gen_x.ts"), "");
        write(&root.join(".ignore"), "vendor/\n");
        write(&root.join("vendor/v.ts"), "");
        write(&root.join(super::TSGRAPH_IGNORE), "fixtures/\n");
        write(&root.join("fixtures/f.ts"), "");
        // A .tsgraphignore overrides a .gitignore that would keep a file out.
        write(&root.join(".gitignore"), "keep.ts\n");
        write(&root.join("other/.tsgraphignore"), "!keep.ts\n");
        write(&root.join("other/keep.ts"), "");

        let result = walk(&root, 1 << 20);
        assert_eq!(
            found(&result),
            ["other/keep.ts", "src/a.ts", "src/b.tsx", "src/c.js"]
        );
        assert!(result.errors.is_empty(), "{:?}", result.errors);
    }

    #[test]
    fn what_the_threads_find_comes_out_sorted() {
        let dir = tempfile::tempdir().expect("temp dir");
        // Many folders, so that both walking threads take some, each with a config file
        // and a file over the size limit.
        let mut expected = Vec::new();
        for folder in (0..40).rev() {
            for file in ["b.ts", "a.ts"] {
                let path = format!("pkg{folder:02}/src/{file}");
                write(&dir.path().join(&path), "export const x = 1;\n");
                expected.push(path);
            }
            write(
                &dir.path().join(format!("pkg{folder:02}/package.json")),
                "{}",
            );
            write(
                &dir.path().join(format!("pkg{folder:02}/big.ts")),
                &"x".repeat(64),
            );
        }
        expected.sort();
        let result = walk(dir.path(), 32);
        assert_eq!(found(&result), expected);
        let configs: Vec<&str> = result.configs.iter().map(|c| c.relative.as_str()).collect();
        let mut sorted = configs.clone();
        sorted.sort();
        assert_eq!(configs.len(), 40);
        assert_eq!(configs, sorted);
        let large: Vec<&str> = result.too_large.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(large.len(), 40);
        assert!(large.is_sorted(), "{large:?}");
    }

    #[test]
    fn declaration_files_and_other_extensions_are_not_sources() {
        assert!(is_source_path("src/a.ts"));
        assert!(is_source_path("src/App.tsx"));
        assert!(is_source_path("lib/x.mjs"));
        assert!(!is_source_path("types/index.d.ts"));
        assert!(!is_source_path("README.md"));
        assert!(!is_source_path("Makefile"));
    }
}
