//! Mapping a list on two threads, chunk by chunk. The cost of an item varies with its file's
//! size, so two fixed halves leave one thread idle while the other finishes: instead each
//! thread takes the next chunk when it is done with one, and the results come back in the
//! list's order. Two threads whatever `IndexOptions::threads` says: these run between the
//! parallel phases, where nothing else is running.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `f` over every item of `items`, in order, on this thread and (where there is more than
/// one core) one more, `chunk` items at a time; `state` makes each thread's own scratch.
/// A panic on the other thread comes back as the `Err` of `std::thread::Result`.
pub(crate) fn map_on_two_threads<T, R, S>(
    items: &[T],
    chunk: usize,
    state: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> std::thread::Result<Vec<R>>
where
    T: Sync,
    R: Send,
{
    let chunk = chunk.max(1);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut scratch = state();
        let mut done: Vec<(usize, Vec<R>)> = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let start = index.saturating_mul(chunk);
            let Some(part) = items.get(start..items.len().min(start.saturating_add(chunk))) else {
                return done;
            };
            if part.is_empty() {
                return done;
            }
            done.push((
                index,
                part.iter().map(|item| f(&mut scratch, item)).collect(),
            ));
        }
    };
    let parallel = std::thread::available_parallelism().map_or(1, |n| n.get()) > 1;
    let mut chunks = std::thread::scope(|scope| {
        let other = parallel.then(|| scope.spawn(work));
        let mut chunks = work();
        if let Some(other) = other {
            chunks.extend(other.join()?);
        }
        Ok(chunks)
    })?;
    chunks.sort_unstable_by_key(|(index, _)| *index);
    Ok(chunks.into_iter().flat_map(|(_, part)| part).collect())
}

#[cfg(test)]
mod tests {
    use super::map_on_two_threads;

    #[test]
    fn results_come_back_in_order_whatever_the_chunk() {
        let items: Vec<u32> = (0..1000).collect();
        for chunk in [0, 1, 7, 32, 999, 1000, 5000] {
            let mapped = map_on_two_threads(
                &items,
                chunk,
                || 0u32,
                |calls, item| {
                    *calls += 1;
                    item * 2
                },
            )
            .expect("no panic");
            assert_eq!(
                mapped,
                items.iter().map(|i| i * 2).collect::<Vec<_>>(),
                "{chunk}"
            );
        }
        let none: Vec<u32> = Vec::new();
        assert!(
            map_on_two_threads(&none, 8, || (), |_, i| *i)
                .expect("no panic")
                .is_empty()
        );
    }

    #[test]
    fn a_panic_on_either_thread_is_an_error() {
        let items: Vec<u32> = (0..64).collect();
        let result = std::panic::catch_unwind(|| {
            map_on_two_threads(
                &items,
                1,
                || (),
                |_, item| {
                    assert!(*item != 40, "item 40");
                    *item
                },
            )
        });
        // On the other thread: an `Err`; on this one: the panic itself.
        assert!(matches!(result, Ok(Err(_)) | Err(_)));
    }
}
