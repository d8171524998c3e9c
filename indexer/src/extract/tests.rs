//! Extraction: what the summary of a small source holds, and inputs that must not break it.

use super::Extractor;
use crate::facts::{CallKind, DeclKind, Expr, FileFacts, ScopeKind};

fn extract(path: &str, source: &str) -> FileFacts {
    Extractor::new()
        .expect("grammar")
        .extract(path, source.as_bytes(), 0)
}

fn decl_named<'f>(facts: &'f FileFacts, name: &str) -> &'f crate::facts::Decl {
    facts
        .decls
        .iter()
        .find(|d| facts.name(d.name) == name)
        .unwrap_or_else(|| panic!("no declaration {name}"))
}

#[test]
fn declarations_scopes_and_call_sites() {
    let facts = extract(
        "a.ts",
        "import { save } from './db';\n\
         export class Repo<T> {\n\
           constructor(private db: Db) {}\n\
           put(item: T): void { if (item) { const x = 1; save(item); } }\n\
         }\n",
    );
    let repo = decl_named(&facts, "Repo");
    assert_eq!(repo.kind, DeclKind::Class);
    assert_eq!(repo.type_params().len(), 1);
    // The parameter property is a field of the class; the constructor a member too.
    let members: Vec<&str> = repo
        .members()
        .iter()
        .map(|m| facts.name(facts.decl(*m).name))
        .collect();
    // The field is declared while the constructor's parameters are walked, before the
    // constructor itself joins the members.
    assert_eq!(members, ["db", "constructor", "put"]);
    assert_eq!(decl_named(&facts, "x").kind, DeclKind::Variable);
    // `x` lives in the `if` block's scope, not the method's.
    let x_scope = decl_named(&facts, "x").scope as usize;
    assert_eq!(facts.scopes[x_scope].kind, ScopeKind::Block);
    let call = &facts.calls[0];
    assert_eq!(call.kind, CallKind::Call);
    assert_eq!(call.line, 4);
    assert_eq!(facts.name(facts.decl(call.caller).name), "put");
    let call_expr = facts.expr(call.expr);
    let Expr::Call { callee, .. } = call_expr else {
        panic!("a call expression");
    };
    let (args, _) = call_expr.operands();
    assert_eq!(args.len(), 1);
    assert!(matches!(facts.expr(*callee), Expr::Ident { .. }));
    assert_eq!(facts.imports[0].specifier, "./db");
}

#[test]
fn deeply_nested_code_is_walked_to_a_bounded_depth() {
    // Nesting far deeper than any code a person writes: extraction must neither overflow
    // the stack nor lose the declarations beside it.
    let depth = 20_000;
    let source = format!(
        "export function first() {{}}\nconst x = {}1{};\nexport function last() {{ first(); }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let facts = std::thread::Builder::new()
        .stack_size(64 * 1024 * 1024)
        .spawn(move || extract("deep.ts", &source))
        .expect("thread")
        .join()
        .expect("no panic");
    assert!(facts.decls.iter().any(|d| facts.name(d.name) == "last"));
    assert_eq!(facts.calls.len(), 1);
}

#[test]
fn broken_code_keeps_what_parsed_around_the_error() {
    let facts = extract(
        "b.ts",
        "export function before() { return 1; }\nexport function broken(a: string) {\n  @@@ ### not typescript;\n  return a;\n}\nexport function after() { before(); }\n",
    );
    assert!(facts.error_bytes > 0);
    let names: Vec<&str> = facts
        .decls
        .iter()
        .filter(|d| d.kind == DeclKind::Function)
        .map(|d| facts.name(d.name))
        .collect();
    assert!(names.contains(&"before"), "{names:?}");
    assert!(names.contains(&"after"), "{names:?}");
}

mod reparse {
    //! An editor's file is reparsed incrementally; its summary must be the one a fresh parse
    //! gives, whatever the edits.

    use proptest::prelude::*;

    use super::super::{Extractor, ParsedFile};
    use crate::persist;

    const START: &str = "import { save } from './db';\n\
        export class Repo<T> implements Store<T> {\n\
          private items: T[] = [];\n\
          constructor(private db: Db) {}\n\
          async put(item: T): Promise<void> { if (item) { await save(item); this.items.push(item); } }\n\
        }\n\
        export function main(repo: Repo<string>) {\n\
          const run = () => repo.put('x');\n\
          return run();\n\
        }\n";

    /// Pieces of TypeScript an edit inserts: whole tokens, halves of pairs, and text that
    /// breaks the parse.
    const PIECES: &[&str] = &[
        "foo(",
        ")",
        "{",
        "}",
        "\n",
        "class X {",
        "await ",
        "save(item);",
        "function f() {}",
        "const é = 1;",
        "/*",
        "*/",
        "`${",
        "'",
        "<T>",
        "repo.put",
        "=> ",
        ";",
        " ",
    ];

    fn edit(text: &str, at: usize, remove: usize, piece: &str) -> String {
        let boundaries: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        let start = boundaries[at % boundaries.len()];
        let end = boundaries
            .iter()
            .copied()
            .find(|&b| b >= start + remove)
            .unwrap_or(text.len());
        format!("{}{}{}", &text[..start], piece, &text[end..])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn an_incremental_reparse_summarises_as_a_fresh_parse(
            edits in prop::collection::vec((0usize..400, 0usize..12, 0usize..PIECES.len()), 1..12)
        ) {
            let mut extractor = Extractor::new().expect("grammar");
            let mut fresh = Extractor::new().expect("grammar");
            let mut text = START.to_owned();
            let (_, mut parsed): (_, Option<ParsedFile>) =
                extractor.extract_edited("a.ts", text.as_bytes(), 0, None);
            for (at, remove, piece) in edits {
                text = edit(&text, at, remove, PIECES[piece]);
                let (facts, next) = extractor.extract_edited("a.ts", text.as_bytes(), 0, parsed);
                parsed = next;
                let expected = fresh.extract("a.ts", text.as_bytes(), 0);
                prop_assert_eq!(persist::encode(&facts), persist::encode(&expected), "{}", text);
            }
        }
    }
}

#[test]
fn signatures_leave_comments_out() {
    let facts = extract(
        "a.ts",
        "export const get: {\n\
           /** Reads a key. */\n\
           <K>(key: K): string // the data-last form\n\
           /* the data-first form */ <K>(self: Map, key: K): string\n\
         } = impl;\n\
         export function at(url: \"http://x/*y*/\"): void {}\n",
    );
    let get = decl_named(&facts, "get");
    assert_eq!(
        facts.text(get.type_text),
        "{ <K>(key: K): string <K>(self: Map, key: K): string }"
    );
    // Comment openers inside a string are text, not comments.
    let at = decl_named(&facts, "at");
    let params: Vec<&str> = at.params_text().iter().map(|p| facts.text(*p)).collect();
    assert_eq!(params, ["url: \"http://x/*y*/\""]);
}
