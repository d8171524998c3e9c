//! Resolution rules, one small multi-file fixture each: the fixture is TypeScript with
//! `//- path` headers, the expectation the edges the graph gets, as
//! `source -> target (provenance)` lines (CALLS) or `source -KIND-> target` lines.

use std::collections::BTreeMap;

use tsgraph_engine::{EdgeKind, Resolution};

use crate::extract::Extractor;
use crate::facts::FileFacts;
use crate::model::ProjectModel;
use crate::modules::resolve_imports;
use crate::resolve::{Hierarchy, Program, ProgramTables, Resolver, builtin_facts};

/// Splits a fixture into `(path, source)` files.
fn files(fixture: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in fixture.lines() {
        if let Some(path) = line.trim().strip_prefix("//- ") {
            out.push((path.trim().to_owned(), String::new()));
        } else if let Some((_, source)) = out.last_mut() {
            source.push_str(line);
            source.push('\n');
        }
    }
    out
}

fn link_fixture(fixture: &str) -> super::Linked {
    let mut extractor = Extractor::new().expect("grammar");
    let mut facts: Vec<FileFacts> = files(fixture)
        .iter()
        .map(|(path, source)| extractor.extract(path, source.as_bytes(), 0))
        .collect();
    facts.sort_by(|a, b| a.path.cmp(&b.path));
    let builtins = builtin_facts(&mut extractor);
    let paths: Vec<&str> = facts.iter().map(|f| f.path.as_str()).collect();
    let model = ProjectModel::from_sources(&BTreeMap::new(), &paths);
    let by_path = facts
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.clone(), i as u32))
        .collect();
    let facts = crate::facts_table::FactsTable::loaded(facts);
    let (modules, _) = resolve_imports(&model, &facts, &by_path);
    let nodes = super::NodeTable::unassigned(facts.len());
    let package_of = |_: &str| (".".to_owned(), String::new());
    let tables = ProgramTables::build(&facts, &builtins, &modules);
    let program = Program::new(&facts, &builtins, &modules, &tables);
    let hierarchy = Hierarchy::build(&Resolver::new(&program), facts.len());
    super::link(
        &program,
        &hierarchy,
        nodes.view(&facts),
        &package_of,
        super::Scope::All,
    )
}

/// CALLS edges as `source -> target (provenance)`, in the graph's order.
fn calls(fixture: &str) -> Vec<String> {
    link_fixture(fixture)
        .batch
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls)
        .map(|e| {
            format!(
                "{} -> {} ({})",
                e.source,
                e.target,
                Resolution::from_stored(e.facts.resolution)
            )
        })
        .collect()
}

/// Edges of `kinds` as `source -KIND-> target`.
fn edges(fixture: &str, kinds: &[EdgeKind]) -> Vec<String> {
    link_fixture(fixture)
        .batch
        .edges
        .iter()
        .filter(|e| kinds.contains(&e.kind))
        .map(|e| format!("{} -{}-> {}", e.source, e.kind, e.target))
        .collect()
}

fn node_ids(fixture: &str) -> Vec<String> {
    let mut ids: Vec<String> = link_fixture(fixture)
        .batch
        .nodes
        .iter()
        .map(|n| format!("{} {}", n.id, n.node_kind()))
        .collect();
    ids.sort();
    ids
}

fn check(actual: Vec<String>, expected: &[&str]) {
    let mut actual = actual;
    actual.sort();
    let mut expected: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    expected.sort();
    assert_eq!(actual, expected, "\nactual:\n{}\n", actual.join("\n"));
}

#[test]
fn nested_and_local_functions_are_nodes_with_their_own_calls() {
    check(
        calls(
            "//- a.ts
export function outer() {
  function inner() { leaf(); }
  const local = () => inner();
  [1].forEach(() => { function deep() { leaf(); } deep(); });
  local();
}
function leaf() {}
",
        ),
        &[
            "a.ts:outer -> a.ts:outer.local (direct)",
            "a.ts:outer -> a.ts:outer.deep (direct)",
            "a.ts:outer.inner -> a.ts:leaf (direct)",
            "a.ts:outer.local -> a.ts:outer.inner (direct)",
            "a.ts:outer.deep -> a.ts:leaf (direct)",
        ],
    );
}

#[test]
fn calls_inside_functions_of_a_variable_initializer_are_credited_to_the_variable() {
    check(
        calls(
            "//- a.ts
declare function wrap<T>(f: T): T;
export const handler = wrap(() => work());
export function run() {
  const task = wrap(() => work());
  const value = work();
}
function work() { return 1; }
",
        ),
        &[
            // `wrap(…)` itself runs where the variable is initialized.
            "a.ts -> a.ts:wrap (direct)",
            "a.ts:run -> a.ts:wrap (direct)",
            "a.ts:handler -> a.ts:work (direct)",
            "a.ts:run.task -> a.ts:work (direct)",
            "a.ts:run -> a.ts:work (direct)",
        ],
    );
}

#[test]
fn block_scopes_shadow_only_inside_their_block() {
    check(
        calls(
            "//- a.ts
function save() {}
export function f(flag: boolean) {
  if (flag) {
    const save = (x: number) => x;
    save(1);
  }
  save();
}
",
        ),
        &[
            "a.ts:f -> a.ts:f.save (direct)",
            "a.ts:f -> a.ts:save (direct)",
        ],
    );
}

#[test]
fn receivers_typed_by_parameters_locals_fields_and_return_types() {
    check(
        calls(
            "//- repo.ts
export class Repo {
  save(): void {}
  find(): Repo { return this; }
}
export function makeRepo(): Repo { return new Repo(); }
export function inferred() { return new Repo(); }
//- service.ts
import { Repo, makeRepo, inferred } from './repo';
export class Service {
  private cache: Repo;
  constructor(private repo: Repo) {
    this.cache = new Repo();
  }
  typed(r: Repo) { r.save(); }
  run() {
    this.repo.save();
    this.cache.find().save();
    const local = makeRepo();
    local.save();
    inferred().save();
  }
}
",
        ),
        &[
            "repo.ts:makeRepo -> repo.ts:Repo (direct)",
            "repo.ts:inferred -> repo.ts:Repo (direct)",
            "service.ts:Service -> repo.ts:Repo (import)",
            "service.ts:Service.typed -> repo.ts:Repo.save (typed)",
            "service.ts:Service.run -> repo.ts:Repo.save (this)",
            "service.ts:Service.run -> repo.ts:Repo.find (this)",
            "service.ts:Service.run -> repo.ts:makeRepo (import)",
            "service.ts:Service.run -> repo.ts:inferred (import)",
        ],
    );
}

#[test]
fn super_calls_and_members_of_a_generic_base() {
    check(
        calls(
            "//- a.ts
class Item { use() {} }
class Box<T> {
  value!: T;
  constructor() {}
  open(): T { return this.value; }
}
export class ItemBox extends Box<Item> {
  constructor() { super(); }
  run() {
    super.open();
    this.open().use();
  }
}
",
        ),
        &[
            "a.ts:ItemBox -> a.ts:Box (this)",
            "a.ts:ItemBox.run -> a.ts:Box.open (this)",
            "a.ts:ItemBox.run -> a.ts:Item.use (inferred)",
        ],
    );
}

#[test]
fn a_variable_holding_a_function_calls_that_function() {
    check(
        calls(
            "//- a.ts
function step() {}
export const api = { create: step };
export function run() {
  const next = step;
  next();
}
export function viaProperty() { api.create(); }
",
        ),
        &[
            "a.ts:run -> a.ts:step (alias)",
            "a.ts:viaProperty -> a.ts:step (alias)",
        ],
    );
}

#[test]
fn interface_calls_reach_the_member_and_dispatch_to_implementations() {
    let fixture = "//- a.ts
export interface Writer { write(x: number): void; flush(): void }
export abstract class Base { abstract close(): void; }
export class FileWriter extends Base implements Writer {
  write(x: number) {}
  flush() {}
  close() {}
}
export function run(w: Writer, b: Base) {
  w.write(1);
  b.close();
}
";
    check(
        calls(fixture),
        &[
            "a.ts:run -> a.ts:Writer.write (typed)",
            "a.ts:run -> a.ts:FileWriter.write (dispatch)",
            "a.ts:run -> a.ts:Base.close (typed)",
            "a.ts:run -> a.ts:FileWriter.close (dispatch)",
        ],
    );
    check(
        edges(fixture, &[EdgeKind::Implements, EdgeKind::Extends]),
        &[
            "a.ts:FileWriter -EXTENDS-> a.ts:Base",
            "a.ts:FileWriter -IMPLEMENTS-> a.ts:Writer",
            "a.ts:FileWriter.write -IMPLEMENTS-> a.ts:Writer.write",
            "a.ts:FileWriter.flush -IMPLEMENTS-> a.ts:Writer.flush",
        ],
    );
}

#[test]
fn a_union_receiver_gets_one_edge_per_member() {
    check(
        calls(
            "//- a.ts
class Cat { speak() {} }
class Dog { speak() {} }
export function talk(pet: Cat | Dog | undefined) {
  pet?.speak();
}
",
        ),
        &[
            "a.ts:talk -> a.ts:Cat.speak (typed)",
            "a.ts:talk -> a.ts:Dog.speak (typed)",
        ],
    );
}

#[test]
fn callbacks_get_their_parameter_types_from_the_callee() {
    check(
        calls(
            "//- a.ts
class Job { run() {} done(): Promise<Job> { return Promise.resolve(this); } }
function each(jobs: Job[], visit: (job: Job) => void) {}
export function all(jobs: Job[], map: Map<string, Job>) {
  jobs.forEach(job => job.run());
  jobs.map(job => job).filter(job => true)[0].run();
  each(jobs, job => job.run());
  for (const job of jobs) job.run();
  map.get('a')?.run();
  jobs[0].done().then(job => job.run());
}
",
        ),
        &[
            "a.ts:all -> a.ts:Job.run (inferred)",
            "a.ts:all -> a.ts:each (direct)",
            "a.ts:all -> a.ts:Job.done (inferred)",
        ],
    );
}

#[test]
fn destructured_bindings_read_members_of_their_source() {
    check(
        calls(
            "//- a.ts
class Client { fetch() {} }
interface Options { client: Client; retries: number }
export function load(opts: Options, { client: other }: Options) {
  const { client } = opts;
  client.fetch();
  other.fetch();
}
",
        ),
        &["a.ts:load -> a.ts:Client.fetch (inferred)"],
    );
}

#[test]
fn namespaces_imports_and_re_exports() {
    check(
        calls(
            "//- util.ts
export function helper() {}
export default function main() {}
export namespace Strings { export function trim() {} }
//- index.ts
export * from './util';
export * as tools from './util';
export { helper as aid } from './util';
//- app.ts
import run, { aid, tools, Strings } from './index';
import * as idx from './index';
import main from './util';
export function app() {
  aid();
  tools.helper();
  idx.tools.helper();
  Strings.trim();
  main();
}
",
        ),
        &[
            "app.ts:app -> util.ts:helper (import)",
            "app.ts:app -> util.ts:Strings.trim (import)",
            "app.ts:app -> util.ts:main (import)",
        ],
    );
}

#[test]
fn star_export_cycles_resolve_and_clashing_stars_export_nothing() {
    check(
        calls(
            "//- a.ts
export * from './b';
export function fromA() {}
export function clash() {}
//- b.ts
export * from './a';
export function fromB() {}
//- c.ts
export function clash() {}
//- both.ts
export * from './a';
export * from './c';
//- main.ts
import { fromA, fromB } from './b';
import { clash } from './both';
export function main() { fromA(); fromB(); clash(); }
",
        ),
        &[
            "main.ts:main -> a.ts:fromA (import)",
            "main.ts:main -> b.ts:fromB (import)",
        ],
    );
}

#[test]
fn this_in_object_literal_methods_and_static_members() {
    check(
        calls(
            "//- a.ts
export const api = {
  get() { return this.load(); },
  load() {},
};
export class Counter {
  static create() { return new Counter(); }
  static reset() { this.create(); }
  inc() { Counter.create(); }
}
",
        ),
        &[
            "a.ts:api.get -> a.ts:api.load (this)",
            "a.ts:Counter.create -> a.ts:Counter (direct)",
            "a.ts:Counter.reset -> a.ts:Counter.create (this)",
            "a.ts:Counter.inc -> a.ts:Counter.create (direct)",
        ],
    );
}

#[test]
fn calls_that_name_nothing_stay_unresolved_with_a_reason() {
    let linked = link_fixture(
        "//- a.ts
import { ext } from 'some-package';
export function f(cb: () => void, x: any, key: string) {
  cb();
  x.save();
  (() => 1)();
  ext();
  const table: Record<string, () => void> = {};
  table[key]();
}
",
    );
    assert!(
        linked.batch.edges.iter().all(|e| e.kind != EdgeKind::Calls),
        "no call names a project declaration"
    );
    let mut sites: Vec<String> = linked
        .batch
        .unresolved
        .iter()
        .map(|(_, s)| {
            format!(
                "{} {} {} {} ({})",
                s.caller, s.callee, s.line, s.reason, s.name
            )
        })
        .collect();
    sites.sort();
    assert_eq!(
        sites,
        [
            "a.ts:f cb 3 parameter (cb)",
            "a.ts:f table[] 8 dynamic (table)",
            "a.ts:f x.save 4 unknown-receiver (save)",
            "a.ts:f … 5 iife (…)",
        ]
    );
    assert_eq!(
        linked.stats.unresolved_calls, 5,
        "the package import counts too"
    );
}

#[test]
fn f_call_and_apply_are_calls_of_f() {
    check(
        calls(
            "//- a.ts
function hasOwn(this: object, key: string) { return true; }
export function check(o: object) {
  hasOwn.call(o, 'a');
  hasOwn.apply(o, ['a']);
}
",
        ),
        &["a.ts:check -> a.ts:hasOwn (direct)"],
    );
}

#[test]
fn ids_do_not_depend_on_declaration_order() {
    let forward = "//- a.ts
export interface Repo { save(): void }
export class Repo { save() {} static save() {} }
export type Shape = { area(): number };
export const Shape = 1;
";
    let backward = "//- a.ts
export const Shape = 1;
export type Shape = { area(): number };
export class Repo { static save() {} save() {} }
export interface Repo { save(): void }
";
    let expected = [
        "a.ts File",
        "a.ts:Repo Class",
        "a.ts:Repo.save Method",
        "a.ts:Repo.save~static Method",
        "a.ts:Repo~Interface Interface",
        "a.ts:Shape Variable",
        "a.ts:Shape~TypeAlias TypeAlias",
        "a.ts:Shape.area Method",
    ];
    check(node_ids(forward), &expected);
    check(node_ids(backward), &expected);
}

#[test]
fn overloads_and_accessor_pairs_are_one_node() {
    check(
        node_ids(
            "//- a.ts
export function parse(x: string): number;
export function parse(x: number): number;
export function parse(x: any) { return 1; }
export class Box {
  get size() { return 1; }
  set size(v: number) {}
}
",
        ),
        &[
            "a.ts File",
            "a.ts:parse Function",
            "a.ts:Box Class",
            "a.ts:Box.size Method",
        ],
    );
}

#[test]
fn references_and_type_uses_with_their_context() {
    check(
        edges(
            "//- a.ts
export interface User { name: string }
export type Id = string;
function format(u: User): string { return u.name; }
function register(f: (u: User) => string) {}
export const handlers = { format };
export function setup(id: Id): User {
  register(format);
  const table = [format];
  return { name: id };
}
",
            &[EdgeKind::References, EdgeKind::UsesType],
        ),
        &[
            "a.ts:format -USES_TYPE-> a.ts:User",
            "a.ts:register -USES_TYPE-> a.ts:User",
            "a.ts:handlers -REFERENCES-> a.ts:format",
            "a.ts:setup -REFERENCES-> a.ts:format",
            "a.ts:setup -USES_TYPE-> a.ts:Id",
            "a.ts:setup -USES_TYPE-> a.ts:User",
        ],
    );
}

#[test]
fn jsx_elements_include_their_components() {
    check(
        edges(
            "//- ui.tsx
export function Card() { return <div />; }
export const ui = { Button: () => <span /> };
export function Page() { return <main><Card /><ui.Button /></main>; }
",
            &[EdgeKind::Includes],
        ),
        &[
            "ui.tsx:Page -INCLUDES-> ui.tsx:Card",
            "ui.tsx:Page -INCLUDES-> ui.tsx:ui.Button",
        ],
    );
}

#[test]
fn modern_syntax_the_grammar_misparses_keeps_its_declarations() {
    let ids = node_ids(
        "//- a.ts
export interface Dual {
  <A>(self: A): A
  <A, B>(self: A, f: B): B
}
export interface Options {
  in: string
  abstract?: boolean
}
export class Store<in out T> {
  accessor size = 1;
  get() {}
}
export type * from './b';
export function after() {}
",
    );
    for expected in [
        "a.ts:Options.in Property",
        "a.ts:Options.abstract Property",
        "a.ts:Store.size Property",
        "a.ts:Store.get Method",
        "a.ts:after Function",
    ] {
        assert!(ids.iter().any(|id| id == expected), "{expected} in {ids:?}");
    }
}

#[test]
fn a_class_and_an_interface_of_one_name_share_their_members() {
    check(
        calls(
            "//- a.ts
export interface Router { extra?: boolean }
export class Router { navigate() {} }
type Wrapped = Router & { flag?: boolean };
export function go(r: Wrapped) { r.navigate(); }
",
        ),
        &["a.ts:go -> a.ts:Router.navigate (typed)"],
    );
}

#[test]
fn aliases_of_functions_outside_the_project_call_nothing_of_it() {
    let linked = link_fixture(
        "//- a.ts
import lodash from 'lodash';
const O = Object;
export const keys = O.keys;
export const get = lodash.get;
export function f() {
  keys({});
  get({}, 'a');
  const local = make();
  local();
}
function make() { return () => 1; }
",
    );
    let edges: Vec<String> = linked
        .batch
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls)
        .map(|e| format!("{} -> {}", e.source, e.target))
        .collect();
    assert_eq!(edges, ["a.ts:f -> a.ts:make"]);
}

#[test]
fn dispatch_reaches_implementations_below_the_receivers_type_only() {
    check(
        calls(
            "//- a.ts
interface Repository<T> { list(): T[] }
interface OrderRepository extends Repository<string> { byStatus(): string[] }
interface UserRepository extends Repository<number> {}
class SqlOrders implements OrderRepository { list() { return []; } byStatus() { return []; } }
class SqlUsers implements UserRepository { list() { return []; } }
export function orders(r: OrderRepository) { r.list(); }
export function any(r: Repository<string>) { r.list(); }
",
        ),
        &[
            "a.ts:orders -> a.ts:Repository.list (typed)",
            "a.ts:orders -> a.ts:SqlOrders.list (dispatch)",
            "a.ts:any -> a.ts:Repository.list (typed)",
            "a.ts:any -> a.ts:SqlOrders.list (dispatch)",
            "a.ts:any -> a.ts:SqlUsers.list (dispatch)",
        ],
    );
}

#[test]
fn node_keys_count_exactly_the_nodes_that_get_records() {
    let mut extractor = Extractor::new().unwrap();
    let source = "export function outer(a: number) {\n  const local = a + 1;\n  function inner() { return local; }\n  return inner();\n}\nexport class Box { size = 1; grow() { let step = 2; return this.size + step; } }\n";
    let files: Vec<FileFacts> = ["a.ts", "b.ts"]
        .iter()
        .map(|path| crate::pool::extract_one(&mut extractor, path, source.as_bytes(), 1))
        .collect();
    let files = crate::facts_table::FactsTable::loaded(files);
    let table = super::NodeTable::unassigned(files.len());
    let keys = super::node_keys(table.view(&files));
    let mut next = 0;
    let mut without_record = 0;
    for ((facts, file_nodes), file_keys) in table.view(&files).iter().zip(&keys) {
        assert_eq!(file_keys.len(), file_nodes.len());
        let recorded: Vec<u32> = super::node_records(facts, file_nodes, &|_| Default::default())
            .into_iter()
            .map(|(index, _)| index)
            .collect();
        for (index, &key) in file_keys.iter().enumerate() {
            if recorded.contains(&(index as u32)) {
                assert_eq!(key, next, "{}", facts.path);
                next += 1;
            } else {
                assert_eq!(key, super::NO_KEY);
                without_record += 1;
            }
        }
    }
    // Two files of a function with an inner one, a class with a field and a method (locals
    // are not nodes at all), counted across both files in order.
    assert!(next >= 10, "both files' nodes are counted: {next}");
    assert_eq!(
        next as usize + without_record,
        table
            .view(&files)
            .iter()
            .map(|(_, n)| n.len())
            .sum::<usize>()
    );
}

/// Linking names a file's node by its path without reading the file's summary
/// (`Builder::id`): every extracted file's first node is its own, with its path for ID.
#[test]
fn every_files_first_node_is_its_own_with_its_path_for_id() {
    let mut extractor = Extractor::new().unwrap();
    let sources: [(&str, &str); 5] = [
        ("empty.ts", ""),
        ("a.ts", "export {};\n"),
        (
            "b.tsx",
            "export default function App() { return <div/>; }\n",
        ),
        ("c.js", "module.exports = { f() {} };\n"),
        (
            "d/e.ts",
            "declare global { interface Window { x: number } }\nclass Hidden {}\n",
        ),
    ];
    for (path, source) in sources {
        let facts = crate::pool::extract_one(&mut extractor, path, source.as_bytes(), 1);
        let nodes = super::assign_nodes(&facts);
        assert_eq!(nodes.symbol(super::FILE_NODE), "", "{path}");
        assert_eq!(
            nodes.node_of(crate::facts::FILE_DECL),
            Some(super::FILE_NODE),
            "{path}"
        );
    }
}
