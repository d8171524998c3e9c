//! A declaration's lists — type parameters, parameter texts, parameters, returned
//! expressions and members — in one allocation.
//!
//! A whole project's declarations stay in memory while it is linked (half a million at a
//! million lines), most of them locals with no list at all. Five vectors cost 40 bytes on
//! each declaration and a header and an allocation on each list used; these cost 8 bytes and
//! one allocation for a declaration with lists, none without.

use serde::{Deserialize, Serialize};
use thin_vec::ThinVec;

/// Which of a declaration's lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
///
/// In the order extraction fills them (type parameters, then the parameters' texts, the
/// parameters, the body's returns, the members), so that its pushes are appends: a push
/// moves every item of the lists after it.
pub(crate) enum List {
    /// Type parameters (declarations of kind TypeParam), in order.
    TypeParams = 0,
    /// Parameters as `name: Type` text, for display (in `FileFacts::texts`).
    ParamsText = 1,
    /// Parameters (declarations of kind Parameter), in order.
    Params = 2,
    /// Returned expressions of a callable with a body.
    Returns = 3,
    /// Members by declaration. Last, so it needs no length of its own: the list that grows
    /// longest (an object literal's properties) is the one that never shifts another.
    Members = 4,
}

/// How many lists have their length stored at the front (all but the last).
const COUNTED: usize = List::Members as usize;

/// The lists of one declaration: empty, or the lengths of the first [`COUNTED`] lists
/// followed by every list's items in [`List`] order (the last list takes the rest).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DeclLists(ThinVec<u32>);

impl DeclLists {
    /// The items of `list`.
    pub(crate) fn get(&self, list: List) -> &[u32] {
        let (start, end) = self.bounds(list);
        self.0.get(start..end).unwrap_or_default()
    }

    /// Appends `item` to `list`, moving the items of the lists after it (see [`List`]).
    pub(crate) fn push(&mut self, list: List, item: u32) {
        if self.0.is_empty() {
            self.0.extend(std::iter::repeat_n(0, COUNTED));
        }
        let (_, end) = self.bounds(list);
        self.0.insert(end, item);
        if (list as usize) < COUNTED
            && let Some(length) = self.0.get_mut(list as usize)
        {
            *length = length.saturating_add(1);
        }
    }

    /// Gives back the room the items grew into.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }

    /// Where `list`'s items are (an empty range when there are none).
    fn bounds(&self, list: List) -> (usize, usize) {
        if self.0.is_empty() {
            return (0, 0);
        }
        let index = list as usize;
        // A damaged summary's lengths may point past the items: the sums saturate and the
        // range is clamped, so such lists come out short, never out of bounds.
        let length = |i: usize| self.0.get(i).map_or(0, |&n| n as usize);
        let start = (0..index).map(length).fold(COUNTED, usize::saturating_add);
        let end = if index == COUNTED {
            self.0.len()
        } else {
            start.saturating_add(length(index))
        };
        (start.min(self.0.len()), end.min(self.0.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::{DeclLists, List};

    const ALL: [List; 5] = [
        List::TypeParams,
        List::ParamsText,
        List::Params,
        List::Returns,
        List::Members,
    ];

    #[test]
    fn lists_pushed_in_any_order_keep_their_own_items_in_order() {
        let mut lists = DeclLists::default();
        assert!(ALL.iter().all(|list| lists.get(*list).is_empty()));
        lists.push(List::Members, 40);
        lists.push(List::Params, 10);
        lists.push(List::Members, 41);
        lists.push(List::ParamsText, 30);
        lists.push(List::Params, 11);
        lists.push(List::TypeParams, 20);
        lists.push(List::Returns, 25);
        assert_eq!(lists.get(List::Params), [10, 11]);
        assert_eq!(lists.get(List::TypeParams), [20]);
        assert_eq!(lists.get(List::Returns), [25]);
        assert_eq!(lists.get(List::ParamsText), [30]);
        assert_eq!(lists.get(List::Members), [40, 41]);
    }

    #[test]
    fn a_declaration_without_lists_allocates_nothing_and_one_with_them_only_what_it_holds() {
        let mut lists = DeclLists::default();
        assert_eq!(lists.0.capacity(), 0);
        lists.push(List::Members, 1);
        lists.shrink_to_fit();
        assert_eq!((lists.0.len(), lists.0.capacity()), (5, 5));
        assert_eq!(std::mem::size_of::<DeclLists>(), 8);
    }

    #[test]
    fn damaged_lengths_give_short_lists_not_a_panic() {
        let huge = DeclLists(thin_vec::thin_vec![u32::MAX, u32::MAX, 3, 1, 7, 8]);
        assert_eq!(huge.get(List::TypeParams), [7, 8]);
        assert!(ALL[1..].iter().all(|list| huge.get(*list).is_empty()));
        let cut = DeclLists(thin_vec::thin_vec![1, 0]);
        assert!(ALL.iter().all(|list| cut.get(*list).is_empty()));
        let past = DeclLists(thin_vec::thin_vec![0, 0, 5, 0, 9]);
        assert_eq!(past.get(List::Params), [9]);
        assert!(past.get(List::Members).is_empty());
    }

    #[test]
    fn lists_survive_serialisation() {
        let mut lists = DeclLists::default();
        lists.push(List::Params, 7);
        lists.push(List::Members, 9);
        let bytes = postcard::to_stdvec(&lists).expect("encode");
        let back: DeclLists = postcard::from_bytes(&bytes).expect("decode");
        assert_eq!(back.get(List::Params), [7]);
        assert_eq!(back.get(List::Members), [9]);
    }
}
