//! The built-in library: the standard JavaScript types the evaluator needs to follow values
//! through arrays, promises, maps and sets (`items.map(x => x.save())`), written as a small
//! declaration file and extracted like any other file. Its declarations are never graph
//! nodes: calls that reach them are calls of something outside the project.

use crate::extract::Extractor;
use crate::facts::FileFacts;

/// The path the built-in library's declarations are attributed to.
pub(crate) const BUILTINS_PATH: &str = "<builtins>.d.ts";

const SOURCE: &str = include_str!("builtins.d.ts");

/// The summary of the built-in library.
pub(crate) fn builtin_facts(extractor: &mut Extractor) -> FileFacts {
    let mut facts = extractor.extract(BUILTINS_PATH, SOURCE.as_bytes(), 0);
    for decl in &mut facts.decls {
        decl.node = None;
    }
    facts
}
