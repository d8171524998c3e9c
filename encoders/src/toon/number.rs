//! Canonical TOON number text: integers exactly, floats as their shortest round-trip digits.
//!
//! Floats are laid out the way JavaScript's `Number.prototype.toString` does, which is what the
//! TOON reference encoder emits: plain decimal for `1e-6 <= |x| < 1e21` (no exponent, no
//! leading or trailing zeros, no `.0` on whole numbers), an exponent such as `1e+21` or `1e-7`
//! outside that range. `-0` becomes `0`, NaN and the infinities become `null`. Digits come from
//! `zmij` (the shortest-round-trip algorithm serde_json uses); its own layout (`1e20`, `1.0`)
//! is not canonical TOON, so it is re-laid out here from a stack buffer.

/// Appends an integer of any width exactly.
#[inline]
pub(crate) fn write_int<I: itoa::Integer>(out: &mut Vec<u8>, v: I) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// Appends a double in canonical form (`null` for NaN and infinities).
#[inline]
pub(crate) fn write_f64(out: &mut Vec<u8>, v: f64) {
    write_float(out, v, v);
}

/// Appends a single-precision float in canonical form, using the shortest digits that
/// round-trip *as an f32* (so `0.1f32` is `0.1`, not `0.10000000149011612`).
pub(crate) fn write_f32(out: &mut Vec<u8>, v: f32) {
    // Widening is exact, so the f64 answers the finite and zero checks for the f32.
    write_float(out, v, f64::from(v));
}

/// Appends `v`, whose value `wide` is, in canonical form.
#[inline]
fn write_float<F: zmij::Float>(out: &mut Vec<u8>, v: F, wide: f64) {
    if !wide.is_finite() {
        out.extend_from_slice(b"null");
    } else if wide == 0.0 {
        // Also catches -0.0, which compares equal to 0.0.
        out.push(b'0');
    } else {
        let mut buf = zmij::Buffer::new();
        layout(out, buf.format_finite(v).as_bytes());
    }
}

/// Most significant digits a shortest representation can have (17 for f64) plus the zeros a
/// fixed-notation input may carry; anything longer is not produced by `zmij`.
const MAX_DIGITS: usize = 48;

/// Re-lays out a finite, non-zero float printed by `zmij` (`-?digits[.digits][e[+-]digits]`).
fn layout(out: &mut Vec<u8>, text: &[u8]) {
    match canonical_fixed(text) {
        Some(canonical) => out.extend_from_slice(canonical),
        None => relayout(out, text),
    }
}

/// The general case of [`layout`]: parses sign, digits, point and exponent, then lays the
/// digits out again.
fn relayout(out: &mut Vec<u8>, text: &[u8]) {
    let (negative, body) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let mut digits = [0u8; MAX_DIGITS];
    let mut len = 0usize;
    let mut point: Option<usize> = None;
    let mut exp: i32 = 0;
    let mut i = 0usize;
    while let Some(&b) = body.get(i) {
        match b {
            b'0'..=b'9' => {
                let Some(slot) = digits.get_mut(len) else {
                    // Not a shape zmij produces; keep its text rather than lose digits.
                    out.extend_from_slice(text);
                    return;
                };
                *slot = b;
                len += 1;
            }
            b'.' => point = Some(len),
            b'e' | b'E' => {
                exp = parse_exponent(body.get(i + 1..).unwrap_or_default());
                break;
            }
            _ => {}
        }
        i += 1;
    }
    let all = digits.get(..len).unwrap_or_default();
    let lead = all.iter().take_while(|&&d| d == b'0').count();
    let trail = all.iter().rev().take_while(|&&d| d == b'0').count();
    if lead == len {
        out.push(b'0');
        return;
    }
    let sig = all.get(lead..len - trail).unwrap_or_default();
    // The value is 0.<sig> x 10^k.
    let k = point.unwrap_or(len) as i32 - lead as i32 + exp;
    if negative {
        out.push(b'-');
    }
    write_decimal(out, sig, k);
}

/// `text` minus a trailing `.0` when it is in plain decimal notation (`zmij` uses that for
/// 1e-5 <= |x| < 1e16, inside TOON's plain range): the common case, copied as is. `None` when it
/// needs the general re-layout.
#[inline]
fn canonical_fixed(text: &[u8]) -> Option<&[u8]> {
    if text.contains(&b'e') {
        return None;
    }
    Some(text.strip_suffix(b".0").unwrap_or(text))
}

fn parse_exponent(text: &[u8]) -> i32 {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let mut value: i32 = 0;
    for &d in digits {
        if d.is_ascii_digit() {
            value = value.saturating_mul(10).saturating_add(i32::from(d - b'0'));
        }
    }
    if negative { -value } else { value }
}

/// Writes `0.<sig> x 10^k` following ECMAScript's Number::toString layout.
fn write_decimal(out: &mut Vec<u8>, sig: &[u8], k: i32) {
    let n = sig.len() as i32;
    if n <= k && k <= 21 {
        out.extend_from_slice(sig);
        push_zeros(out, (k - n) as usize);
    } else if 0 < k && k <= 21 {
        let (int, frac) = sig.split_at(k as usize);
        out.extend_from_slice(int);
        out.push(b'.');
        out.extend_from_slice(frac);
    } else if -6 < k && k <= 0 {
        out.extend_from_slice(b"0.");
        push_zeros(out, (-k) as usize);
        out.extend_from_slice(sig);
    } else {
        let (first, rest) = sig.split_at(1);
        out.extend_from_slice(first);
        if !rest.is_empty() {
            out.push(b'.');
            out.extend_from_slice(rest);
        }
        let e = k - 1;
        out.extend_from_slice(if e < 0 { b"e-" } else { b"e+" });
        out.extend_from_slice(itoa::Buffer::new().format(e.unsigned_abs()).as_bytes());
    }
}

fn push_zeros(out: &mut Vec<u8>, count: usize) {
    out.resize(out.len() + count, b'0');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64s(v: f64) -> String {
        let mut out = Vec::new();
        write_f64(&mut out, v);
        String::from_utf8(out).expect("ascii")
    }

    fn f32s(v: f32) -> String {
        let mut out = Vec::new();
        write_f32(&mut out, v);
        String::from_utf8(out).expect("ascii")
    }

    #[test]
    fn plain_decimal_range_edges() {
        assert_eq!(f64s(1e20), "100000000000000000000");
        assert_eq!(f64s(1e21), "1e+21");
        assert_eq!(f64s(1.5e21), "1.5e+21");
        assert_eq!(f64s(123456789012345680000.0), "123456789012345680000");
        assert_eq!(f64s(1e-6), "0.000001");
        assert_eq!(f64s(1e-7), "1e-7");
        assert_eq!(f64s(-1.25e-7), "-1.25e-7");
        assert_eq!(f64s(1.5e-6), "0.0000015");
        assert_eq!(f64s(5e-324), "5e-324");
        assert_eq!(f64s(f64::MAX), "1.7976931348623157e+308");
    }

    #[test]
    fn whole_and_fractional_numbers() {
        assert_eq!(f64s(1.0), "1");
        assert_eq!(f64s(-7.0), "-7");
        assert_eq!(f64s(1e6), "1000000");
        assert_eq!(f64s(1e16), "10000000000000000");
        assert_eq!(f64s(2.25), "2.25");
        assert_eq!(f64s(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(f64s(1.0 / 3.0), "0.3333333333333333");
        assert_eq!(f64s(14.5), "14.5");
        assert_eq!(f64s(9007199254740991.0), "9007199254740991");
        assert_eq!(f64s(0.001), "0.001");
        assert_eq!(f64s(123.456e5), "12345600");
    }

    #[test]
    fn zero_nan_and_infinities() {
        assert_eq!(f64s(0.0), "0");
        assert_eq!(f64s(-0.0), "0");
        assert_eq!(f64s(f64::NAN), "null");
        assert_eq!(f64s(f64::INFINITY), "null");
        assert_eq!(f64s(f64::NEG_INFINITY), "null");
        assert_eq!(f32s(-0.0), "0");
        assert_eq!(f32s(f32::NAN), "null");
    }

    #[test]
    fn f32_uses_its_own_shortest_digits() {
        assert_eq!(f32s(0.1), "0.1");
        assert_eq!(f32s(16777216.0), "16777216");
        assert_eq!(f32s(1e-7), "1e-7");
    }

    #[test]
    fn every_layout_round_trips() {
        let samples = [
            1e-300,
            2.5e-7,
            9.99e-7,
            1e-6,
            0.5,
            1.0,
            42.0,
            1e15,
            123456.789,
            9.9e20,
            1e21,
            1e300,
            -0.000123,
            6.02214076e23,
        ];
        for v in samples {
            let text = f64s(v);
            let back: f64 = text.parse().expect("parses");
            assert_eq!(back, v, "{v} printed as {text}");
            assert!(!text.ends_with(".0"), "{text}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_double_round_trips_in_canonical_form(bits in proptest::prelude::any::<u64>()) {
            let v = f64::from_bits(bits);
            let text = f64s(v);
            if !v.is_finite() {
                proptest::prop_assert_eq!(text, "null");
                return Ok(());
            }
            let back: f64 = text.parse().expect("parses");
            proptest::prop_assert_eq!(back, v);
            let plain = v == 0.0 || (1e-6..1e21).contains(&v.abs());
            proptest::prop_assert_eq!(!text.contains('e'), plain, "{}", text);
            proptest::prop_assert!(!text.ends_with(".0") && text != "-0", "{}", text);
        }

        #[test]
        fn fast_path_agrees_with_the_general_layout(bits in proptest::prelude::any::<u64>()) {
            let v = f64::from_bits(bits);
            if v.is_finite() && v != 0.0 {
                let mut buf = zmij::Buffer::new();
                let text = buf.format_finite(v).as_bytes();
                let (mut fast, mut general) = (Vec::new(), Vec::new());
                layout(&mut fast, text);
                relayout(&mut general, text);
                proptest::prop_assert_eq!(fast, general);
            }
        }
    }

    #[test]
    fn fast_path_agrees_on_edges() {
        for v in [
            1e-5,
            1.5e-5,
            0.5,
            1.0,
            123.0,
            1e15,
            9007199254740993.0,
            123456789.125,
        ] {
            let mut buf = zmij::Buffer::new();
            let text = buf.format_finite(v).as_bytes();
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            layout(&mut fast, text);
            relayout(&mut general, text);
            assert_eq!(fast, general, "{v}");
        }
    }

    #[test]
    fn integers_are_exact() {
        let mut out = Vec::new();
        write_int(&mut out, u64::MAX);
        out.push(b' ');
        write_int(&mut out, i64::MIN);
        out.push(b' ');
        write_int(&mut out, i128::MIN);
        out.push(b' ');
        write_int(&mut out, u128::MAX);
        assert_eq!(
            String::from_utf8(out).expect("ascii"),
            "18446744073709551615 -9223372036854775808 \
             -170141183460469231731687303715884105728 \
             340282366920938463463374607431768211455"
        );
    }
}
