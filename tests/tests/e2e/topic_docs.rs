//! Topic search over leading doc comments: a declaration is found by the words of the
//! comment right above it (block or line comments, above an `export` or `const` too), and
//! an edit of the comment moves it to its new words.

use std::path::Path;

use tsgraph::query::SearchOptions;
use tsgraph::{Format, IndexOptions, Project, QueryRequest};

const SOURCE: &str = "\
/** Persists the shopping basket to durable storage. */
export function flush(): void {}

// Converts currency amounts
// between locales.
export const convert = (x: number) => x;

export class Ledger {
  /**
   * Reconciles pending entries.
   */
  settle(): void {}

  // Not a doc comment: a blank line sits between.

  close(): void {}
}

function plain(): void {}
plain(); // a trailing note about the call
export function afterCall(): void {}

/** Keeps the basket of a shopper. */
export class Basket {}

function log(_: unknown) { return (_t: unknown, _k: string) => {}; }
export class Api {
  /** Lists the orders. */
  @log(1)
  orders(): void {}
}
";

/// The IDs a topic search for `text` finds, best first.
fn topic(project: &Project, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    project
        .query(
            &QueryRequest::Topic {
                text: text.to_owned(),
                options: SearchOptions::default(),
            },
            Format::Json,
            &mut out,
        )
        .expect("topic");
    let json: serde_json::Value = serde_json::from_slice(&out).expect("json");
    json["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| n["id"].as_str().expect("id").to_owned())
        .collect()
}

fn write(root: &Path, text: &str) {
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("package.json"), r#"{"name":"docs-app"}"#).expect("write");
    std::fs::write(root.join("src/shop.ts"), text).expect("write");
}

#[test]
fn topic_search_finds_declarations_by_the_words_of_their_doc_comments() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, SOURCE);
    let project = Project::open(root, None).expect("open");
    project.index(&IndexOptions::default()).expect("index");
    assert_eq!(topic(&project, "shopping basket")[0], "src/shop.ts:flush");
    assert_eq!(topic(&project, "durable storage"), ["src/shop.ts:flush"]);
    // Consecutive line comments above a `const`, a block comment above a method.
    assert_eq!(topic(&project, "currency locales"), ["src/shop.ts:convert"]);
    assert_eq!(
        topic(&project, "reconciles pending"),
        ["src/shop.ts:Ledger.settle"]
    );
    // A comment separated by a blank line documents nothing, nor one that ends a line of
    // code; a member's comment above its decorators documents it.
    assert!(topic(&project, "blank").is_empty());
    assert!(topic(&project, "trailing note").is_empty());
    assert_eq!(topic(&project, "lists orders"), ["src/shop.ts:Api.orders"]);
    // A name made of the query's words comes before a doc comment that has them.
    assert_eq!(
        topic(&project, "basket"),
        ["src/shop.ts:Basket", "src/shop.ts:flush"]
    );

    // The comment edited: the old words no longer find the function, the new ones do.
    write(
        root,
        &SOURCE.replace("Persists the shopping basket", "Writes the wishlist"),
    );
    project.sync(&IndexOptions::default()).expect("sync");
    assert_eq!(topic(&project, "basket"), ["src/shop.ts:Basket"]);
    assert_eq!(topic(&project, "wishlist"), ["src/shop.ts:flush"]);
}
