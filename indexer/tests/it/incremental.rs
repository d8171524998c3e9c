//! Incremental indexing equals indexing from scratch: random sequences of edits (files added,
//! removed and renamed, bodies changed, exports renamed, interfaces implemented or not) are
//! applied to a small project on disk; after each, the store kept up to date by the start-up
//! sync must hold exactly the graph a fresh index of the same files holds, node for node and
//! edge for edge (facts included).
//!
//! Half the cases sync with a fresh state each time (as a new process does), half keep one
//! [`LiveIndex`] across every step (as a server does), so that tables updated in place over
//! many edits are checked too.
//!
//! `TSGRAPH_INCREMENTAL_CASES` sets the number of cases (CI runs 200).

use std::collections::BTreeMap;
use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tsgraph_engine::{NodeKey, Snapshot, Store};
use tsgraph_indexer::{IndexOptions, LiveIndex, index_project, sync_project};

/// One edit of the project.
#[derive(Debug, Clone)]
enum Edit {
    /// Adds (or replaces) module `n` with one of the module templates.
    Write(u8, u8),
    /// Removes module `n`.
    Remove(u8),
    /// Renames module `n` to module `m`.
    Rename(u8, u8),
    /// Adds a statement inside a function body of module `n`.
    Body(u8),
    /// Toggles whether module `n` exports its helper under another name.
    RenameExport(u8),
}

const MODULES: u8 = 6;
const TEMPLATES: u8 = 10;

fn path_of(n: u8) -> String {
    format!("src/m{n}.ts")
}

/// The module templates: each imports the previous module and uses its exports in ways that
/// depend on what it exports and implements.
fn module_source(n: u8, template: u8, alias: bool, extra_body: usize) -> String {
    let prev = (n + MODULES - 1) % MODULES;
    let back = (n + MODULES - 2) % MODULES;
    let body: String = (0..extra_body)
        .map(|i| format!("  const extra{i} = helper{n}();\n"))
        .collect();
    let export = if alias {
        format!("export {{ helper{n} as renamed{n} }};\n")
    } else {
        format!("export {{ helper{n} }};\n")
    };
    match template % TEMPLATES {
        0 => format!(
            "import {{ helper{prev}, Shape{prev}, Impl{prev} }} from './m{prev}';\n\
             export interface Shape{n} {{ area(): number; grow(by: number): Shape{n} }}\n\
             export class Impl{n} implements Shape{n} {{\n\
               area(): number {{ return helper{prev}(); }}\n\
               grow(by: number): Shape{n} {{ return this; }}\n\
             }}\n\
             function helper{n}(): number {{\n{body}  return 1;\n}}\n\
             {export}\
             export function use{n}(s: Shape{prev}, i: Impl{prev}) {{\n\
               s.area();\n  i.grow(2).area();\n  return helper{n}();\n}}\n"
        ),
        1 => format!(
            "import * as prev from './m{prev}';\n\
             export interface Shape{n} {{ area(): number }}\n\
             export abstract class Impl{n} {{ abstract area(): number; run() {{ return this.area(); }} }}\n\
             function helper{n}() {{\n{body}  return prev.helper{prev}();\n}}\n\
             {export}\
             export const table{n} = {{ go: helper{n} }};\n\
             export function use{n}() {{ table{n}.go(); }}\n"
        ),
        // Heritage across files, below a body whose locals move the declarations' ids.
        3 => format!(
            "import {{ Shape{prev}, Impl{prev} }} from './m{prev}';\n\
             function warm{n}() {{\n{body}}}\n\
             export interface Shape{n} extends Shape{prev} {{ area(): number }}\n\
             export class Impl{n} extends Impl{prev} implements Shape{n} {{ area() {{ return helper{n}(); }} }}\n\
             function helper{n}() {{ warm{n}(); return 3; }}\n\
             {export}\
             export function use{n}(s: Shape{prev}) {{ return s.area(); }}\n"
        ),
        // A barrel: everything of the previous module, and a namespace of it (all barrels
        // form an `export *` cycle).
        4 => format!(
            "export * from './m{prev}';\n\
             export * as ns{n} from './m{prev}';\n\
             function helper{n}() {{\n{body}  return 4;\n}}\n\
             {export}\
             export function use{n}() {{ return helper{n}(); }}\n"
        ),
        // Names of the module two back, reached through the previous one (a barrel or not).
        5 => format!(
            "import {{ helper{back}, use{back} }} from './m{prev}';\n\
             function helper{n}() {{\n{body}  return helper{back}();\n}}\n\
             {export}\
             export function use{n}() {{ use{back}(); return helper{n}(); }}\n"
        ),
        // A factory whose inferred return type is the previous module's class: its interface
        // exposes that module.
        6 => format!(
            "import {{ Impl{prev} }} from './m{prev}';\n\
             export function make{n}() {{ return new Impl{prev}(); }}\n\
             function helper{n}() {{\n{body}  return 6;\n}}\n\
             {export}\
             export function use{n}() {{ return helper{n}(); }}\n"
        ),
        // Calls a method of the module two back, through the previous module's factory.
        7 => format!(
            "import {{ make{prev} }} from './m{prev}';\n\
             function helper{n}() {{\n{body}  return make{prev}().area();\n}}\n\
             {export}\
             export function use{n}() {{ return helper{n}(); }}\n"
        ),
        // A namespace used only inside bodies whose types are declared: nothing exposes it.
        8 => format!(
            "import * as prev from './m{prev}';\n\
             function helper{n}(): number {{\n{body}  prev.use{prev}();\n  return prev.helper{prev}();\n}}\n\
             {export}\
             export function use{n}(): number {{ return helper{n}(); }}\n"
        ),
        // Members of namespaces the previous module exports — a barrel's `export * as`, or a
        // namespace import exported again — in calls, heritage and a qualified type: a
        // namespace that gains or loses members these do not name leaves this module alone.
        9 => format!(
            "import {{ ns{prev}, space{prev} }} from './m{prev}';\n\
             import * as inner{n} from './m{prev}';\n\
             export {{ inner{n} as space{n} }};\n\
             function helper{n}(): number {{\n{body}  space{prev}.use{back}();\n  return ns{prev}.helper{back}();\n}}\n\
             {export}\
             export class Impl{n} implements ns{prev}.Shape{back} {{ area() {{ return helper{n}(); }} }}\n\
             export function use{n}(s: ns{prev}.Shape{back}): number {{ return s.area(); }}\n"
        ),
        _ => format!(
            "import {{ use{prev} }} from './m{prev}';\n\
             export interface Shape{n} {{ area(): number }}\n\
             export class Impl{n} {{ area() {{ return helper{n}(); }} }}\n\
             function helper{n}() {{\n{body}  use{prev}();\n  return 2;\n}}\n\
             {export}\
             export function use{n}(x: Impl{n}) {{ return x.area(); }}\n"
        ),
    }
}

/// What the project looks like: for each module present, its template, alias flag and body
/// length.
type Project = BTreeMap<u8, (u8, bool, usize)>;

fn write_project(root: &Path, project: &Project) {
    let src = root.join("src");
    std::fs::create_dir_all(&src).expect("src folder");
    for n in 0..MODULES {
        let path = root.join(path_of(n));
        match project.get(&n) {
            Some((template, alias, body)) => {
                let text = module_source(n, *template, *alias, *body);
                // Only write what changed, as an editor would.
                if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                    std::fs::write(&path, text).expect("write module");
                }
            }
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

fn apply(project: &mut Project, edit: &Edit) {
    match *edit {
        Edit::Write(n, template) => {
            project.insert(n % MODULES, (template, false, 0));
        }
        Edit::Remove(n) => {
            project.remove(&(n % MODULES));
        }
        Edit::Rename(from, to) => {
            if let Some(module) = project.remove(&(from % MODULES)) {
                project.insert(to % MODULES, module);
            }
        }
        Edit::Body(n) => {
            if let Some(module) = project.get_mut(&(n % MODULES)) {
                module.2 += 1;
            }
        }
        Edit::RenameExport(n) => {
            if let Some(module) = project.get_mut(&(n % MODULES)) {
                module.1 = !module.1;
            }
        }
    }
}

/// Every node (all its facts) and every edge (all its facts), by ID: what two stores must
/// agree on.
pub(crate) fn dump(snapshot: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    let id_of = |key: NodeKey| -> String {
        snapshot
            .node(key)
            .expect("read")
            .map(|g| g.view().expect("view").id().to_owned())
            .unwrap_or_default()
    };
    for key in snapshot.node_keys().expect("keys") {
        let guard = snapshot.node(key).expect("read").expect("node");
        let view = guard.view().expect("view");
        out.push(format!(
            "node {} {} {}-{} {:?} {} {} {:?} {}",
            view.id(),
            view.kind(),
            view.start_line(),
            view.end_line(),
            view.flags(),
            view.module(),
            view.package(),
            view.parameters().collect::<Vec<_>>(),
            view.type_text(),
        ));
        let list = snapshot.out_edges(key).expect("out");
        for edge in list.edges().expect("edges") {
            let edge = edge.view().expect("facts");
            out.push(format!(
                "edge {} -{}-> {} count={} sites={:?} names={:?} type_only={} context={} resolution={}",
                view.id(),
                edge.kind(),
                id_of(edge.other()),
                edge.count(),
                edge.sites().collect::<Vec<_>>(),
                edge.names().collect::<Vec<_>>(),
                edge.type_only(),
                edge.context(),
                edge.resolution(),
            ));
        }
        let incoming = snapshot.in_edges(key).expect("in");
        for edge in incoming.edges().expect("edges") {
            out.push(format!(
                "in {} <-{}- {}",
                view.id(),
                edge.kind(),
                id_of(edge.other())
            ));
        }
    }
    for stamp in snapshot.file_stamps().expect("files") {
        out.push(format!(
            "file {} {:x} {:?}",
            stamp.path, stamp.hash, stamp.external
        ));
    }
    out.sort();
    out
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0..MODULES, 0..TEMPLATES).prop_map(|(n, t)| Edit::Write(n, t)),
        (0..MODULES).prop_map(Edit::Remove),
        (0..MODULES, 0..MODULES).prop_map(|(a, b)| Edit::Rename(a, b)),
        (0..MODULES).prop_map(Edit::Body),
        (0..MODULES).prop_map(Edit::RenameExport),
    ]
}

#[test]
fn incremental_syncs_equal_a_fresh_index() {
    let cases = std::env::var("TSGRAPH_INCREMENTAL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let start = (
        proptest::collection::btree_map(
            0..MODULES,
            (0..TEMPLATES, any::<bool>(), 0usize..2),
            1..=6,
        ),
        proptest::collection::vec(edit_strategy(), 1..6),
        any::<bool>(),
    );
    runner
        .run(&start, |(initial, edits, keep_state)| {
            check_sequence(initial, &edits, keep_state).map_err(TestCaseError::fail)
        })
        .expect("incremental graph equals a fresh index");
}

/// Edits whose effect travels two imports away, which random sequences reach only rarely.
#[test]
fn changes_reach_the_importers_of_importers_that_pass_them_on() {
    // m2 gains a class; m3's factory returns it (an inferred type); m4 calls a method of
    // what the factory returns, and had no edge into m2 before.
    let project = Project::from([(2, (4, false, 0)), (3, (6, false, 0)), (4, (7, false, 0))]);
    for keep_state in [false, true] {
        check_sequence(project.clone(), &[Edit::Write(2, 0)], keep_state)
            .expect("an inferred type's change reaches two imports away");
    }
    // m3 calls m2's helper through a namespace, and m2 renames it.
    let project = Project::from([(2, (0, false, 0)), (3, (8, false, 0))]);
    for keep_state in [false, true] {
        check_sequence(project.clone(), &[Edit::RenameExport(2)], keep_state)
            .expect("a renamed export reaches a namespace importer naming it");
    }
    // m3 is a barrel of m2; m4 imports m2's helper through it, and m2 renames it.
    let project = Project::from([(2, (0, false, 0)), (3, (4, false, 0)), (4, (5, false, 0))]);
    for keep_state in [false, true] {
        check_sequence(project.clone(), &[Edit::RenameExport(2)], keep_state)
            .expect("a renamed export reaches the importers of a barrel");
    }
}

/// Applies `edits` one by one to a project first indexed as `initial`, keeping one store up
/// to date incrementally, and compares it after each edit with a fresh index.
fn check_sequence(initial: Project, edits: &[Edit], keep_state: bool) -> Result<(), String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    let mut project: Project = initial;
    write_project(&root, &project);
    let options = IndexOptions {
        threads: 1,
        ..IndexOptions::default()
    };
    let kept = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
    index_project(&root, &kept, &options).expect("first index");
    let mut live = keep_state.then(|| LiveIndex::new(&root, options.clone()));
    for (step, edit) in edits.iter().enumerate() {
        apply(&mut project, edit);
        // A rename in place keeps the size: make the change visible by content.
        write_project(&root, &project);
        match live.as_mut() {
            Some(live) => live.sync(&kept).map(drop),
            None => sync_project(&root, &kept, &options).map(drop),
        }
        .expect("sync");
        let fresh_path = dir.path().join(format!("fresh{step}.redb"));
        let fresh = Store::open_or_create(&fresh_path).expect("store");
        index_project(&root, &fresh, &options).expect("fresh index");
        let incremental = dump(&kept.snapshot().expect("snapshot"));
        let scratch = dump(&fresh.snapshot().expect("snapshot"));
        if incremental != scratch {
            let only_incremental: Vec<&String> = incremental
                .iter()
                .filter(|l| !scratch.contains(l))
                .collect();
            let only_scratch: Vec<&String> = scratch
                .iter()
                .filter(|l| !incremental.contains(l))
                .collect();
            return Err(format!(
                "after {edits:?} (step {step}, kept state: {keep_state}):\nonly incremental: {only_incremental:#?}\nonly fresh: {only_scratch:#?}"
            ));
        }
    }
    Ok(())
}

/// Changes that reach files through a local function, a removed re-exporter and an `import
/// type` becoming a value import: each is written as files before and after, synced into a
/// store indexed before, and compared with a fresh index.
#[test]
fn changes_reach_through_locals_removals_and_type_only_imports() {
    // A local function's inferred return exposes the import it calls.
    check_files(
        &[
            (
                "src/dep.ts",
                "export class Conn {}\nexport function connect() { return new Conn(); }\n",
            ),
            (
                "src/svc.ts",
                "import { connect } from './dep';\nexport function open() { function inner() { return connect(); } return inner(); }\n",
            ),
            (
                "src/main.ts",
                "import { open } from './svc';\nexport function run() { open().query(); }\n",
            ),
        ],
        &[(
            "src/dep.ts",
            Some(
                "export class Conn { query() {} }\nexport function connect() { return new Conn(); }\n",
            ),
        )],
    );
    // A re-exporter's source goes away: its importers lose what came through it.
    check_files(
        &[
            ("src/z.ts", "export class Z { run() {} }\n"),
            (
                "src/r.ts",
                "import { Z } from './z';\nexport const svc = new Z();\n",
            ),
            ("src/b.ts", "export { svc } from './r';\n"),
            (
                "src/f.ts",
                "import { svc } from './b';\nexport function go() { svc.run(); }\n",
            ),
        ],
        &[("src/r.ts", None)],
    );
    // `import type` re-exported, then imported as a value.
    check_files(
        &[
            ("src/foo.ts", "export class Foo { constructor() {} }\n"),
            (
                "src/a.ts",
                "import type { Foo } from './foo';\nexport { Foo };\n",
            ),
            (
                "src/f.ts",
                "import { Foo } from './a';\nexport function make() { return new Foo(); }\n",
            ),
        ],
        &[(
            "src/a.ts",
            Some("import { Foo } from './foo';\nexport { Foo };\n"),
        )],
    );
}

#[test]
fn a_file_whose_members_move_re_links_the_files_that_dispatch_to_them() {
    // `c.ts` calls `area` through the interface: its CALLS edges reach `a.ts`'s class,
    // which it does not import, and must follow the class when it is renamed or removed.
    let before: [(&str, &str); 3] = [
        ("src/i.ts", "export interface Shape { area(): number }\n"),
        (
            "src/a.ts",
            "import { Shape } from './i';\nexport class Sq implements Shape { area(): number { return 1; } }\n",
        ),
        (
            "src/c.ts",
            "import { Shape } from './i';\nexport function total(s: Shape): number { return s.area(); }\n",
        ),
    ];
    let renamed = "import { Shape } from './i';\nexport class Square implements Shape { area(): number { return 2; } }\n";
    check_files(&before, &[("src/a.ts", Some(renamed))]);
    check_files(&before, &[("src/a.ts", None)]);
    // `f.ts` calls `run` on a value whose class it never imports: only its edge into the
    // method brings it in when the method goes.
    let through_a_value: [(&str, &str); 3] = [
        ("src/z.ts", "export class Z { run(): void {} }\n"),
        (
            "src/r.ts",
            "import { Z } from './z';\nexport const svc: Z = new Z();\n",
        ),
        (
            "src/f.ts",
            "import { svc } from './r';\nexport function go(): void { svc.run(); }\n",
        ),
    ];
    check_files(
        &through_a_value,
        &[("src/z.ts", Some("export class Z { walk(): void {} }\n"))],
    );
}

/// Indexes `before`, applies `changes` (a file's new text, or its removal), syncs both ways
/// (a new process, a kept live index) and compares each with a fresh index.
fn check_files(before: &[(&str, &str)], changes: &[(&str, Option<&str>)]) {
    for keep_state in [false, true] {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("project");
        for (path, text) in before {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
            std::fs::write(path, text).expect("write");
        }
        let options = IndexOptions {
            threads: 1,
            ..IndexOptions::default()
        };
        let kept = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
        index_project(&root, &kept, &options).expect("first index");
        let mut live = LiveIndex::new(&root, options.clone());
        if keep_state {
            live.sync(&kept).expect("sync");
            assert!(live.warm(&kept).expect("warm"), "the state is read");
        }
        for (path, text) in changes {
            match text {
                Some(text) => std::fs::write(root.join(path), text).expect("write"),
                None => std::fs::remove_file(root.join(path)).expect("remove"),
            }
        }
        if keep_state {
            live.sync(&kept).expect("sync");
        } else {
            sync_project(&root, &kept, &options).expect("sync");
        }
        let fresh = Store::open_or_create(dir.path().join("fresh.redb")).expect("store");
        index_project(&root, &fresh, &options).expect("fresh index");
        assert_eq!(
            dump(&kept.snapshot().expect("snapshot")),
            dump(&fresh.snapshot().expect("snapshot")),
            "after {changes:?} (kept state: {keep_state})"
        );
    }
}

#[test]
fn a_change_that_keeps_a_files_implementations_reaches_no_caller() {
    // A base class implementing an interface, two subclasses in files of their own and a
    // caller through the interface: the subclasses inherit members whose IMPLEMENTS edges
    // belong to the base class's file.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).expect("folder");
    let files = [
        (
            "src/repo.ts",
            "export interface Repo { save(): void; count(): number }\n\
             export abstract class BaseRepo implements Repo { save() {} count() { return 0; } }\n\
             export class Plain { save() {} count() { return 3; } }\n",
        ),
        (
            "src/a.ts",
            "import { BaseRepo, Repo } from './repo';\n\
             import { Plain } from './repo';\n\
             export class ARepo extends BaseRepo {}\n\
             export class AHttp implements Repo { save() {} count() { return 1; } }\n",
        ),
        (
            "src/b.ts",
            "import { BaseRepo } from './repo';\nexport class BRepo extends BaseRepo {}\n",
        ),
        (
            "src/use.ts",
            "import type { Repo } from './repo';\nexport function keep(r: Repo) { r.save(); }\n",
        ),
    ];
    let (kept, options) = index_files(dir.path(), &root, &files);
    let a = root.join("src/a.ts");
    let text = std::fs::read_to_string(&a).expect("read");
    touch(&a);
    let synced = sync_project(&root, &kept, &options).expect("sync");
    assert_eq!(synced.changed, ["src/a.ts"]);
    // The base class's file too: a's classes yield its inherited members' edges.
    assert_eq!(
        synced.relinked, 2,
        "the same implementations reach no caller"
    );
    let fresh = Store::open_or_create(dir.path().join("fresh.redb")).expect("store");
    index_project(&root, &fresh, &options).expect("fresh index");
    assert_eq!(
        dump(&kept.snapshot().expect("snapshot")),
        dump(&fresh.snapshot().expect("snapshot"))
    );
    // A subclass implementing, with inherited members, an interface its base does not: the
    // edges leave the base's nodes, so the base's file is written with them.
    std::fs::write(
        &a,
        format!("{text}export class FromPlain extends Plain implements Repo {{}}\n"),
    )
    .expect("edit");
    sync_project(&root, &kept, &options).expect("sync");
    let fresh = Store::open_or_create(dir.path().join("fresh1.redb")).expect("store");
    index_project(&root, &fresh, &options).expect("fresh index");
    assert_eq!(
        dump(&kept.snapshot().expect("snapshot")),
        dump(&fresh.snapshot().expect("snapshot"))
    );
    // And taken back: the base's file loses the edges again.
    std::fs::write(&a, &text).expect("edit");
    sync_project(&root, &kept, &options).expect("sync");
    let fresh = Store::open_or_create(dir.path().join("fresh1b.redb")).expect("store");
    index_project(&root, &fresh, &options).expect("fresh index");
    assert_eq!(
        dump(&kept.snapshot().expect("snapshot")),
        dump(&fresh.snapshot().expect("snapshot"))
    );
    // A new implementation does reach the interface's callers.
    std::fs::write(
        &a,
        format!(
            "{text}export class AMore implements Repo {{ save() {{}} count() {{ return 2; }} }}\n"
        ),
    )
    .expect("edit");
    let synced = sync_project(&root, &kept, &options).expect("sync");
    assert!(synced.relinked > 1, "{}", synced.relinked);
    let fresh = Store::open_or_create(dir.path().join("fresh2.redb")).expect("store");
    index_project(&root, &fresh, &options).expect("fresh index");
    assert_eq!(
        dump(&kept.snapshot().expect("snapshot")),
        dump(&fresh.snapshot().expect("snapshot"))
    );
}

#[test]
fn a_base_class_edited_keeps_the_implements_edges_a_subclass_gives_it() {
    // Plain's members implement Repo only through FromPlain's heritage, in another file.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).expect("folder");
    let files = [
        (
            "src/repo.ts",
            "export interface Repo { save(): void }\nexport class Plain { save() {} }\n",
        ),
        (
            "src/a.ts",
            "import { Plain, Repo } from './repo';\n\
             export class FromPlain extends Plain implements Repo {}\n",
        ),
        (
            "src/use.ts",
            "import type { Repo } from './repo';\nexport function keep(r: Repo) { r.save(); }\n",
        ),
    ];
    let (kept, options) = index_files(dir.path(), &root, &files);
    touch(&root.join("src/repo.ts"));
    sync_project(&root, &kept, &options).expect("sync");
    let fresh = Store::open_or_create(dir.path().join("fresh.redb")).expect("store");
    index_project(&root, &fresh, &options).expect("fresh index");
    assert_eq!(
        dump(&kept.snapshot().expect("snapshot")),
        dump(&fresh.snapshot().expect("snapshot"))
    );
}

/// Writes `files` under `root` and indexes them into `dir/kept.redb` on one thread: the
/// store the tests then edit, with the options they sync with.
fn index_files(
    dir: &std::path::Path,
    root: &std::path::Path,
    files: &[(&str, &str)],
) -> (Store, IndexOptions) {
    for (path, text) in files {
        std::fs::write(root.join(path), text).expect("write");
    }
    let options = IndexOptions {
        threads: 1,
        ..IndexOptions::default()
    };
    let kept = Store::open_or_create(dir.join("kept.redb")).expect("store");
    index_project(root, &kept, &options).expect("first index");
    (kept, options)
}

/// Appends a comment to `path`: an edit that changes no declaration.
fn touch(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).expect("read");
    std::fs::write(path, format!("{text}// touched\n")).expect("edit");
}

/// effect's shape: a module imported as a namespace by files whose exports' types name its
/// interface, re-exported as a namespace by a barrel that other files import. An export
/// nobody names re-links the module and the barrel only; one a file names reaches that file,
/// and `relinked_files` says through which rule.
#[test]
fn an_export_nobody_names_reaches_no_namespace_importer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).expect("folder");
    let files = [
        (
            "src/Hash.ts",
            "export interface Hash { hash(): number }\n\
             export const symbol = Symbol.for('hash');\n\
             export function hash(value: unknown): number { return 0; }\n",
        ),
        (
            "src/index.ts",
            "export * as Hash from './Hash';\nexport * as Equal from './Equal';\n",
        ),
        (
            "src/Equal.ts",
            "import * as Hash from './Hash';\n\
             export class Point implements Hash.Hash { hash(): number { return Hash.hash(this); } }\n\
             export function equals(a: Hash.Hash, b: Hash.Hash): boolean { return a.hash() === b.hash(); }\n",
        ),
        (
            "src/user.ts",
            "import { Hash, Equal } from './index';\n\
             export function check(p: Hash.Hash): boolean { return Equal.equals(p, p) && Hash.hash(p) > 0; }\n",
        ),
    ];
    let (kept, options) = index_files(dir.path(), &root, &files);
    let hash = root.join("src/Hash.ts");
    let text = std::fs::read_to_string(&hash).expect("read");
    std::fs::write(
        &hash,
        format!("{text}export function appended(): number {{ return 1; }}\n"),
    )
    .expect("edit");
    let synced = sync_project(&root, &kept, &options).expect("sync");
    let relinked: Vec<(&str, String)> = synced
        .relinked_files
        .iter()
        .map(|(path, reason)| (path.as_str(), reason.to_string()))
        .collect();
    assert_eq!(
        relinked,
        [
            ("src/Hash.ts", "its text changed".to_owned()),
            (
                "src/index.ts",
                "it re-exports `Hash` of src/Hash.ts".to_owned()
            ),
        ]
    );
    // A file that names the new export is reached, through the barrel's namespace.
    let user = root.join("src/user.ts");
    std::fs::write(
        &user,
        "import { Hash } from './index';\nexport function late(): number { return Hash.appended(); }\n",
    )
    .expect("edit");
    sync_project(&root, &kept, &options).expect("sync");
    std::fs::write(
        &hash,
        format!("{text}export function appended(): number {{ return 2; }}\nexport function other(): number {{ return 3; }}\n"),
    )
    .expect("edit");
    let synced = sync_project(&root, &kept, &options).expect("sync");
    let paths: Vec<&str> = synced
        .relinked_files
        .iter()
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(
        paths,
        ["src/Hash.ts", "src/index.ts"],
        "`appended` kept its interface"
    );
    std::fs::write(
        &hash,
        format!("{text}export function appended(x: string): string {{ return x; }}\n"),
    )
    .expect("edit");
    let synced = sync_project(&root, &kept, &options).expect("sync");
    let user_reason = synced
        .relinked_files
        .iter()
        .find(|(path, _)| path == "src/user.ts")
        .map(|(_, reason)| reason.to_string());
    assert_eq!(
        user_reason.as_deref(),
        Some("it names `Hash.appended` of src/index.ts")
    );
    let fresh = Store::open_or_create(dir.path().join("fresh.redb")).expect("store");
    index_project(&root, &fresh, &options).expect("fresh index");
    assert_eq!(
        dump(&kept.snapshot().expect("snapshot")),
        dump(&fresh.snapshot().expect("snapshot"))
    );
}

/// A module before and after it gains an export.
const M: &str = "export function a(): number { return 1; }\n";
const M_GROWN: &str =
    "export function a(): number { return 1; }\nexport function b(): number { return 2; }\n";

/// A namespace import only exported again (`export { ns as space }`, `export default ns`),
/// then used through the new name: the new member reaches its user.
#[test]
fn a_namespace_exported_again_passes_member_changes_on() {
    let (m, m_grown) = (M, M_GROWN);
    check_files(
        &[
            ("src/m.ts", m),
            (
                "src/mid.ts",
                "import * as inner from './m';\nexport { inner as space };\n",
            ),
            (
                "src/user.ts",
                "import { space } from './mid';\nexport function f() { return space.b(); }\n",
            ),
            (
                "src/dflt.ts",
                "import * as inner from './m';\nexport default inner;\n",
            ),
            (
                "src/user2.ts",
                "import S from './dflt';\nexport function g() { return S.b(); }\n",
            ),
        ],
        &[("src/m.ts", Some(m_grown))],
    );
}

/// A rest element takes the namespace whole.
#[test]
fn a_namespace_destructured_with_a_rest_element_is_used_whole() {
    let (m, m_grown) = (M, M_GROWN);
    check_files(
        &[
            ("src/m.ts", m),
            (
                "src/user.ts",
                "import * as ns from './m';\nconst { a, ...rest } = ns;\nexport function f() { a(); return rest.b(); }\n",
            ),
        ],
        &[("src/m.ts", Some(m_grown))],
    );
}

/// A changed file whose import resolves elsewhere in the same update (its base class comes
/// with it): what others reach through its class moves with it.
#[test]
fn a_changed_file_whose_imports_move_counts_as_changed_whole() {
    check_files(
        &[
            (
                "src/f.ts",
                "import { Base } from './base';\nexport class C extends Base {}\n",
            ),
            (
                "src/user.ts",
                "import { C } from './f';\nexport function g(c: C) { return c.one(); }\n",
            ),
        ],
        &[
            (
                "src/f.ts",
                Some(
                    "import { Base } from './base';\nexport class C extends Base {}\nexport const z = 1;\n",
                ),
            ),
            (
                "src/base.ts",
                Some("export class Base { one() { return 1; } }\n"),
            ),
        ],
    );
}

/// An abstract class, and a function in another file calling its abstract member.
const ABSTRACT_SHAPE_AND_CALLER: [(&str, &str); 2] = [
    (
        "src/shape.ts",
        "export abstract class Shape { abstract area(): number }\n",
    ),
    (
        "src/y.ts",
        "import { Shape } from './shape';\nexport function f(s: Shape) { return s.area(); }\n",
    ),
];

/// A subclass added beside an abstract class: calls through the abstract member now dispatch
/// to it.
#[test]
fn a_subclass_added_beside_an_abstract_class_reaches_its_callers() {
    check_files(
        &ABSTRACT_SHAPE_AND_CALLER,
        &[(
            "src/shape.ts",
            Some(
                "export abstract class Shape { abstract area(): number }\nexport class Square extends Shape { area() { return 1; } }\n",
            ),
        )],
    );
}

/// A subclass added in a file of its own: calls through the abstract member of its base
/// class, in another file, now dispatch to it.
#[test]
fn a_subclass_added_in_another_file_reaches_the_callers_of_its_base() {
    check_files(
        &ABSTRACT_SHAPE_AND_CALLER,
        &[(
            "src/square.ts",
            Some(
                "import { Shape } from './shape';\nexport class Square extends Shape { area() { return 1; } }\n",
            ),
        )],
    );
    // Not exported, in a file whose interface stays as it was.
    check_files(
        &[
            (
                "src/shape.ts",
                "export abstract class Shape { abstract area(): number }\n",
            ),
            (
                "src/y.ts",
                "import { Shape } from './shape';\nexport function f(s: Shape) { return s.area(); }\n",
            ),
            (
                "src/make.ts",
                "import { Shape } from './shape';\nexport function make(): number { return 1; }\n",
            ),
        ],
        &[(
            "src/make.ts",
            Some(
                "import { Shape } from './shape';\nclass Hidden extends Shape { area() { return 2; } }\nexport function make(): number { return new Hidden().area(); }\n",
            ),
        )],
    );
}
