//! What each piece costs: tables fitted by least squares against tiktoken's o200k_base (see
//! the module comment of [`super`]).

use super::pieces::Class;

/// Tokens of a piece by class, by whether one character joins it from the left (a space or a
/// punctuation mark before a word, a space before punctuation), and by length 0..=16; longer
/// pieces add a quarter token a character. Fitted by least squares on the relative error
/// over answers of every format, pulled towards a smooth prior (ridge) so that rare pieces
/// keep sensible costs; the weights absorb what the pieces around them cost, so some are
/// below one.
#[rustfmt::skip]
const COST: [[[f32; 17]; 2]; 5] = [
    // Lower
    [
        [1.00, 1.26, 0.53, 1.55, 1.05, 1.05, 1.92, 1.92, 1.06, 1.06, 0.30, 0.30, 0.30, 1.85, 1.85, 1.85, 1.85],
        [1.00, 1.54, 1.21, 1.43, 1.59, 1.59, 1.81, 1.81, 0.99, 0.99, 2.67, 2.67, 2.67, 0.30, 0.30, 0.30, 0.30],
    ],
    // Capital
    [
        [1.00, 1.00, 1.97, 1.15, 0.88, 0.88, 0.87, 0.87, 1.41, 1.41, 2.26, 2.26, 2.26, 2.80, 2.80, 2.80, 2.80],
        [1.00, 1.00, 2.27, 1.66, 1.80, 1.80, 1.11, 1.11, 3.36, 3.36, 2.73, 2.73, 2.73, 0.72, 0.72, 0.72, 0.72],
    ],
    // Upper
    [
        [1.00, 0.71, 2.39, 0.50, 2.73, 2.73, 1.67, 1.67, 1.89, 1.89, 2.22, 2.22, 2.22, 2.49, 2.49, 2.49, 2.49],
        [1.00, 0.46, 2.35, 0.92, 1.22, 1.22, 1.70, 1.70, 1.62, 1.62, 2.31, 2.31, 2.31, 2.38, 2.38, 2.38, 2.38],
    ],
    // Known
    [
        [1.00, 1.00, 2.54, 1.08, 1.38, 1.38, 1.77, 1.77, 1.96, 1.96, 4.04, 4.04, 4.04, 4.04, 4.04, 4.04, 4.04],
        [1.00, 1.00, 0.79, 1.36, 1.99, 1.99, 1.09, 1.09, 1.00, 1.00, 1.79, 1.79, 1.79, 1.79, 1.79, 1.79, 1.79],
    ],
    // Punct
    [
        [1.00, 0.57, 0.70, 0.78, 0.75, 0.75, 2.02, 2.02, 2.15, 2.15, 2.15, 2.15, 2.15, 2.50, 2.50, 2.50, 2.50],
        [1.00, 0.30, 0.30, 0.89, 2.66, 2.66, 1.60, 1.60, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90, 1.90],
    ],
];

/// Tokens of a run of one, two or three digits (fitted with [`COST`]).
const DIGITS: [f64; 3] = [1.39, 1.43, 1.05];

/// Tokens of a run of whitespace (fitted with [`COST`]).
const SPACE: f64 = 0.75;

/// Tokens of a Mermaid escape (`_2f`; fitted with [`COST`]).
const ESCAPE: f64 = 1.34;

/// Tokens of the letters glued to an escape, by length (fitted with [`COST`]).
const GLUED: [f64; 9] = [1.00, 1.27, 0.30, 2.24, 2.78, 2.26, 2.62, 2.65, 3.19];

/// The cost of one piece.
pub(super) fn cost(class: Class, joined: bool, len: usize) -> f64 {
    match class {
        Class::Digits => return DIGITS[len.clamp(1, 3) - 1],
        Class::Space => return SPACE,
        Class::Escape => return ESCAPE,
        Class::Glued => return GLUED[len.min(GLUED.len() - 1)],
        _ => {}
    }
    let row = &COST[class as usize][usize::from(joined)];
    let capped = len.min(row.len() - 1);
    f64::from(row[capped]) + (len - capped) as f64 * 0.25
}
