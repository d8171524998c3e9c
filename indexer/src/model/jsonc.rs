//! Reading JSON with comments (tsconfig.json, jsconfig.json, ts-graph-mcp.config.json) and
//! strict JSON (package.json), and finding the line of a property for warnings.

use jsonc_parser::ParseOptions;
use jsonc_parser::ast::{ObjectPropName, Value as Ast};
use jsonc_parser::common::Ranged;
use serde_json::Value;

/// A parse failure: the message and, where the parser knows it, the 1-based line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParseFailure {
    pub(crate) line: Option<u32>,
    pub(crate) message: String,
}

/// What tsc accepts in a config without complaint: JSON plus comments and trailing commas.
fn tsc_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// A config read the way tsc reads it: comments and trailing commas are fine; anything else
/// is reported (`problem`) and, like tsc's error-tolerant parser, the text is still read as
/// far as a lenient parse allows (`value`, `None` when even that fails).
pub(crate) struct Lenient {
    pub(crate) value: Option<Value>,
    pub(crate) problem: Option<ParseFailure>,
}

/// Parses a tsconfig-style JSONC text.
pub(crate) fn parse_jsonc_lenient(text: &str) -> Lenient {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match parse_with(text, &tsc_options()) {
        Ok(value) => Lenient {
            value: Some(value),
            problem: None,
        },
        Err(problem) => Lenient {
            value: parse_with(text, &ParseOptions::default()).ok(),
            problem: Some(problem),
        },
    }
}

/// Parses JSONC the way tsc reads its configs: comments and trailing commas allowed.
pub(crate) fn parse_jsonc(text: &str) -> Result<Value, ParseFailure> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    parse_with(text, &tsc_options())
}

fn parse_with(text: &str, options: &ParseOptions) -> Result<Value, ParseFailure> {
    jsonc_parser::parse_to_serde_value::<Value>(text, options).map_err(|err| ParseFailure {
        line: u32::try_from(err.line_display()).ok(),
        message: format!("invalid JSON: {}", err.kind()),
    })
}

/// Parses strict JSON, as npm reads package.json.
pub(crate) fn parse_json(text: &str) -> Result<Value, ParseFailure> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|err| ParseFailure {
        line: u32::try_from(err.line()).ok().filter(|line| *line > 0),
        message: format!("invalid JSON: {}", strip_position(&err.to_string())),
    })
}

/// serde_json appends " at line L column C"; the line is reported apart.
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map(|at| &message[..at])
        .unwrap_or(message)
}

/// The 1-based line of the property (or array element) reached by following `path` from
/// the top-level object. Re-parses `text`: it is only called when a warning is written.
pub(crate) fn line_of(text: &str, path: &[&str]) -> Option<u32> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let parsed =
        jsonc_parser::parse_to_ast(text, &Default::default(), &ParseOptions::default()).ok()?;
    let mut node = parsed.value?;
    let mut offset = node.start();
    for segment in path {
        let next = match node {
            Ast::Object(object) => {
                let prop = object.properties.into_iter().find(|prop| {
                    let name = match &prop.name {
                        ObjectPropName::String(lit) => lit.value.as_ref(),
                        ObjectPropName::Word(word) => word.value,
                    };
                    name == *segment
                })?;
                offset = prop.range.start;
                prop.value
            }
            Ast::Array(array) => {
                let index: usize = segment.parse().ok()?;
                let element = array.elements.into_iter().nth(index)?;
                offset = element.start();
                element
            }
            _ => return None,
        };
        node = next;
    }
    line_at(text, offset)
}

/// The 1-based line of the byte `offset` in `text`.
pub(crate) fn line_at(text: &str, offset: usize) -> Option<u32> {
    let before = text.get(..offset)?;
    u32::try_from(before.bytes().filter(|b| *b == b'\n').count() + 1).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_accepted_in_configs() {
        let value = parse_jsonc("{\n // c\n \"a\": [1, 2,], /* x */\n}").unwrap();
        assert_eq!(value["a"][1], 2);
        let read = parse_jsonc_lenient("{\n \"a\": 1\n \"b\": 2}");
        assert_eq!(read.value.unwrap()["b"], 2);
        assert_eq!(read.problem.unwrap().line, Some(2));
        let err = parse_jsonc("{\n \"a\": 1\n \"b\": }").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.starts_with("invalid JSON"), "{}", err.message);
    }

    #[test]
    fn package_json_is_strict_and_errors_carry_a_line() {
        let err = parse_json("{\n  \"name\": \"x\",\n}").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(!err.message.contains("at line"), "{}", err.message);
    }

    #[test]
    fn line_of_follows_objects_and_arrays() {
        let text = "{\n \"compilerOptions\": {\n  \"paths\": {\n   \"@a/*\": [\"x\",\n    \"y\"]\n  }\n },\n \"extends\": [\"./a\", \"./b\"]\n}";
        assert_eq!(
            line_of(text, &["compilerOptions", "paths", "@a/*"]),
            Some(4)
        );
        assert_eq!(
            line_of(text, &["compilerOptions", "paths", "@a/*", "1"]),
            Some(5)
        );
        assert_eq!(line_of(text, &["extends", "1"]), Some(8));
        assert_eq!(line_of(text, &["nope"]), None);
    }
}
