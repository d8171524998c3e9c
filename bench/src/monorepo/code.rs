//! The text of one generated TypeScript file: indented lines, the imports it needs (collected
//! as the body uses names, printed on top), and the calls it makes, recorded with the function
//! that makes them so that the manifest can state true caller counts.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use super::graph::{Callable, Sym};

/// Writes one indented line: `ln!(file, "return {};", x)`.
macro_rules! ln {
    ($file:expr) => {
        $file.line(format_args!(""))
    };
    ($file:expr, $($arg:tt)*) => {
        $file.line(format_args!($($arg)*))
    };
}
pub(crate) use ln;

/// Opens a block: writes the line, then indents (`open!(file, "export class {} {{", name)`).
macro_rules! open {
    ($file:expr, $($arg:tt)*) => {
        $file.open(format_args!($($arg)*))
    };
}
pub(crate) use open;

/// Closes a block with `}` and leaves a blank line after it.
pub(crate) fn close_block(file: &mut TsFile) {
    file.close("}");
    file.line(format_args!(""));
}

/// Names one module imports from one specifier.
#[derive(Debug, Default)]
struct Imported {
    values: Vec<String>,
    types: Vec<String>,
}

/// Where an import's specifier points, which decides where it is printed: packages first,
/// then path aliases, then relative paths, as import sorters order them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SpecKind {
    /// A package name (`react`, `@gen/core`, `@gen/billing-3/invoice`).
    Package,
    /// A tsconfig `paths` alias (`@shared/strings`).
    Alias,
    /// `./x` or `../y/x`.
    Relative,
}

/// One TypeScript file being written.
#[derive(Debug)]
pub(crate) struct TsFile {
    /// Path from the project root.
    pub(crate) path: String,
    header: Vec<String>,
    imports: BTreeMap<(SpecKind, String), Imported>,
    body: String,
    depth: usize,
    caller: Option<Sym>,
    /// Calls made in this file: (caller, callee).
    pub(crate) calls: Vec<(Sym, Sym)>,
    /// Import hub modules through their tsconfig path alias (`@shared/strings`) rather than
    /// their package name (`@gen/shared`).
    pub(crate) prefer_alias: bool,
    /// Import a library's feature through its subpath export (`@gen/billing-3/retail-order`)
    /// rather than its root, where the library has an `exports` map.
    pub(crate) prefer_subpath: bool,
}

impl TsFile {
    /// An empty file at `path` whose first lines are the doc comment `header`.
    pub(crate) fn new(path: String, header: &[&str]) -> TsFile {
        TsFile {
            path,
            header: header.iter().map(|line| (*line).to_owned()).collect(),
            imports: BTreeMap::new(),
            body: String::with_capacity(8 * 1024),
            depth: 0,
            caller: None,
            calls: Vec::new(),
            prefer_alias: false,
            prefer_subpath: false,
        }
    }

    /// One line at the current indentation (empty arguments: a blank line).
    pub(crate) fn line(&mut self, args: fmt::Arguments<'_>) {
        let start = self.body.len();
        for _ in 0..self.depth {
            self.body.push_str("  ");
        }
        // Writing into a String cannot fail.
        let _ = self.body.write_fmt(args);
        if self.body.len() == start + 2 * self.depth {
            self.body.truncate(start);
        }
        self.body.push('\n');
    }

    /// A line, then one more level of indentation.
    pub(crate) fn open(&mut self, args: fmt::Arguments<'_>) {
        self.line(args);
        self.depth += 1;
    }

    /// The current indentation level.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// One more level of indentation.
    pub(crate) fn indent(&mut self) {
        self.depth += 1;
    }

    /// One level less indentation (after a head whose body is empty, `{}`).
    pub(crate) fn outdent(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// One level less indentation, then `text` (usually `}`).
    pub(crate) fn close(&mut self, text: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.line(format_args!("{text}"));
    }

    /// A block of lines written as they are, each at the current indentation; leading and
    /// trailing blank lines of `text` are dropped, inner ones kept.
    pub(crate) fn block(&mut self, text: &str) {
        for line in text.trim_matches('\n').lines() {
            self.line(format_args!("{line}"));
        }
    }

    /// A JSDoc comment of one or more lines.
    pub(crate) fn doc(&mut self, lines: &[&str]) {
        match lines {
            [one] => self.line(format_args!("/** {one} */")),
            _ => {
                self.line(format_args!("/**"));
                for line in lines {
                    self.line(format_args!(" * {line}"));
                }
                self.line(format_args!(" */"));
            }
        }
    }

    /// Imports the value `name` from `spec`.
    pub(crate) fn value(&mut self, kind: SpecKind, spec: &str, name: &str) {
        let entry = self.imports.entry((kind, spec.to_owned())).or_default();
        if !entry.values.iter().any(|n| n == name) {
            entry.values.push(name.to_owned());
        }
    }

    /// Imports the type `name` from `spec` (`import type`).
    pub(crate) fn ty(&mut self, kind: SpecKind, spec: &str, name: &str) {
        let entry = self.imports.entry((kind, spec.to_owned())).or_default();
        if !entry.types.iter().any(|n| n == name) {
            entry.types.push(name.to_owned());
        }
    }

    /// Makes `sym` the function whose body is being written: calls recorded from now on are
    /// its calls.
    pub(crate) fn enter(&mut self, sym: Sym) {
        self.caller = Some(sym);
    }

    /// `name(args)`, recorded as a call of `callee` by the current function.
    pub(crate) fn call(&mut self, callee: &Callable, args: &str) -> String {
        self.record(callee);
        format!("{}({args})", callee.name)
    }

    /// `receiver.name(args)`, recorded as a call of `callee` by the current function.
    pub(crate) fn call_on(&mut self, receiver: &str, callee: &Callable, args: &str) -> String {
        self.record(callee);
        format!("{receiver}.{}({args})", callee.name)
    }

    /// Records a call of `callee` by the current function, for a call whose text the
    /// writer spreads over several lines itself.
    pub(crate) fn record(&mut self, callee: &Callable) {
        // Every call is written inside a function entered before; the file itself would be
        // the caller of a top-level call, and the generator writes none.
        if let Some(caller) = self.caller {
            self.calls.push((caller, callee.sym));
        }
    }

    /// The finished text: header, imports, body.
    pub(crate) fn finish(self) -> (String, String, Vec<(Sym, Sym)>) {
        let mut text = String::with_capacity(self.body.len() + 1024);
        if !self.header.is_empty() {
            text.push_str("/**\n");
            for line in &self.header {
                let _ = writeln!(text, " * {line}");
            }
            text.push_str(" */\n");
        }
        let mut last_kind = None;
        for ((kind, spec), names) in &self.imports {
            if last_kind.is_some_and(|last| last != *kind) {
                text.push('\n');
            }
            last_kind = Some(*kind);
            let types: Vec<&str> = names
                .types
                .iter()
                .map(String::as_str)
                .filter(|name| !names.values.iter().any(|v| v == name))
                .collect();
            let values: Vec<&str> = names.values.iter().map(String::as_str).collect();
            write_import(&mut text, "import", values, spec);
            write_import(&mut text, "import type", types, spec);
        }
        if !self.imports.is_empty() {
            text.push('\n');
        }
        // Writers leave a blank line after each declaration; a file ends with one newline.
        text.push_str(self.body.trim_end());
        text.push('\n');
        (self.path, text, self.calls)
    }
}

/// One import statement, wrapped one name per line when it would be long (as a formatter
/// would print it).
fn write_import(text: &mut String, keyword: &str, mut names: Vec<&str>, spec: &str) {
    if names.is_empty() {
        return;
    }
    names.sort_unstable();
    let one_line = format!("{keyword} {{ {} }} from \"{spec}\";", names.join(", "));
    if one_line.len() <= 100 {
        text.push_str(&one_line);
        text.push('\n');
        return;
    }
    let _ = writeln!(text, "{keyword} {{");
    for name in names {
        let _ = writeln!(text, "  {name},");
    }
    let _ = writeln!(text, "}} from \"{spec}\";");
}
