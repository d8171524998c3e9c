//! Listing part of an answer: results in listing order (traversals: every direct result
//! before any transitive one, then by position), the page from an offset that fits the
//! sink's token budget — found by measuring candidate pages in the sink's own format —,
//! and the files of the results the page leaves out.

use rustc_hash::FxHashMap as HashMap;
use tsgraph_engine::{NodeKey, NodeView};

use super::{Item, Order, Section};
use crate::error::QueryError;
use crate::header::FileCount;

/// How many files of the results left out a listing names (the rest are counted).
pub(super) const UNLISTED_FILES: usize = 10;

/// Which results one emission lists: `rows` results from `offset`, in listing order, and
/// how many files of the rest it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Page {
    pub(super) offset: usize,
    pub(super) rows: usize,
    pub(super) files: usize,
}

/// Where a result goes in listing order: depth (traversals), section, rank (search), file,
/// line, ID.
type ListingKey<'v> = (u32, usize, u32, &'v str, u32, &'v str);

/// One result in listing order: its section, its place among the section's items, and its
/// file (what a listing counts the results it leaves out by).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Row<'v> {
    pub(super) section: usize,
    pub(super) item: usize,
    pub(super) file: &'v str,
}

/// Every result of every section in listing order: by depth first for traversals (so the
/// whole direct tier, over all sections, comes first), then by section, rank (search) and
/// position.
pub(super) fn in_listing_order<'v>(
    sections: &[Section],
    order: Order,
    by_depth: bool,
    view: &impl Fn(NodeKey) -> Result<NodeView<'v>, QueryError>,
) -> Result<Vec<Row<'v>>, QueryError> {
    let mut keyed: Vec<(ListingKey<'v>, Row<'v>)> = Vec::new();
    for (s, section) in sections.iter().enumerate() {
        for (i, item) in section.items.iter().enumerate() {
            let node = view(item.key)?;
            let depth = if by_depth { item.depth } else { 0 };
            let rank = if order == Order::Rank { item.rank } else { 0 };
            let key = (depth, s, rank, node.file(), node.start_line(), node.id());
            keyed.push((
                key,
                Row {
                    section: s,
                    item: i,
                    file: node.file(),
                },
            ));
        }
    }
    // A key ends in its section and ID: distinct, so an unstable sort orders as a stable one.
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(keyed.into_iter().map(|(_, row)| row).collect())
}

/// The sections cut to the page's rows (of `ordered`, every row in listing order). A
/// section keeps the parent links of its results left out, so that a listed result's chain
/// from the root still reads through them; a section left with no result on the page is
/// dropped, unless it has none at all and the page is the first.
pub(super) fn cut(sections: &[Section], ordered: &[Row<'_>], page: Page) -> Vec<Section> {
    let end = page.offset.saturating_add(page.rows).min(ordered.len());
    let start = page.offset.min(end);
    let mut listed: Vec<Vec<Item>> = vec![Vec::new(); sections.len()];
    let mut taken: Vec<Vec<bool>> = sections
        .iter()
        .map(|s| vec![false; s.items.len()])
        .collect();
    for row in &ordered[start..end] {
        listed[row.section].push(sections[row.section].items[row.item]);
        taken[row.section][row.item] = true;
    }
    let whole = start == 0 && end == ordered.len();
    // A section with no result at all (a changed symbol nothing depends on, a method no
    // one calls) is said once, on the first page; one whose results are on other pages is
    // left out of this one.
    sections
        .iter()
        .zip(listed)
        .zip(taken)
        .filter(|((section, items), _)| {
            whole || !items.is_empty() || (start == 0 && section.items.is_empty())
        })
        .map(|((section, items), taken)| Section {
            target: section.target,
            links: section
                .items
                .iter()
                .zip(&taken)
                .filter(|(_, t)| !**t)
                .filter_map(|(i, _)| i.parent.map(|p| (i.key, p)))
                .collect(),
            items,
            hops: Vec::new(),
            unresolved: section.unresolved,
            change: section.change,
        })
        .collect()
}

/// The files of the results after the page, most results first (then by path): the first
/// `page.files` of them, and the number of further files and of their results.
pub(super) fn unlisted_files<'v>(
    ordered: &[Row<'v>],
    page: Page,
) -> (Vec<FileCount<'v>>, usize, usize) {
    let mut by_file: HashMap<&'v str, usize> = HashMap::default();
    let after = page.offset.saturating_add(page.rows);
    for row in ordered.iter().skip(after) {
        *by_file.entry(row.file).or_default() += 1;
    }
    let mut files: Vec<FileCount<'v>> = by_file
        .into_iter()
        .map(|(file, nodes)| FileCount { file, nodes })
        .collect();
    files.sort_by(|a, b| b.nodes.cmp(&a.nodes).then(a.file.cmp(b.file)));
    let named = page.files.min(files.len());
    let more_nodes = files[named..].iter().map(|f| f.nodes).sum();
    let more_files = files.len() - named;
    files.truncate(named);
    (files, more_files, more_nodes)
}

/// The largest page from `offset` whose answer fits `aim` tokens, by `measure` (which
/// measures a page against a limit: its estimated tokens, or `None` once they pass the
/// limit): every remaining result when they all fit, else a search over the row count with
/// the first `files` files of the rest named ([`UNLISTED_FILES`]; none where a page names no
/// files) — fewer files, down to none, when even no rows with them do not fit. At least one
/// result is listed when any remains.
///
/// A short listing is measured whole first, as it mostly fits. A long one is not, unless its
/// first row says it may: measuring the whole answer costs the preparation of every result,
/// however early the meter stops it, and the search finds a whole that fits all the same.
pub(super) fn choose(
    total: usize,
    offset: usize,
    (aim, files): (usize, usize),
    measure: impl FnMut(Page, usize) -> Result<Option<usize>, QueryError>,
) -> Result<Page, QueryError> {
    let remaining = total.saturating_sub(offset);
    let all = Page {
        offset,
        rows: remaining,
        files,
    };
    let mut measure = Remembered::new(measure);
    let mut whole_measured = false;
    if remaining <= MEASURED_WHOLE_FIRST {
        // The whole answer may be many times the budget: its measure stops at the aim.
        if measure.page(all, aim)?.is_some() {
            return Ok(all);
        }
        whole_measured = true;
    }
    let mut files = files;
    let base = loop {
        let tokens = measure.page(
            Page {
                rows: 0,
                files,
                ..all
            },
            aim,
        )?;
        if tokens.is_some() || files == 0 {
            break tokens;
        }
        files /= 2;
    };
    let page = |rows| Page { rows, files, ..all };
    let limit = aim.saturating_mul(OVERSHOOT_MEASURED);
    if !whole_measured && remaining > 0 {
        // The search's own first step: one row, from which the whole is extrapolated.
        let one = measure.page(page(1), limit)?;
        let per_row = one.zip(base).map(|(one, base)| one.saturating_sub(base));
        let whole = per_row
            .zip(base)
            .map(|(per_row, base)| base.saturating_add(per_row.saturating_mul(remaining)));
        if whole.is_some_and(|whole| whole <= aim.saturating_mul(WHOLE_MAY_FIT)) {
            if measure.page(all, aim)?.is_some() {
                return Ok(all);
            }
            whole_measured = true;
        }
    }
    // Unmeasured, the whole is one more count the search may find fitting.
    let counts = if whole_measured {
        remaining
    } else {
        remaining + 1
    };
    let rows = largest_fitting_rows(counts, aim, base, |rows| measure.page(page(rows), limit))?;
    if rows == remaining {
        return Ok(all);
    }
    // A page lists at least one result, even past the budget: a page of none would
    // continue from where it started, for ever.
    Ok(page(rows.max(usize::from(remaining > 0))))
}

/// Listings of at most this many results are measured whole before anything else.
const MEASURED_WHOLE_FIRST: usize = 64;

/// A long listing is measured whole when its first row, times the rows, comes within this
/// many times the aim (one row tells a row's cost only roughly).
const WHOLE_MAY_FIT: usize = 2;

/// A measure that measures each page once: the search asks again for the row it started
/// from.
struct Remembered<M> {
    measure: M,
    known: Vec<(Page, usize, Option<usize>)>,
}

impl<M: FnMut(Page, usize) -> Result<Option<usize>, QueryError>> Remembered<M> {
    fn new(measure: M) -> Self {
        Remembered {
            measure,
            known: Vec::new(),
        }
    }

    fn page(&mut self, page: Page, limit: usize) -> Result<Option<usize>, QueryError> {
        if let Some((_, _, tokens)) = self.known.iter().find(|k| (k.0, k.1) == (page, limit)) {
            return Ok(*tokens);
        }
        let tokens = (self.measure)(page, limit)?;
        self.known.push((page, limit, tokens));
        Ok(tokens)
    }
}

/// A page of rows is measured to the end up to this many times the aim, so that a page
/// that does not fit still says by how much (its measure costs about that much more: the
/// meter is fed in chunks of a few kilobytes, so it stops within one chunk past its limit).
const OVERSHOOT_MEASURED: usize = 2;

/// Measurements (of any kind) after which the search only halves.
const INTERPOLATIONS: usize = 6;

/// The largest row count in `0..remaining` that fits (0 when none does), given that
/// `remaining` does not and that 0 rows cost `base` tokens (`None`: they do not fit either).
/// `measure` gives a row count's tokens, or `None` past [`OVERSHOOT_MEASURED`] times the aim.
///
/// Each measurement costs about as much as the page it measures, so the search measures few:
/// with the tokens of a count that fits and of one that does not, it measures where the line
/// between them reaches the aim (regula falsi with the Illinois rule: an end that two such
/// steps in a row kept counts half as far from the aim, a quarter after three, and so on, so
/// that the search does not creep from one side); with only counts that fit, where their
/// tokens per row do; after a count too large to be measured, halfway. After
/// [`INTERPOLATIONS`] measurements it only halves. The bracket shrinks at every step, so with
/// the measure monotonic in the row count the answer is the one a binary search finds.
fn largest_fitting_rows(
    remaining: usize,
    aim: usize,
    base: Option<usize>,
    mut measure: impl FnMut(usize) -> Result<Option<usize>, QueryError>,
) -> Result<usize, QueryError> {
    // Invariant: `low` rows fit (or are the fallback of none); `high` rows do not.
    let mut low = Bound {
        rows: 0,
        tokens: base,
        weight: 1.0,
    };
    let mut high = Bound {
        rows: remaining,
        tokens: None,
        weight: 1.0,
    };
    // Which end the last step along the line between both ends moved (`true`: the low
    // one); `None` after any other step.
    let mut moved_low: Option<bool> = None;
    // Whether the last page was past what is measured: nothing says how far, so halve.
    let mut past_measured = false;
    // The fitting count measured before `low`, with its tokens: the rows between the two
    // cost what rows still to come cost more nearly than the average since none does (the
    // first rows of an answer, the nearest, are often its longest).
    let mut below: Option<(usize, usize)> = None;
    let mut measured = 0;
    while high.rows - low.rows > 1 {
        let interpolate = !past_measured && measured < INTERPOLATIONS;
        let on_line = interpolate && low.tokens.is_some() && high.tokens.is_some();
        let rows = if interpolate {
            let origin = below.or(base.map(|tokens| (0, tokens)));
            predict(&low, &high, origin, aim)
        } else {
            low.rows + (high.rows - low.rows) / 2
        }
        .clamp(low.rows + 1, high.rows - 1);
        measured += 1;
        let tokens = measure(rows)?;
        let fits = tokens.is_some_and(|tokens| tokens <= aim);
        if fits && let Some(tokens) = low.tokens {
            below = Some((low.rows, tokens));
        }
        let (moved, kept) = if fits {
            (&mut low, &mut high)
        } else {
            (&mut high, &mut low)
        };
        *moved = Bound {
            rows,
            tokens,
            weight: 1.0,
        };
        // Illinois: an end that two steps along the line in a row kept counts half as far
        // from the aim (again at each further one), so the next step lands past the aim.
        if on_line && moved_low == Some(fits) {
            kept.weight /= 2.0;
        }
        moved_low = on_line.then_some(fits);
        past_measured = tokens.is_none();
    }
    Ok(low.rows)
}

/// One end of the search's bracket: a row count, its tokens when measured, and how much its
/// distance from the aim counts in an interpolation.
struct Bound {
    rows: usize,
    tokens: Option<usize>,
    weight: f64,
}

/// The row count where the tokens reach `aim`: on the line between the two ends when both
/// were measured, else extrapolated from the tokens per row since `origin` (the fitting count
/// measured before `low`, else the page of none); one more row when nothing is known of a
/// row's cost.
fn predict(low: &Bound, high: &Bound, origin: Option<(usize, usize)>, aim: usize) -> usize {
    match (low.tokens, high.tokens, origin) {
        (Some(fit), Some(over), _) if over > aim => {
            let below = aim.saturating_sub(fit) as f64 * low.weight;
            let above = (over - aim) as f64 * high.weight;
            let share = below / (below + above);
            low.rows
                .saturating_add((share * (high.rows - low.rows) as f64) as usize)
        }
        (Some(tokens), _, Some((rows, before))) if low.rows > rows && tokens > before => {
            let per_row = (tokens - before) as f64 / (low.rows - rows) as f64;
            let more = (aim.saturating_sub(tokens) as f64 / per_row) as usize;
            low.rows.saturating_add(more)
        }
        _ => low.rows + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The aim of the tests that model a real answer (a budget of 4,000 tokens, less 10 %).
    const AIM: usize = 3_600;

    /// A measure where the header costs `base` tokens and row `i` (from 0) costs `cost(i)`:
    /// the tokens of a page, or `None` past the limit it is measured against.
    fn measure(
        base: usize,
        cost: impl Fn(usize) -> usize,
    ) -> impl Fn(Page, usize) -> Result<Option<usize>, QueryError> {
        move |page: Page, limit: usize| {
            let tokens = base + (0..page.rows).map(&cost).sum::<usize>();
            Ok((tokens <= limit).then_some(tokens))
        }
    }

    #[test]
    fn everything_fitting_is_one_page() {
        let page = choose(30, 0, (100, UNLISTED_FILES), |_, _| Ok(Some(1))).unwrap();
        assert_eq!(page.rows, 30);
    }

    #[test]
    fn the_largest_fitting_row_count_is_found() {
        let mut tries = 0;
        let fits = measure(40, |_| 97);
        let page = choose(10_000, 100, (3_600, UNLISTED_FILES), |p, limit| {
            tries += 1;
            fits(p, limit)
        })
        .unwrap();
        // (3600 - 40) / 97 = 36.7
        assert_eq!(
            (page.offset, page.rows, page.files),
            (100, 36, UNLISTED_FILES)
        );
        // The totals, one row, the prediction, the one after it: one row says that the
        // whole, 10,000 rows, is far past the aim, so it is not measured.
        assert_eq!(tries, 4);
    }

    #[test]
    fn a_page_measured_past_the_aim_settles_the_search_sooner() {
        // The first row is cheap, the others dear (as when the files a cut names shrink as
        // rows are listed): the tokens per row of one row overshoot the prediction.
        let fits = measure(226, |i| if i == 0 { 45 } else { 80 });
        let search = |overshoot: bool| {
            let mut tries = 0;
            let page = choose(419, 0, (AIM, UNLISTED_FILES), |p, limit| {
                tries += 1;
                // Without the overshoot, a page past the aim says only that.
                fits(p, if overshoot { limit } else { limit.min(AIM) })
            })
            .unwrap();
            (page.rows, tries)
        };
        // 226 + 45 + 41 × 80 = 3551 fits; one more row is 3631.
        let (rows, tries) = search(true);
        assert_eq!(rows, 42);
        // The totals, one row, the prediction, the line's point, the one after it.
        assert_eq!(tries, 5);
        let (blind_rows, blind_tries) = search(false);
        assert_eq!(blind_rows, rows);
        assert!(blind_tries > tries, "{blind_tries} measurements without it");
    }

    #[test]
    fn a_long_listing_that_fits_is_listed_whole() {
        // 300 rows of 10 tokens: one row says the whole may fit, and it does.
        let mut tries = 0;
        let fits = measure(100, |_| 10);
        let page = choose(300, 0, (AIM, UNLISTED_FILES), |p, limit| {
            tries += 1;
            fits(p, limit)
        })
        .unwrap();
        let whole = Page {
            offset: 0,
            rows: 300,
            files: UNLISTED_FILES,
        };
        assert_eq!(page, whole);
        // The totals, one row, the whole.
        assert_eq!(tries, 3);
        // A dear first row makes the whole look too large to measure: the search finds
        // that it fits all the same.
        let fits = measure(100, |i| if i == 0 { 3_000 } else { 1 });
        let page = choose(300, 0, (AIM, UNLISTED_FILES), fits).unwrap();
        assert_eq!(page, whole);
        // And the row count it finds is the largest that fits, one short of the whole.
        let fits = measure(100, |i| if i == 0 { 3_000 } else { 1 });
        let page = choose(601, 0, (AIM, UNLISTED_FILES), fits).unwrap();
        // 100 + 3,000 + 500 × 1 is the aim.
        assert_eq!(page.rows, 501);
    }

    #[test]
    fn each_page_is_measured_once() {
        for total in [10, 64, 65, 419, 10_000] {
            let mut seen = Vec::new();
            let fits = measure(226, |i| if i == 0 { 45 } else { 80 });
            choose(total, 0, (AIM, UNLISTED_FILES), |p, limit| {
                assert!(!seen.contains(&(p, limit)), "{p:?} against {limit} again");
                seen.push((p, limit));
                fits(p, limit)
            })
            .unwrap();
        }
    }

    #[test]
    fn dear_first_rows_do_not_make_the_search_creep() {
        // The nearest results cost most (a long signature, a table's header): the tokens per
        // row since the page of none say too much, the rows since the last page say what is
        // to come. 150 + 5 × 200 + 81 × 30 = 3,580 fits; 87 rows are 3,610.
        let fits = measure(150, |i| if i < 5 { 200 } else { 30 });
        let mut tries = 0;
        let page = choose(500, 0, (AIM, UNLISTED_FILES), |p, limit| {
            tries += 1;
            fits(p, limit)
        })
        .unwrap();
        assert_eq!(page.rows, 86);
        // It took 16 from the average since none.
        assert!(tries <= 6, "{tries} measurements");
    }

    #[test]
    fn an_end_kept_twice_counts_half_so_the_search_does_not_creep() {
        // Rows grow dearer (the tokens are convex in the row count): every line between the
        // two ends lands below the aim, and without the Illinois rule the search would take
        // the fitting end up a little at a time (ten measurements here).
        let fits = measure(200, |i| 4 * i + 2);
        let mut tries = 0;
        let found = largest_fitting_rows(60, AIM, Some(200), |rows| {
            tries += 1;
            let page = Page {
                offset: 0,
                rows,
                files: 0,
            };
            fits(page, AIM * OVERSHOOT_MEASURED)
        })
        .unwrap();
        // 200 + 2 × 41² = 3562 fits; 42 rows are 3728.
        assert_eq!(found, 41);
        assert!(tries <= 6, "{tries} measurements");
    }

    #[test]
    fn rows_of_uneven_cost_end_where_a_binary_search_ends() {
        // Whatever the row costs, the search finds the same count as halving alone, within
        // a bounded number of measurements.
        let costs: [&dyn Fn(usize) -> usize; 5] = [
            &|i| 10 + i,
            &|i| 200usize.saturating_sub(i * 3).max(1),
            &|i| if i % 7 == 0 { 400 } else { 5 },
            &|i| if i < 3 { 1 } else { 90 },
            &|_| 5_000,
        ];
        for (which, cost) in costs.iter().enumerate() {
            for aim in [1usize, 50, 999, 4_000, 20_000] {
                let fits = measure(30, cost);
                let page = |rows| Page {
                    offset: 0,
                    rows,
                    files: 0,
                };
                let mut tries = 0;
                let found = largest_fitting_rows(2_000, aim, fits(page(0), aim).unwrap(), |rows| {
                    tries += 1;
                    fits(page(rows), aim * OVERSHOOT_MEASURED)
                })
                .unwrap();
                let expected = (0..2_000)
                    .take_while(|rows| fits(page(*rows), aim).unwrap().is_some())
                    .last()
                    .unwrap_or(0);
                assert_eq!(found, expected, "cost {which}, aim {aim}");
                assert!(
                    tries <= INTERPOLATIONS + 12,
                    "cost {which}, aim {aim}: {tries}"
                );
            }
        }
    }

    #[test]
    fn named_files_give_way_before_rows_when_even_the_totals_do_not_fit() {
        let page = choose(50, 0, (100, UNLISTED_FILES), |p, _| {
            Ok((p.rows == 0 && p.files <= 2).then_some(10))
        })
        .unwrap();
        // One row at least, past the budget.
        assert_eq!((page.rows, page.files), (1, 2));
        let none = choose(50, 0, (100, UNLISTED_FILES), |_, _| Ok(None)).unwrap();
        assert_eq!((none.rows, none.files), (1, 0));
    }

    #[test]
    fn a_cut_keeps_the_links_of_what_it_leaves_out_and_drops_emptied_sections() {
        let item = |k: u32, parent: Option<u32>| Item {
            parent: parent.map(NodeKey),
            ..Item::plain(NodeKey(k))
        };
        let sections = [
            Section {
                items: vec![item(1, None), item(2, Some(1)), item(3, Some(2))],
                ..Section::default()
            },
            Section {
                items: vec![item(4, None)],
                ..Section::default()
            },
        ];
        let ordered: Vec<Row<'_>> = [(0, 0), (1, 0), (0, 1), (0, 2)]
            .into_iter()
            .map(|(section, item)| Row {
                section,
                item,
                file: "a.ts",
            })
            .collect();
        let page = Page {
            offset: 0,
            rows: 1,
            files: 0,
        };
        let first = cut(&sections, &ordered, page);
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].items.len(), 1);
        assert_eq!(
            first[0].links,
            vec![(NodeKey(2), NodeKey(1)), (NodeKey(3), NodeKey(2))]
        );
        let later = cut(
            &sections,
            &ordered,
            Page {
                offset: 1,
                rows: 2,
                ..page
            },
        );
        assert_eq!(later.len(), 2);
        assert_eq!(later[0].items[0].key, NodeKey(2));
        assert_eq!(later[1].items[0].key, NodeKey(4));
        let whole = cut(
            &sections,
            &ordered,
            Page {
                offset: 0,
                rows: 4,
                ..page
            },
        );
        assert_eq!(whole.len(), 2);
    }
}
