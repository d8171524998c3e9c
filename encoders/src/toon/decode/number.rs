//! Numeric tokens: which unquoted tokens are numbers, and how they become JSON numbers.
//!
//! A number is `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; anything else (`05`, `-007`,
//! `.5`, `1.`, `+1`, `0x10`, `1_000`, `NaN`, `Infinity`) is a string.
//!
//! Policy for values the host cannot hold exactly (the spec asks implementations to document
//! one): integers without fraction or exponent are kept exactly as `i64`/`u64`; integers beyond
//! that range become the nearest `f64`. Tokens with a fraction or exponent become `f64`, except
//! that a whole value below 2^53 in magnitude becomes an integer (`2.5e2` is `250`, `-0.0` is
//! `0`), so that whole numbers deserialize into integer types. A token whose magnitude
//! overflows `f64` is kept as a string, since no JSON number can carry it.

use serde_json::Number;

/// The JSON number `token` denotes, or `None` if it is not a number.
pub(super) fn parse(token: &str) -> Option<Number> {
    let plain = shape(token)?;
    if plain {
        let exact = if token.starts_with('-') {
            token.parse::<i64>().ok().map(Number::from)
        } else {
            token.parse::<u64>().ok().map(Number::from)
        };
        if exact.is_some() {
            return exact;
        }
    }
    float(token.parse::<f64>().ok()?)
}

/// Checks the number grammar; `Some(true)` for a plain integer (no fraction, no exponent).
fn shape(token: &str) -> Option<bool> {
    let bytes = token.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let int_start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_len = i - int_start;
    // A leading zero is only allowed as the whole integer part.
    if int_len == 0 || (int_len > 1 && bytes.get(int_start) == Some(&b'0')) {
        return None;
    }
    let mut plain = true;
    if bytes.get(i) == Some(&b'.') {
        plain = false;
        i = digits(bytes, i + 1)?;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        plain = false;
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(bytes, i)?;
    }
    (i == bytes.len()).then_some(plain)
}

/// The end of a non-empty digit run starting at `i`.
fn digits(bytes: &[u8], mut i: usize) -> Option<usize> {
    let start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    (i > start).then_some(i)
}

fn float(value: f64) -> Option<Number> {
    /// 2^53: below it every whole `f64` is an exactly representable integer.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if !value.is_finite() {
        return None;
    }
    if value.fract() == 0.0 && value.abs() < EXACT {
        // The range check above makes these casts exact; `-0.0` becomes `0`.
        return Some(if value < 0.0 {
            Number::from(value as i64)
        } else {
            Number::from(value as u64)
        });
    }
    Number::from_f64(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(token: &str) -> String {
        parse(token).map_or_else(|| "string".to_owned(), |n| n.to_string())
    }

    #[test]
    fn accepts_decimal_and_exponent_forms() {
        let cases = [
            ("42", "42"),
            ("-7", "-7"),
            ("-0", "0"),
            ("-0.0", "0"),
            ("1.5000", "1.5"),
            ("-1E+03", "-1000"),
            ("2.5e2", "250"),
            ("3E-02", "0.03"),
            ("0e1", "0"),
            ("1e-10", "1e-10"),
            ("18446744073709551615", "18446744073709551615"),
            ("-9223372036854775808", "-9223372036854775808"),
        ];
        for (token, want) in cases {
            assert_eq!(show(token), want, "{token}");
        }
    }

    #[test]
    fn keeps_non_numbers_as_strings() {
        for token in [
            "05", "007", "-05", ".5", "1.", "+1", "1e", "1e+", "-", "", "0x10", "1_000", "NaN",
            "Infinity", "1e400",
        ] {
            assert_eq!(show(token), "string", "{token}");
        }
    }

    #[test]
    fn whole_numbers_become_integers() {
        assert!(parse("1e6").is_some_and(|n| n.as_u64() == Some(1_000_000)));
        assert!(parse("-1e3").is_some_and(|n| n.as_i64() == Some(-1000)));
        assert!(parse("1e300").is_some_and(|n| n.is_f64()));
        // Beyond u64 the nearest f64 is the documented policy.
        assert!(
            parse("18446744073709551616")
                .is_some_and(|n| n.as_f64() == Some(18_446_744_073_709_551_616.0))
        );
    }
}
