//! A project model kept in the store, so that a new process takes the model the last build
//! made rather than reading and parsing every configuration file again: on the 1M-line
//! synthetic monorepo (276 packages) building it was the longest step of a one-file sync in
//! a new process (2026-11).
//!
//! A model built from the file system is kept with what decides it: the configuration files
//! its build was given, the source files it was built for, and every question its build put
//! to the file system — each file read (with its stamp, taken before the read), each file
//! asked for and missing, each presence asked about, each folder listed for declaration
//! files. A later process takes the kept model only when all of these are as they were,
//! checking stamps and presences without reading a file. A model whose build read something
//! that cannot be checked so (a linked file, a file outside the root, a file it could not
//! read) is not kept.
//!
//! Invariant: a kept model is the model a build would make now, as long as no file a build
//! reads keeps its stamp across a change. A write moves a file's change time; one within the
//! file system's clock tick of the stamp could leave it as it was, so a model is kept only
//! when every file it read had last changed [`SETTLED`] before its build began.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use super::ProjectModel;
use super::confine::ConfinedFs;
use super::source::{Asked, Dependency, FileStamp, Source, listed_configs, listing_digest};
use crate::walk_listing::SETTLED;

/// The metadata key of the kept model.
pub(crate) const KEPT_MODEL_META_KEY: &str = "project_model";

/// The metadata key of the files the last model built for a sync or an index read or missed
/// ([`ProjectModel::inputs_form`]): a sync checks them with the configuration files its
/// walk found, since a model also reads files no walk lists (an `extends` target such as
/// `tsconfig.base.json`).
pub(crate) const MODEL_INPUTS_META_KEY: &str = "model_inputs";

/// The version of the kept model's encoding; another is not read.
const VERSION: u8 = 1;

/// What a later process checks before it takes a kept model (see the module's notes).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Checks {
    /// The indexer that built the model ([`crate::indexed_marker`]): another's model is
    /// not taken, as its rules may differ.
    indexer: Vec<u8>,
    /// The configuration files the build was given, as its source listed them.
    listing: Vec<String>,
    /// The source files the model was built for: how many, and the wrapping sum of their
    /// paths' hashes (the order they come in does not count).
    files: (u64, u64),
    /// Every question the build put to the file system, by path (a listed folder by its
    /// own path).
    dependencies: BTreeMap<String, Dependency>,
    /// When the build began (nanoseconds since the epoch; 0 when the clock could not say,
    /// which keeps nothing).
    began: u64,
    /// Whether the model may be kept: every question can be checked again.
    #[serde(skip)]
    checkable: bool,
}

impl Checks {
    /// The checks of a build that began at `began`, given `listing`, for `files`, that
    /// asked what `asked` says.
    pub(super) fn new(
        listing: Vec<String>,
        files: &[&str],
        asked: Asked,
        began: SystemTime,
    ) -> Checks {
        Checks {
            indexer: crate::indexed_marker(),
            listing,
            files: files_digest(files.iter().copied()),
            dependencies: asked.dependencies,
            began: crate::walk::nanos(began).unwrap_or(0),
            checkable: asked.checkable,
        }
    }

    /// Whether every file read had last changed `settled` before the build began.
    fn settled(&self, settled: Duration) -> bool {
        let settled = u64::try_from(settled.as_nanos()).unwrap_or(u64::MAX);
        let Some(before) = self.began.checked_sub(settled) else {
            return false;
        };
        self.dependencies
            .values()
            .all(|dependency| match dependency {
                Dependency::Read((_, changed, _)) => *changed < before,
                _ => true,
            })
    }

    /// Whether a build for `files`, given `listing`, would ask the same questions of
    /// `root` and get the same answers.
    fn hold(&self, root: &Path, listing: &[String], files: &[&str]) -> bool {
        self.indexer == crate::indexed_marker()
            && self.files == files_digest(files.iter().copied())
            && self.listing == listing
            && dependencies_hold(root, &self.dependencies, |_| false)
    }
}

/// Whether every one of `dependencies` but those `skip` names is as it was under `root`.
fn dependencies_hold(
    root: &Path,
    dependencies: &BTreeMap<String, Dependency>,
    skip: impl Fn(&str) -> bool,
) -> bool {
    let mut fs = ConfinedFs::new(root);
    (dependencies.iter())
        .filter(|(path, _)| !skip(path))
        .all(|(path, dependency)| {
            let here = root.join(path);
            match dependency {
                Dependency::Read(stamp) => std::fs::symlink_metadata(&here)
                    .is_ok_and(|meta| meta.is_file() && stamp_of(&meta) == Some(*stamp)),
                // A fetch finds no file at a folder either.
                Dependency::Missing => match std::fs::symlink_metadata(&here) {
                    Ok(meta) => meta.is_dir(),
                    Err(err) => err.kind() == std::io::ErrorKind::NotFound,
                },
                // Nothing there is neither a file nor a folder to list: the usual answers,
                // found with one look rather than a canonical path.
                Dependency::Present(false) if is_absent(&here) => true,
                Dependency::Present(was) => fs.exists(path) == *was,
                Dependency::Listed(digest) if is_absent(&here) => *digest == listing_digest(&[]),
                Dependency::Listed(digest) => {
                    listing_digest(&fs.declarations_under(path)) == *digest
                }
            }
        })
}

/// Whether the files kept in `bytes` ([`ProjectModel::inputs_form`]) are as they were
/// under `root`, but for the configuration files a walk found (`walked`, sorted), whose
/// stamps the caller compares itself. Bytes that cannot be read say no.
pub(crate) fn inputs_hold(root: &Path, bytes: &[u8], walked: &[&str]) -> bool {
    let Some(dependencies) = postcard::from_bytes::<BTreeMap<String, Dependency>>(bytes).ok()
    else {
        return false;
    };
    dependencies_hold(root, &dependencies, |path| {
        walked.binary_search(&path).is_ok()
    })
}

/// The stamp of a file's metadata (see [`FileStamp`]), `None` when the system gives no
/// change time.
pub(crate) fn stamp_of(metadata: &std::fs::Metadata) -> Option<FileStamp> {
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(metadata);
    #[cfg(not(unix))]
    let inode = 0;
    Some((metadata.len(), crate::walk::change_time(metadata)?, inode))
}

/// Whether nothing at all is at `path` (a link counts as something).
fn is_absent(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_err_and(|err| err.kind() == std::io::ErrorKind::NotFound)
}

/// How many `files` there are and the wrapping sum of their hashes.
fn files_digest<'f>(files: impl Iterator<Item = &'f str>) -> (u64, u64) {
    files.fold((0, 0), |(count, sum), file| {
        (count + 1, sum.wrapping_add(xxh3_64(file.as_bytes())))
    })
}

/// A model as it is kept.
#[derive(Serialize)]
struct KeptRef<'m> {
    checks: &'m Checks,
    model: &'m ProjectModel,
}

/// A model as it is read back.
#[derive(Deserialize)]
struct Kept {
    checks: Checks,
    model: ProjectModel,
}

impl ProjectModel {
    /// The files this model's build read or missed, to keep under
    /// [`MODEL_INPUTS_META_KEY`] (postcard of their questions by path, each checked with a
    /// look at the file); `None` for a model read back from the store or built from memory.
    /// Presences asked and folders listed are left to the kept model's checks: a sync that
    /// finds no change checks these each time, and listing a folder of declarations could
    /// cost more than the sync.
    pub(crate) fn inputs_form(&self) -> Option<Vec<u8>> {
        let files: BTreeMap<&String, &Dependency> = (self.checks.as_ref()?.dependencies.iter())
            .filter(|(_, asked)| matches!(asked, Dependency::Read(_) | Dependency::Missing))
            .collect();
        postcard::to_stdvec(&files).ok()
    }

    /// The bytes to keep this model under [`KEPT_MODEL_META_KEY`], once: `None` when it
    /// cannot be checked later, was kept (or read back) already, or read a file that had
    /// changed too shortly before its build. The encoding: [`VERSION`], the xxh3 of the rest
    /// (u64 LE), then LZ4 (size-prepended block) of the postcard encoding of the checks and
    /// the model.
    pub(crate) fn kept_form(&mut self) -> Option<Vec<u8>> {
        self.kept_form_settled(SETTLED)
    }

    /// [`Self::kept_form`], for files read that had last changed `settled` before the build.
    fn kept_form_settled(&mut self, settled: Duration) -> Option<Vec<u8>> {
        let checks = self.checks.take()?;
        if !checks.checkable || !checks.settled(settled) {
            return None;
        }
        let kept = KeptRef {
            checks: &checks,
            model: self,
        };
        let raw = postcard::to_stdvec(&kept).ok()?;
        let packed = lz4_flex::block::compress_prepend_size(&raw);
        let mut bytes = Vec::with_capacity(9 + packed.len());
        bytes.push(VERSION);
        bytes.extend_from_slice(&xxh3_64(&packed).to_le_bytes());
        bytes.extend_from_slice(&packed);
        Some(bytes)
    }

    /// The model kept in `bytes` (see [`Self::kept_form`]) when a build under `root` given
    /// the configuration files `configs` (project-relative, as a walk found them), for
    /// `files`, would make it now; `None` otherwise, or for bytes of another version or
    /// damaged.
    pub(crate) fn from_kept(
        root: &Path,
        bytes: &[u8],
        configs: &[String],
        files: &[&str],
    ) -> Option<ProjectModel> {
        let (version, rest) = bytes.split_first()?;
        let (checksum, packed) = rest.split_first_chunk::<8>()?;
        if *version != VERSION || u64::from_le_bytes(*checksum) != xxh3_64(packed) {
            return None;
        }
        let raw = lz4_flex::block::decompress_size_prepended(packed).ok()?;
        let Kept { checks, mut model } = postcard::from_bytes(&raw).ok()?;
        // As a build given them would list them (`ConfinedFs::with_listing`).
        let listing = listed_configs(configs.to_vec());
        if !checks.hold(root, &listing, files) {
            return None;
        }
        for config in &mut model.configs {
            config.claims.compile_again();
        }
        Some(model)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use super::*;

    /// A workspace whose package config extends a base no walk lists, with a path alias and
    /// an `extends` into node_modules that is not installed (a file asked for and missing).
    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let files: &[(&str, &str)] = &[
            ("package.json", r#"{ "workspaces": ["packages/*"] }"#),
            (
                "tsconfig.base.json",
                r#"{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib": ["packages/b/src/lib.ts"] } } }"#,
            ),
            (
                "packages/a/tsconfig.json",
                r#"{ "extends": ["../../tsconfig.base.json", "@tsconfig/strictest/tsconfig.json"], "include": ["src"] }"#,
            ),
            (
                "packages/a/package.json",
                r#"{ "name": "@x/a", "type": "module" }"#,
            ),
            ("packages/a/src/main.ts", "import { lib } from '@lib';\n"),
            ("packages/b/package.json", r#"{ "name": "@x/b" }"#),
            ("packages/b/src/lib.ts", "export const lib = 1;\n"),
            ("packages/b/src/other.ts", "export const other = 1;\n"),
        ];
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    const CONFIGS: &[&str] = &[
        "package.json",
        "packages/a/package.json",
        "packages/a/tsconfig.json",
        "packages/b/package.json",
    ];
    const FILES: &[&str] = &[
        "packages/a/src/main.ts",
        "packages/b/src/lib.ts",
        "packages/b/src/other.ts",
    ];

    fn configs() -> Vec<String> {
        CONFIGS.iter().map(|c| (*c).to_owned()).collect()
    }

    /// A model of `root` built now, and its kept form (files count as settled at once).
    fn built_and_kept(root: &Path) -> (ProjectModel, Vec<u8>) {
        let mut model = ProjectModel::load_listed(root, FILES, configs());
        let bytes = model.kept_form_settled(Duration::ZERO).expect("kept");
        (model, bytes)
    }

    /// What linking asks of a model, for every file: equal answers, equal models.
    fn answers(model: &ProjectModel) -> Vec<String> {
        let mut out = vec![format!("{:x} {:?}", model.fingerprint(), model.warnings())];
        for file in FILES {
            out.push(format!(
                "{file}: {:?} {:?} {:?} {:?}",
                model.package_of(file),
                model.config_of(file),
                model.resolve(file, "@lib"),
                model.resolve(file, "@x/b"),
            ));
        }
        out
    }

    #[test]
    fn a_kept_model_is_taken_back_while_what_its_build_read_is_unchanged() {
        let dir = project();
        let root = dir.path();
        let (model, bytes) = built_and_kept(root);
        let back = ProjectModel::from_kept(root, &bytes, &configs(), FILES).expect("taken");
        assert_eq!(answers(&back), answers(&model));
        // In another order, as a store lists its files.
        let shuffled = [FILES[2], FILES[0], FILES[1]];
        assert!(ProjectModel::from_kept(root, &bytes, &configs(), &shuffled).is_some());
        // A model read back is kept already.
        let mut back = back;
        assert!(back.kept_form_settled(Duration::ZERO).is_none());
        assert!(back.inputs_form().is_none());
    }

    #[test]
    fn a_kept_model_is_not_taken_once_anything_its_build_asked_about_changed() {
        let dir = project();
        let root = dir.path();
        let (_, bytes) = built_and_kept(root);
        let taken = |files: &[&str], configs: &[String]| {
            ProjectModel::from_kept(root, &bytes, configs, files).is_some()
        };
        assert!(taken(FILES, &configs()));
        // Another set of source files, or of configuration files.
        assert!(!taken(&FILES[..2], &configs()));
        assert!(!taken(FILES, &configs()[..3]));
        // Damaged bytes.
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert!(ProjectModel::from_kept(root, &damaged, &configs(), FILES).is_none());
        // The base config no walk lists, edited (its stamp moves).
        let base = root.join("tsconfig.base.json");
        let text = std::fs::read_to_string(&base).unwrap();
        std::fs::write(&base, text.replace("lib.ts", "other.ts")).unwrap();
        assert!(!taken(FILES, &configs()));
        // A fresh build keeps a model again; the extended package installed ends it.
        let (_, bytes) = built_and_kept(root);
        assert!(ProjectModel::from_kept(root, &bytes, &configs(), FILES).is_some());
        let installed = root.join("node_modules/@tsconfig/strictest");
        std::fs::create_dir_all(&installed).unwrap();
        std::fs::write(installed.join("tsconfig.json"), "{}").unwrap();
        assert!(ProjectModel::from_kept(root, &bytes, &configs(), FILES).is_none());
    }

    #[test]
    fn a_model_whose_files_changed_lately_is_not_kept() {
        let dir = project();
        let mut model = ProjectModel::load_listed(dir.path(), FILES, configs());
        assert!(model.inputs_form().is_some(), "its inputs can be checked");
        assert!(
            model.kept_form_settled(SETTLED).is_none(),
            "written just now"
        );
    }

    #[test]
    fn a_model_that_read_a_linked_config_is_not_kept_but_its_other_inputs_are_checked() {
        let dir = project();
        let root = dir.path();
        // The package's config is a link (inside the root): it has no stamp of its own.
        let config = root.join("packages/a/tsconfig.json");
        let text = std::fs::read_to_string(&config).unwrap();
        std::fs::write(root.join("packages/a/real.json"), text).unwrap();
        std::fs::remove_file(&config).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("real.json", &config).unwrap();
        #[cfg(not(unix))]
        return;
        let mut model = ProjectModel::load(root, FILES);
        let inputs = model.inputs_form().expect("its other inputs");
        assert!(
            model.kept_form_settled(Duration::ZERO).is_none(),
            "not kept"
        );
        assert!(inputs_hold(root, &inputs, &[]));
        std::fs::write(root.join("tsconfig.base.json"), "{}").unwrap();
        assert!(
            !inputs_hold(root, &inputs, &[]),
            "the base config's edit is seen"
        );
    }

    #[test]
    fn a_folder_where_a_file_was_missing_is_still_no_file() {
        let dir = project();
        let root = dir.path();
        // `extends` names a package path that is a folder: no config is read there.
        std::fs::create_dir_all(root.join("node_modules/@tsconfig/strictest/tsconfig.json"))
            .unwrap();
        let (_, bytes) = built_and_kept(root);
        assert!(ProjectModel::from_kept(root, &bytes, &configs(), FILES).is_some());
    }

    #[test]
    fn the_inputs_of_a_model_hold_until_a_file_no_walk_lists_changes() {
        let dir = project();
        let root = dir.path();
        let model = ProjectModel::load_listed(root, FILES, configs());
        let inputs = model.inputs_form().expect("inputs");
        let walked: Vec<&str> = CONFIGS.to_vec();
        assert!(inputs_hold(root, &inputs, &walked));
        // A walked config's stamp is the caller's to compare: edited, the inputs still hold.
        std::fs::write(
            root.join("packages/b/package.json"),
            r#"{ "name": "@x/bb" }"#,
        )
        .unwrap();
        assert!(inputs_hold(root, &inputs, &walked));
        // The base config is not walked: edited, they do not.
        std::fs::write(root.join("tsconfig.base.json"), "{}").unwrap();
        assert!(!inputs_hold(root, &inputs, &walked));
        assert!(!inputs_hold(root, b"not postcard", &walked));
    }

    #[test]
    fn the_files_digest_does_not_depend_on_their_order() {
        let one = files_digest(["a.ts", "b/c.ts", "d.tsx"].into_iter());
        let other = files_digest(["d.tsx", "a.ts", "b/c.ts"].into_iter());
        assert_eq!(one, other);
        assert_ne!(one, files_digest(["a.ts", "b/c.ts"].into_iter()));
        assert_ne!(one, files_digest(["a.ts", "b/c.ts", "d.ts"].into_iter()));
    }
}
