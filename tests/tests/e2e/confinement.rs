//! Nothing outside the project root is read or written: a store folder linked out of the
//! project, linked sources and manifests, and ignore rules from above the root or from the
//! user's git configuration.

use std::path::Path;

use tsgraph::{Error, Project};
use tsgraph_tests::fixture_copy;

use crate::process::{output, tsgraph};

/// The files an index of `project` stored.
fn indexed_files(project: &Project) -> Vec<String> {
    project
        .snapshot()
        .expect("snapshot")
        .files()
        .expect("files")
        .into_iter()
        .map(|(path, _)| path)
        .collect()
}

#[cfg(unix)]
#[test]
fn a_store_folder_linked_out_of_the_project_is_refused_unless_db_names_it() {
    let (dir, project) = fixture_copy("basic");
    let outside = dir.path().join("elsewhere");
    std::fs::create_dir(&outside).expect("create");
    std::os::unix::fs::symlink(&outside, project.join(".tsgraph")).expect("link");

    let err = Project::open(&project, None).err().expect("refused");
    assert!(matches!(err, Error::StoreOutsideProject { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("outside the project"), "{text}");
    assert!(
        text.contains(&format!(
            "--db {}",
            outside
                .canonicalize()
                .expect("real")
                .join("graph.redb")
                .display()
        )),
        "{text}"
    );
    assert_eq!(
        std::fs::read_dir(&outside).expect("list").count(),
        0,
        "nothing written there"
    );

    // The CLI says the same and exits 1.
    let (run, _, stderr) = output(tsgraph(&project).args(["callers", "saveUser"]));
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("outside the project"), "{stderr}");
    assert_eq!(std::fs::read_dir(&outside).expect("list").count(), 0);

    // Named with --db, the same place is used.
    let explicit = Project::open(&project, Some(&outside.join("graph.redb"))).expect("open");
    explicit.index(&Default::default()).expect("index");
    assert!(outside.join("graph.redb").exists());
}

#[cfg(unix)]
#[test]
fn a_store_folder_linked_inside_the_project_is_used() {
    let (_dir, project) = fixture_copy("basic");
    std::fs::create_dir(project.join("generated/store")).expect("create");
    std::os::unix::fs::symlink(project.join("generated/store"), project.join(".tsgraph"))
        .expect("link");
    let opened = Project::open(&project, None).expect("open");
    opened.index(&Default::default()).expect("index");
    assert!(project.join("generated/store/graph.redb").exists());
}

#[cfg(unix)]
#[test]
fn sources_and_manifests_linked_from_outside_are_not_read() {
    let (dir, project) = fixture_copy("basic");
    let outside = dir.path().join("elsewhere");
    std::fs::create_dir_all(outside.join("pkg")).expect("create");
    std::fs::write(outside.join("secret.ts"), "export function secretFn() {}\n").expect("write");
    std::fs::write(
        outside.join("pkg/package.json"),
        r#"{"name":"secret-package"}"#,
    )
    .expect("write");
    std::os::unix::fs::symlink(outside.join("secret.ts"), project.join("src/secret.ts"))
        .expect("link");
    std::fs::create_dir(project.join("src/pkg")).expect("create");
    std::os::unix::fs::symlink(
        outside.join("pkg/package.json"),
        project.join("src/pkg/package.json"),
    )
    .expect("link");
    std::fs::write(
        project.join("src/pkg/inner.ts"),
        "export function inner() {}\n",
    )
    .expect("write");
    // A link to a file inside the project is indexed under the link's path.
    std::os::unix::fs::symlink(
        project.join("src/db/user.ts"),
        project.join("src/user_link.ts"),
    )
    .expect("link");

    let store = tempfile::tempdir().expect("temp dir");
    let opened = Project::open(&project, Some(&store.path().join("graph.redb"))).expect("open");
    let summary = opened.index(&Default::default()).expect("index");
    let files = indexed_files(&opened);
    assert!(!files.iter().any(|f| f == "src/secret.ts"), "{files:?}");
    assert!(files.iter().any(|f| f == "src/user_link.ts"), "{files:?}");
    assert!(files.iter().any(|f| f == "src/pkg/inner.ts"), "{files:?}");
    let warned: Vec<&String> = summary
        .warnings
        .iter()
        .filter(|w| w.starts_with("src/secret.ts: skipped, a symbolic link to "))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", summary.warnings);

    let mut export = Vec::new();
    opened.export(&mut export).expect("export");
    let export = String::from_utf8(export).expect("UTF-8");
    assert!(!export.contains("secretFn"), "{export}");
    // The linked manifest is passed over: the file belongs to the project's own package.
    let snapshot = opened.snapshot().expect("snapshot");
    let key = snapshot
        .key_of("src/pkg/inner.ts:inner")
        .expect("read")
        .expect("indexed");
    let node = snapshot.node(key).expect("read").expect("stored");
    let view = node.view().expect("valid");
    assert_eq!((view.package(), view.module()), ("basic-app", "."));
}

#[test]
fn ignore_rules_of_a_parent_folder_do_not_hide_the_project() {
    let (dir, project) = fixture_copy("basic");
    std::fs::write(dir.path().join(".gitignore"), "*.ts\n*.tsx\n").expect("write");
    std::fs::create_dir(dir.path().join(".git")).expect("create");
    let store = tempfile::tempdir().expect("temp dir");
    let opened = Project::open(&project, Some(&store.path().join("graph.redb"))).expect("open");
    let summary = opened.index(&Default::default()).expect("index");
    assert_eq!(summary.files, 10, "{:?}", indexed_files(&opened));
}

#[test]
fn the_users_global_git_ignore_rules_do_not_apply_and_tsgraphignore_does() {
    let (dir, project) = fixture_copy("basic");
    // A home whose git configuration ignores every TypeScript file, both ways git finds it.
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".config/git")).expect("create");
    std::fs::write(home.join(".config/git/ignore"), "*.ts\n*.tsx\n").expect("write");
    std::fs::write(home.join("excludes"), "*.ts\n*.tsx\n").expect("write");
    std::fs::write(
        home.join(".gitconfig"),
        format!(
            "[core]\n\texcludesFile = {}\n",
            home.join("excludes").display()
        ),
    )
    .expect("write");
    std::fs::write(project.join(".tsgraphignore"), "src/ui/\n").expect("write");
    let index = |project: &Path| {
        output(
            tsgraph(project)
                .arg("index")
                .env("HOME", &home)
                .env("XDG_CONFIG_HOME", home.join(".config")),
        )
    };
    let (run, stdout, stderr) = index(&project);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with("indexed 9 files"), "{stdout}");
}
