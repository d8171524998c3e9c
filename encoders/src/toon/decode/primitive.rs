//! Primitive tokens: a quoted string, `true`/`false`/`null`, a number, or else a bare string.

use std::ops::Range;

use serde_json::Value;

use super::error::{ErrorKind, Fault};
use super::{number, string};

/// Decodes the (already trimmed) token `text[span]`.
pub(super) fn parse_token(text: &str, span: Range<usize>) -> Result<Value, Fault> {
    let token = text.get(span.clone()).unwrap_or("");
    if token.starts_with('"') {
        // Cut the text at the token's end so an unterminated quote cannot run into later cells.
        let (value, end) = string::parse_quoted(text.get(..span.end).unwrap_or(""), span.start)?;
        if end != span.end {
            return Err(Fault::new(end, ErrorKind::TrailingAfterQuote));
        }
        return Ok(Value::String(value));
    }
    Ok(match token {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        _ => match number::parse(token) {
            Some(n) => Value::Number(n),
            None => Value::String(token.to_owned()),
        },
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn token(text: &str) -> Result<Value, String> {
        parse_token(text, 0..text.len()).map_err(|f| format!("{}: {}", f.at, f.kind))
    }

    #[test]
    fn types_tokens() {
        assert_eq!(token("true"), Ok(json!(true)));
        assert_eq!(token("null"), Ok(json!(null)));
        assert_eq!(token("\"null\""), Ok(json!("null")));
        assert_eq!(token("05"), Ok(json!("05")));
        assert_eq!(token("-3.5"), Ok(json!(-3.5)));
        assert_eq!(token("a \"b\" c"), Ok(json!("a \"b\" c")));
        assert_eq!(token("#x"), Ok(json!("#x")));
        assert_eq!(token(""), Ok(json!("")));
    }

    #[test]
    fn rejects_text_after_a_closing_quote() {
        assert_eq!(
            token("\"a\"b"),
            Err("3: unexpected characters after closing quote".into())
        );
    }
}
