//! Extraction tests: one source text in, a compact dump of symbols, imports and references
//! out, compared with the expected dump.

#![allow(clippy::unwrap_used)] // Test helpers unwrap: a failure is the test failing.

use super::Extractor;
use crate::facts::FileFacts;

fn dump(facts: &FileFacts) -> String {
    let mut out = String::new();
    for symbol in facts.symbols.iter().skip(1) {
        out.push_str(&format!(
            "{} {} {}-{} flags={} params={:?} type={:?}\n",
            symbol.kind,
            symbol.path,
            symbol.start_line,
            symbol.end_line,
            symbol.flags,
            symbol.parameters,
            symbol.type_text
        ));
    }
    for import in &facts.imports {
        let names: Vec<String> = import
            .bindings
            .iter()
            .map(|b| format!("{}->{}", b.imported, b.local))
            .collect();
        out.push_str(&format!(
            "import {} {:?} type_only={} reexport={} all={}\n",
            import.specifier, names, import.type_only, import.reexport, import.reexport_all
        ));
    }
    for reference in &facts.references {
        let from = if reference.from == 0 {
            "<file>".to_owned()
        } else {
            facts.symbols[reference.from].path.clone()
        };
        out.push_str(&format!(
            "{} {from} -> {:?} @{}\n",
            reference.kind, reference.callee, reference.line
        ));
    }
    for alias in &facts.export_aliases {
        out.push_str(&format!("export {} as {}\n", alias.local, alias.exported));
    }
    out
}

fn check(path: &str, source: &str, expected: &str) {
    let mut extractor = Extractor::new().expect("grammar");
    let facts = extractor.extract(path, source.as_bytes(), 0);
    let got = dump(&facts);
    assert_eq!(got.trim(), expected.trim(), "\n--- got ---\n{got}");
}

#[test]
fn functions_classes_and_calls() {
    check(
        "src/a.ts",
        r#"import { save as persist, load } from "./db.js";
import Logger from './log';
import * as util from "./util";

export async function main(id: string, opts?: Options): Promise<void> {
  persist(id);
  util.format(id);
  helper();
}

function helper() {}

export class UserService extends Base implements Repo<User> {
  private readonly items: User[] = [];
  static create(): UserService { return new UserService(); }
  save(user: User) { this.validate(user); Logger.log("x"); }
  private validate = (u: User): boolean => true;
}
"#,
        r#"
Function main 5-9 flags=3 params=["id: string", "opts?: Options"] type="Promise<void>"
Function helper 11-11 flags=0 params=[] type=""
Class UserService 13-18 flags=1 params=[] type=""
Property UserService.items 14-14 flags=16 params=[] type="User[]"
Method UserService.create 15-15 flags=4 params=[] type="UserService"
Method UserService.save 16-16 flags=0 params=["user: User"] type=""
Method UserService.validate 17-17 flags=0 params=["u: User"] type="boolean"
import ./db.js ["save->persist", "load->load"] type_only=false reexport=false all=false
import ./log ["default->Logger"] type_only=false reexport=false all=false
import ./util ["*->util"] type_only=false reexport=false all=false
CALLS main -> Name("persist") @6
CALLS main -> Member("util", "format") @7
CALLS main -> Name("helper") @8
EXTENDS UserService -> Name("Base") @13
IMPLEMENTS UserService -> Name("Repo") @13
CALLS UserService.create -> Name("UserService") @15
CALLS UserService.save -> This("validate") @16
CALLS UserService.save -> Member("Logger", "log") @16
"#,
    );
}

#[test]
fn arrow_functions_object_methods_defaults_and_reexports() {
    check(
        "src/b.ts",
        r#"export const fetchUser = async (id: number) => api.get(id);
export const api = {
  get(id: number) { return request(id); },
  post: (body: unknown) => request(body),
  version: 2,
};
const a = 1, b = compute();
export default function () { fetchUser(1); }
export { a as alpha };
export * from "./types";
export { x as y, default as z } from "./other";
export type { T } from "./t";
function over(a: string): void;
function over(a: number): void;
function over(a: any) {}
interface Shape { area(): number; name?: string }
interface Shape { sides: number }
"#,
        r#"
Function fetchUser 1-1 flags=35 params=["id: number"] type=""
Variable api 2-6 flags=33 params=[] type=""
Method api.get 3-3 flags=0 params=["id: number"] type=""
Method api.post 4-4 flags=0 params=["body: unknown"] type=""
Variable a 7-7 flags=33 params=[] type=""
Variable b 7-7 flags=32 params=[] type=""
Function default 8-8 flags=65 params=[] type=""
Function over 13-15 flags=0 params=["a: string"] type="void"
Interface Shape 16-17 flags=0 params=[] type=""
Method Shape.area 16-16 flags=0 params=[] type="number"
Property Shape.name 16-16 flags=8 params=[] type="string"
Property Shape.sides 17-17 flags=0 params=[] type="number"
import ./types [] type_only=false reexport=true all=true
import ./other ["x->y", "default->z"] type_only=false reexport=true all=false
import ./t ["T->T"] type_only=true reexport=true all=false
CALLS fetchUser -> Member("api", "get") @1
CALLS api.get -> Name("request") @3
CALLS api.post -> Name("request") @4
CALLS b -> Name("compute") @7
CALLS default -> Name("fetchUser") @8
export a as alpha
"#,
    );
}

#[test]
fn tsx_components_and_broken_code_keep_what_parsed() {
    check(
        "src/App.tsx",
        r#"import { Button } from "./Button";
export function App() {
  return <div><Button onClick={() => track()} /><ui.Icon /></div>;
}
function broken( {
  return 1 +;
}
export function after() { App(); }
"#,
        r#"
Function App 2-4 flags=1 params=[] type=""
Function after 8-8 flags=0 params=[] type=""
import ./Button ["Button->Button"] type_only=false reexport=false all=false
INCLUDES App -> Name("Button") @3
CALLS App -> Name("track") @3
INCLUDES App -> Member("ui", "Icon") @3
CALLS after -> Name("App") @8
"#,
    );
    let mut extractor = Extractor::new().expect("grammar");
    let facts = extractor.extract("src/x.ts", b"function broken( {\n  return 1 +;\n}\n", 0);
    assert!(facts.error_bytes > 0, "ERROR bytes are counted");
    assert_eq!(facts.lines, 3);
}

#[test]
fn deeply_nested_code_does_not_overflow_the_stack() {
    let depth = 20_000;
    let source = format!("const x = {}1{};", "[".repeat(depth), "]".repeat(depth));
    let mut extractor = Extractor::new().expect("grammar");
    let facts = extractor.extract("src/deep.ts", source.as_bytes(), 0);
    assert_eq!(facts.symbols.len(), 2);
}

/// tree-sitter-typescript 0.23.2 misparses variance annotations, `accessor` fields,
/// `export type *` and tagged templates with type arguments. The grammar is not patched:
/// extraction keeps what parsed around them and counts the ERROR bytes.
#[test]
fn syntax_the_grammar_misparses_does_not_lose_the_rest_of_the_file() {
    let source = r#"export function first() { return second(); }
interface Producer<out T> { make(): T }
interface Consumer<in T> { take(value: T): void }
class Store {
  accessor count = 0;
  bump() { this.reset(); }
  reset() {}
}
export type * from "./types";
const query = sql<Row>`select 1`;
export function second() { return first(); }
"#;
    let mut extractor = Extractor::new().expect("grammar");
    let facts = extractor.extract("src/modern.ts", source.as_bytes(), 0);
    let paths: Vec<&str> = facts
        .symbols
        .iter()
        .skip(1)
        .map(|s| s.path.as_str())
        .collect();
    for wanted in ["first", "second", "Store", "Store.bump", "Store.reset"] {
        assert!(paths.contains(&wanted), "{wanted} missing from {paths:?}");
    }
    let calls: Vec<String> = facts
        .references
        .iter()
        .map(|r| format!("{:?}", r.callee))
        .collect();
    assert!(calls.contains(&"This(\"reset\")".to_owned()), "{calls:?}");
    assert!(calls.contains(&"Name(\"first\")".to_owned()), "{calls:?}");
    assert!(
        facts.error_bytes > 0,
        "the misparsed constructs are counted as ERROR bytes"
    );
}
