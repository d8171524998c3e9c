//! Repairs for modern syntax that tree-sitter-typescript 0.23.2 misparses, made on a copy of
//! the source by same-length byte replacements: every byte offset, line and column stays what
//! it was, so positions in the graph are the file's own. Nothing is repaired inside comments,
//! strings or template literals (except escaped backticks, which are the misparse there).
//!
//! The repairs, each turning the construct into one the grammar knows with the same meaning
//! for the graph:
//! - a generic call signature starting a line after a member with no `;` (the `dual`
//!   overload style: `<A>(…): R⏎  <B>(…): S`) gets a `;` in place of one space of its
//!   indentation (TypeScript files only: in TSX a line may start a JSX element);
//! - `in`/`out` variance annotations and `const` modifiers on type parameters (`<in out A>`,
//!   `<const K>`) become spaces;
//! - the `accessor` keyword of auto-accessor fields becomes spaces;
//! - `export type *` loses its `type`;
//! - an escape inside a template literal becomes blanks (template literal types take none);
//! - a member named `in`, `abstract` or `accessor` gets `_` for its first letter (the
//!   extractor reads names from the original text, so the name stays what it was).

/// Returns the repaired source, or `None` when nothing needed repair.
pub(crate) fn repair(source: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut lexer = Lexer::default();
    let len = source.len();
    let mut i = 0;
    let mut line_start = true;
    // The last byte of code seen (comments and blanks skipped): what the previous line ended
    // with, for the call-signature repair.
    let mut last_code: u8 = b'{';
    let mut before_last: u8 = b' ';
    while i < len {
        let b = source[i];
        match lexer.state {
            State::LineComment => {
                if b == b'\n' {
                    lexer.state = State::Code;
                }
                i += 1;
                line_start = b == b'\n';
                continue;
            }
            State::BlockComment => {
                if b == b'*' && source.get(i + 1) == Some(&b'/') {
                    lexer.state = State::Code;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            State::Str(quote) => {
                if b == b'\\' {
                    i += 2;
                } else {
                    if b == quote || b == b'\n' {
                        lexer.state = State::Code;
                        last_code = quote;
                    }
                    i += 1;
                }
                continue;
            }
            State::Template => {
                if b == b'\\' {
                    // Template literal types take no escapes: the escape becomes blanks (a
                    // line continuation keeps its newline, a non-ASCII byte stays whole).
                    let buffer = edit(&mut out, source);
                    buffer[i] = b' ';
                    if source
                        .get(i + 1)
                        .is_some_and(|b| b.is_ascii() && *b != b'\n')
                    {
                        buffer[i + 1] = b' ';
                    }
                    i += 2;
                } else if b == b'`' {
                    lexer.state = State::Code;
                    last_code = b'`';
                    i += 1;
                } else if b == b'$' && source.get(i + 1) == Some(&b'{') {
                    lexer.braces.push(Brace::Substitution);
                    lexer.state = State::Code;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            State::Code => {}
        }
        match b {
            b'/' if source.get(i + 1) == Some(&b'/') => {
                lexer.state = State::LineComment;
                i += 2;
                continue;
            }
            b'/' if source.get(i + 1) == Some(&b'*') => {
                lexer.state = State::BlockComment;
                i += 2;
                continue;
            }
            b'\'' | b'"' => {
                lexer.state = State::Str(b);
                i += 1;
                line_start = false;
                continue;
            }
            b'`' => {
                lexer.state = State::Template;
                i += 1;
                line_start = false;
                continue;
            }
            b'{' => lexer.braces.push(Brace::Block),
            b'}' if lexer.braces.last() == Some(&Brace::Substitution) => {
                lexer.braces.pop();
                lexer.state = State::Template;
                i += 1;
                continue;
            }
            b'}' => {
                lexer.braces.pop();
            }
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'<' if line_start => {
                let after_arrow = last_code == b'>' && before_last == b'=';
                if !after_arrow {
                    repair_call_signature(source, i, last_code, &mut out);
                }
            }
            b'<' | b',' => repair_variance(source, i, &mut out),
            b'a' if is_word_at(source, i, b"accessor") => {
                repair_keyword_name(source, i, 8, &mut out);
                repair_accessor(source, i, &mut out);
            }
            b'a' if is_word_at(source, i, b"abstract") => {
                repair_keyword_name(source, i, 8, &mut out)
            }
            b'i' if is_word_at(source, i, b"in") => repair_keyword_name(source, i, 2, &mut out),
            b'u' if is_word_at(source, i, b"using") => repair_using(source, i, &mut out),
            b'a' if is_word_at(source, i, b"as") => repair_as(source, i, &mut out),
            b'e' if is_word_at(source, i, b"export") => {
                repair_export_type_star(source, i, &mut out)
            }
            _ => {}
        }
        line_start = false;
        before_last = last_code;
        last_code = b;
        i += 1;
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    #[default]
    Code,
    LineComment,
    BlockComment,
    Str(u8),
    Template,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Brace {
    Block,
    /// `${` inside a template literal: its `}` returns to the template.
    Substitution,
}

#[derive(Default)]
struct Lexer {
    state: State,
    braces: Vec<Brace>,
}

fn edit<'a>(out: &'a mut Option<Vec<u8>>, source: &[u8]) -> &'a mut Vec<u8> {
    out.get_or_insert_with(|| source.to_vec())
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Whether `word` stands at `i` as a whole word.
fn is_word_at(source: &[u8], i: usize, word: &[u8]) -> bool {
    source.get(i..i + word.len()) == Some(word)
        && (i == 0 || !is_ident_byte(source[i - 1]))
        && source
            .get(i + word.len())
            .is_none_or(|b| !is_ident_byte(*b))
}

fn skip_blanks(source: &[u8], mut i: usize) -> usize {
    while source.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
        i += 1;
    }
    i
}

fn skip_ident(source: &[u8], mut i: usize) -> usize {
    while source.get(i).copied().is_some_and(is_ident_byte) {
        i += 1;
    }
    i
}

/// `<A>(…): R⏎  <B>(…): S`: a line starting with a generic call signature after a line that
/// ends a type. The `;` goes where the last indentation byte was.
fn repair_call_signature(source: &[u8], at: usize, last_code: u8, out: &mut Option<Vec<u8>>) {
    // `<`, then (across lines) an identifier, possibly after a `const`/`in`/`out` modifier.
    let mut name = skip_space(source, at + 1);
    for modifier in [b"const".as_slice(), b"in", b"out"] {
        if is_word_at(source, name, modifier) {
            name = skip_space(source, name + modifier.len());
        }
    }
    let name_end = skip_ident(source, name);
    if name_end == name {
        return;
    }
    let after = skip_space(source, name_end);
    if !matches!(source.get(after), Some(b',' | b'>' | b'='))
        && !is_word_at(source, after, b"extends")
    {
        return;
    }
    // The `>` closing the type parameters (nested `<…>` counted, `=>` skipped), then `(`.
    let mut depth = 0usize;
    let mut close = None;
    let end = source.len().min(at + MAX_SIGNATURE_SCAN);
    for p in at..end {
        match source[p] {
            b'<' => depth += 1,
            b'>' if p > 0 && source[p - 1] == b'=' => {}
            b'>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    close = Some(p);
                    break;
                }
            }
            b';' => return,
            _ => {}
        }
    }
    if close.and_then(|c| source.get(c + 1)) != Some(&b'(') {
        return;
    }
    // One byte of indentation to turn into `;`.
    let Some(indent) = at
        .checked_sub(1)
        .filter(|p| matches!(source[*p], b' ' | b'\t'))
    else {
        return;
    };
    // The code before (comments skipped) must end like a type does.
    if is_ident_byte(last_code)
        || matches!(last_code, b'>' | b')' | b']' | b'}' | b'"' | b'\'' | b'`')
    {
        edit(out, source)[indent] = b';';
    }
}

/// How far a generic signature's type parameters are looked through for their closing `>`.
const MAX_SIGNATURE_SCAN: usize = 8192;

/// Skips white space and comments.
fn skip_space(source: &[u8], mut i: usize) -> usize {
    loop {
        match source.get(i) {
            Some(b) if b.is_ascii_whitespace() => i += 1,
            Some(b'/') if source.get(i + 1) == Some(&b'/') => {
                while source.get(i).is_some_and(|b| *b != b'\n') {
                    i += 1;
                }
            }
            Some(b'/') if source.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < source.len() && !(source[i] == b'*' && source.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            _ => return i,
        }
    }
}

/// `<in T>`, `<out T>`, `<in out T>`, `, out U`: the variance words become spaces.
fn repair_variance(source: &[u8], at: usize, out: &mut Option<Vec<u8>>) {
    let mut i = skip_space(source, at + 1);
    let mut found = Vec::new();
    loop {
        let word = if is_word_at(source, i, b"in") {
            2
        } else if is_word_at(source, i, b"out") {
            3
        } else if is_word_at(source, i, b"const") {
            5
        } else {
            break;
        };
        let next = skip_blanks(source, i + word);
        if next == i + word || !source.get(next).copied().is_some_and(is_ident_byte) {
            break;
        }
        found.push((i, word));
        i = next;
    }
    if found.is_empty() {
        return;
    }
    // The parameter name, then what may follow a type parameter.
    let name_end = skip_ident(source, i);
    let after = skip_space(source, name_end);
    let follows = matches!(source.get(after), Some(b',' | b'>' | b'='))
        || is_word_at(source, after, b"extends");
    if name_end == i || !follows || is_word_at(source, i, b"in") || is_word_at(source, i, b"out") {
        return;
    }
    let buffer = edit(out, source);
    for (start, len) in found {
        buffer[start..start + len].fill(b' ');
    }
}

/// `accessor name = …` (an auto-accessor field): the keyword becomes spaces.
fn repair_accessor(source: &[u8], at: usize, out: &mut Option<Vec<u8>>) {
    let next = skip_blanks(source, at + 8);
    if next == at + 8 {
        return;
    }
    let starts_name = source
        .get(next)
        .is_some_and(|b| is_ident_byte(*b) || *b == b'#' || *b == b'[' || *b == b'"');
    // Only as a member modifier: at the start of a line or after other modifiers.
    let mut p = at;
    while p > 0 && matches!(source[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    let before_ok = p == 0
        || matches!(source[p - 1], b'\n' | b'{' | b';')
        || [
            b"static".as_slice(),
            b"public",
            b"private",
            b"protected",
            b"readonly",
            b"override",
            b"declare",
        ]
        .iter()
        .any(|m| p >= m.len() && &source[p - m.len()..p] == *m);
    if starts_name && before_ok {
        edit(out, source)[at..at + 8].fill(b' ');
    }
}

/// A member named like a keyword the grammar treats specially (`in: string`,
/// `abstract?: boolean`): its first letter becomes `_`. The extractor reads names from the
/// original text, so the member keeps its name.
fn repair_keyword_name(source: &[u8], at: usize, len: usize, out: &mut Option<Vec<u8>>) {
    let mut next = skip_blanks(source, at + len);
    if source.get(next) == Some(&b'?') {
        next = skip_blanks(source, next + 1);
    }
    if source.get(next) == Some(&b':') {
        edit(out, source)[at] = b'_';
    }
}

/// `using` as a name (`function using(…)`, `= using;`) rather than a `using x = …`
/// declaration: its first letter becomes `_`.
fn repair_using(source: &[u8], at: usize, out: &mut Option<Vec<u8>>) {
    let next = skip_blanks(source, at + 5);
    let declares = next > at + 5 && source.get(next).copied().is_some_and(is_ident_byte);
    if !declares && source.get(at.wrapping_sub(1)) != Some(&b'.') {
        edit(out, source)[at] = b'_';
    }
}

/// `as` as a name (`let as = …`, `f(as)`) rather than an assertion: its first letter
/// becomes `_`.
fn repair_as(source: &[u8], at: usize, out: &mut Option<Vec<u8>>) {
    let next = skip_blanks(source, at + 2);
    let is_name = match source.get(next) {
        Some(b';' | b',' | b')' | b'.') => true,
        Some(b'=') => !matches!(source.get(next + 1), Some(b'=' | b'>')),
        _ => false,
    };
    if is_name && source.get(at.wrapping_sub(1)) != Some(&b'.') {
        edit(out, source)[at] = b'_';
    }
}

/// `export type * from …`: the `type` becomes spaces.
fn repair_export_type_star(source: &[u8], at: usize, out: &mut Option<Vec<u8>>) {
    let ty = skip_blanks(source, at + 6);
    if ty == at + 6 || !is_word_at(source, ty, b"type") {
        return;
    }
    let star = skip_blanks(source, ty + 4);
    if source.get(star) == Some(&b'*') {
        edit(out, source)[ty..ty + 4].fill(b' ');
    }
}

#[cfg(test)]
mod tests {
    use super::repair;

    fn fixed(source: &str) -> String {
        let out = repair(source.as_bytes()).map(|b| String::from_utf8(b).expect("utf8"));
        let out = out.unwrap_or_else(|| source.to_owned());
        assert_eq!(out.len(), source.len(), "repairs keep the length");
        out
    }

    #[test]
    fn generic_call_signatures_on_their_own_line_get_a_semicolon() {
        let source = "export interface Dual {\n  <A>(self: A): A\n  <A, B>(self: A, f: B): B\n}\n";
        assert_eq!(
            fixed(source),
            // The first signature follows `{`: nothing to end there.
            "export interface Dual {\n  <A>(self: A): A\n ;<A, B>(self: A, f: B): B\n}\n"
        );
        // After `=` or `(` a generic arrow function is an expression: left alone.
        let arrow = "const f =\n  <T>(x: T) => x\ncall(\n  <T>(x: T) => x)\n";
        assert_eq!(fixed(arrow), arrow);
    }

    #[test]
    fn variance_accessor_and_export_type_star_become_spaces() {
        assert_eq!(
            fixed("class X<in out T, out U> {}"),
            "class X<       T,     U> {}"
        );
        assert_eq!(fixed("if (a < in2) {}"), "if (a < in2) {}");
        assert_eq!(
            fixed("class A {\n  accessor x = 1;\n  static accessor y = 2\n}"),
            "class A {\n           x = 1;\n  static          y = 2\n}"
        );
        assert_eq!(fixed("const accessor = 1;"), "const accessor = 1;");
        assert_eq!(
            fixed("export type * from './b';"),
            "export      * from './b';"
        );
        assert_eq!(
            fixed("export type { A } from './b';"),
            "export type { A } from './b';"
        );
    }

    #[test]
    fn keywords_used_as_names_get_an_underscore() {
        assert_eq!(
            fixed("interface O {\n  in: string\n  abstract?: boolean\n}"),
            "interface O {\n  _n: string\n  _bstract?: boolean\n}"
        );
        assert_eq!(fixed("const x = a in b;"), "const x = a in b;");
        assert_eq!(
            fixed("function using(r) {}\nexports.using = using;"),
            "function _sing(r) {}\nexports.using = _sing;"
        );
        assert_eq!(fixed("using res = open();"), "using res = open();");
        assert_eq!(fixed("let as = 1; f(as);"), "let _s = 1; f(_s);");
        assert_eq!(
            fixed("x as Foo; import { a as b }"),
            "x as Foo; import { a as b }"
        );
        assert_eq!(
            fixed("interface A<\n  // note\n  in out T,\n> {}"),
            "interface A<\n  // note\n         T,\n> {}"
        );
    }

    #[test]
    fn strings_comments_and_templates_are_left_alone_but_escaped_backticks() {
        let source = "// <in T>\nconst s = '<in T>';\n/* accessor x */\ntype T = `a\\`b${'`'}`;\n";
        assert_eq!(
            fixed(source),
            "// <in T>\nconst s = '<in T>';\n/* accessor x */\ntype T = `a  b${'`'}`;\n"
        );
    }
}
