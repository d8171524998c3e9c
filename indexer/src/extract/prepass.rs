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
//! - `in`/`out` variance annotations on type parameters (`<in out A>`) become spaces;
//! - the `accessor` keyword of auto-accessor fields becomes spaces;
//! - `export type *` loses its `type`;
//! - an escaped backtick inside a template literal becomes `\t`.

/// Returns the repaired source, or `None` when nothing needed repair.
pub(crate) fn repair(source: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut lexer = Lexer::default();
    let len = source.len();
    let mut i = 0;
    let mut line_start = true;
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
                    }
                    i += 1;
                }
                continue;
            }
            State::Template => {
                if b == b'\\' {
                    if source.get(i + 1) == Some(&b'`') {
                        edit(&mut out, source)[i + 1] = b't';
                    }
                    i += 2;
                } else if b == b'`' {
                    lexer.state = State::Code;
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
            b'}' => {
                if lexer.braces.pop() == Some(Brace::Substitution) {
                    lexer.state = State::Template;
                    i += 1;
                    continue;
                }
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
            b'<' if line_start => repair_call_signature(source, i, &mut out),
            b'<' | b',' => repair_variance(source, i, &mut out),
            b'a' if is_word_at(source, i, b"accessor") => repair_accessor(source, i, &mut out),
            b'e' if is_word_at(source, i, b"export") => {
                repair_export_type_star(source, i, &mut out)
            }
            _ => {}
        }
        line_start = false;
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
fn repair_call_signature(source: &[u8], at: usize, out: &mut Option<Vec<u8>>) {
    // `<` then an identifier then `,`, `>` or ` extends`, and a `(` before the line ends.
    let name_end = skip_ident(source, at + 1);
    if name_end == at + 1 {
        return;
    }
    let after = skip_blanks(source, name_end);
    if !matches!(source.get(after), Some(b',' | b'>')) && !is_word_at(source, after, b"extends") {
        return;
    }
    let line_end = source[at..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(source.len(), |p| at + p);
    let Some(close) = source[at..line_end].iter().position(|b| *b == b'>') else {
        return;
    };
    if source.get(at + close + 1) != Some(&b'(') {
        return;
    }
    // One byte of indentation to turn into `;`.
    let Some(indent) = at
        .checked_sub(1)
        .filter(|p| matches!(source[*p], b' ' | b'\t'))
    else {
        return;
    };
    // The previous non-blank line must end like a type does.
    let mut p = indent;
    while p > 0 && matches!(source[p - 1], b' ' | b'\t' | b'\r') {
        p -= 1;
    }
    if p == 0 || source[p - 1] != b'\n' {
        return;
    }
    let mut q = p - 1;
    while q > 0 && matches!(source[q - 1], b' ' | b'\t' | b'\r' | b'\n') {
        q -= 1;
    }
    let Some(&last) = q.checked_sub(1).and_then(|q| source.get(q)) else {
        return;
    };
    if is_ident_byte(last) || matches!(last, b'>' | b')' | b']' | b'}') {
        edit(out, source)[indent] = b';';
    }
}

/// `<in T>`, `<out T>`, `<in out T>`, `, out U`: the variance words become spaces.
fn repair_variance(source: &[u8], at: usize, out: &mut Option<Vec<u8>>) {
    let mut i = skip_blanks(source, at + 1);
    let mut found = Vec::new();
    loop {
        let word = if is_word_at(source, i, b"in") {
            2
        } else if is_word_at(source, i, b"out") {
            3
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
    let after = skip_blanks(source, name_end);
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
    fn strings_comments_and_templates_are_left_alone_but_escaped_backticks() {
        let source = "// <in T>\nconst s = '<in T>';\n/* accessor x */\ntype T = `a\\`b${'`'}`;\n";
        assert_eq!(
            fixed(source),
            "// <in T>\nconst s = '<in T>';\n/* accessor x */\ntype T = `a\\tb${'`'}`;\n"
        );
    }
}
