//! The worker pool: files go out over a crossbeam channel to one extractor per thread, and
//! facts come back over another. Each worker reads its file and decodes it (`decode.rs`)
//! before extraction.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::thread;

use crossbeam_channel::unbounded;
use xxhash_rust::xxh3::xxh3_64;

use crate::decode::decode;
use crate::extract::Extractor;
use crate::facts::FileFacts;
use crate::options::{IndexProgress, ProgressHook};
use crate::summary::IndexError;
use crate::walk::SourceFile;

/// The facts of every readable file, sorted by path, and warnings for the others.
pub(crate) struct Extracted {
    pub(crate) facts: Vec<FileFacts>,
    pub(crate) warnings: Vec<String>,
}

/// Stack of each worker thread.
const WORKER_STACK: usize = 64 * 1024 * 1024;

fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        return requested;
    }
    thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// One file's result, or why it has none, and a warning about its text.
type Outcome<T> = (Result<T, String>, Option<String>);

/// Runs `work` on every file on `threads` workers, each with its own [`Extractor`]. `work`
/// gets the file's raw bytes (for its hash) and its decoded text.
fn run<T: Send>(
    files: &[SourceFile],
    threads: usize,
    progress: Option<&ProgressHook>,
    work: impl Fn(&mut Extractor, &SourceFile, &[u8], &[u8]) -> T + Sync,
) -> Result<(Vec<T>, Vec<String>), IndexError> {
    let (job_tx, job_rx) = unbounded::<&SourceFile>();
    let (out_tx, out_rx) = unbounded::<Outcome<T>>();
    for file in files {
        // The receiver lives until the scope ends, so sending cannot fail.
        let _ = job_tx.send(file);
    }
    drop(job_tx);
    let work = &work;
    thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..thread_count(threads) {
            let job_rx = job_rx.clone();
            let out_tx = out_tx.clone();
            // Extraction recurses (to a bounded depth); a deep expression needs more than the
            // default 2 MiB of stack in a debug build.
            let worker = thread::Builder::new().stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, move || -> Result<(), IndexError> {
                let mut extractor =
                    Extractor::new().map_err(|err| IndexError::Grammar(err.to_string()))?;
                for file in job_rx {
                    let outcome = match std::fs::read(&file.absolute) {
                        Ok(bytes) => {
                            let decoded = decode(&file.relative, &bytes);
                            let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
                                work(&mut extractor, file, &bytes, &decoded.text)
                            }));
                            match attempt {
                                Ok(value) => (Ok(value), decoded.warning),
                                Err(payload) => {
                                    // A bug, not bad input: the other files are still indexed,
                                    // with a parser that starts afresh.
                                    extractor = Extractor::new()
                                        .map_err(|err| IndexError::Grammar(err.to_string()))?;
                                    let failure = format!(
                                        "{}: skipped, the indexer failed on this file ({}); \
                                         please report it",
                                        file.relative,
                                        panic_message(payload.as_ref())
                                    );
                                    (Err(failure), decoded.warning)
                                }
                            }
                        }
                        Err(err) => (Err(format!("{}: cannot read: {err}", file.relative)), None),
                    };
                    let _ = out_tx.send(outcome);
                }
                Ok(())
            });
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(err) => return Err(IndexError::Worker(err.to_string())),
            }
        }
        drop(out_tx);
        let mut done = Vec::with_capacity(files.len());
        let mut warnings = Vec::new();
        for (finished, (result, text_warning)) in out_rx.into_iter().enumerate() {
            ProgressHook::tell(
                progress,
                IndexProgress::Parsing {
                    done: finished as u64 + 1,
                    total: files.len() as u64,
                },
            );
            match result {
                Ok(value) => done.push(value),
                Err(warning) => warnings.push(warning),
            }
            warnings.extend(text_warning);
        }
        for handle in handles {
            match handle.join() {
                Ok(result) => result?,
                Err(_) => return Err(IndexError::Worker("it panicked".to_owned())),
            }
        }
        warnings.sort();
        Ok((done, warnings))
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}

pub(crate) fn extract_all(
    files: &[SourceFile],
    threads: usize,
    progress: Option<&ProgressHook>,
) -> Result<Extracted, IndexError> {
    let (mut facts, warnings) = run(files, threads, progress, |extractor, file, raw, text| {
        let mut facts = extractor.extract(&file.relative, text, xxh3_64(raw));
        facts.modified = file.modified;
        facts
    })?;
    facts.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Extracted { facts, warnings })
}

/// Extracts one file's summary from its bytes as read (decoded first, as the pool does;
/// `hash` is over the bytes as read). A decoding warning is dropped here: the walk-driven
/// index reports it.
pub(crate) fn extract_one(
    extractor: &mut Extractor,
    path: &str,
    bytes: &[u8],
    hash: u64,
) -> FileFacts {
    let decoded = decode(path, bytes);
    extractor.extract(path, &decoded.text, hash)
}

/// Parse only: (files, bytes).
pub(crate) fn parse_all(files: &[SourceFile], threads: usize) -> Result<(usize, u64), IndexError> {
    let (sizes, _) = run(files, threads, None, |extractor, file, raw, text| {
        extractor.parse_only(&file.relative, text);
        raw.len() as u64
    })?;
    Ok((sizes.len(), sizes.iter().sum()))
}

#[cfg(test)]
mod tests {
    use super::run;
    use crate::walk::SourceFile;

    #[test]
    fn a_file_the_extractor_fails_on_is_skipped_with_a_warning_and_the_rest_indexed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let files: Vec<SourceFile> = ["a.ts", "b.ts", "c.ts"]
            .iter()
            .map(|name| {
                let absolute = dir.path().join(name);
                std::fs::write(&absolute, name.as_bytes()).expect("write");
                SourceFile {
                    size: 0,
                    modified: 0,
                    absolute,
                    relative: (*name).to_owned(),
                }
            })
            .collect();
        let (mut done, warnings) = run(&files, 1, None, |extractor, file, _, text| {
            assert!(file.relative != "b.ts", "extractor bug");
            extractor.parse_only(&file.relative, text);
            file.relative.clone()
        })
        .expect("the run completes");
        done.sort();
        assert_eq!(done, ["a.ts", "c.ts"]);
        assert_eq!(
            warnings,
            ["b.ts: skipped, the indexer failed on this file (extractor bug); please report it"]
        );
    }
}
