//! The worker pool: files go out over a crossbeam channel to one extractor per thread, and
//! facts come back over another.

use std::thread;

use crossbeam_channel::unbounded;
use xxhash_rust::xxh3::xxh3_64;

use crate::extract::Extractor;
use crate::facts::FileFacts;
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

/// Runs `work` on every file on `threads` workers, each with its own [`Extractor`].
fn run<T: Send>(
    files: &[SourceFile],
    threads: usize,
    work: impl Fn(&mut Extractor, &SourceFile, Vec<u8>) -> T + Sync,
) -> Result<(Vec<T>, Vec<String>), IndexError> {
    let (job_tx, job_rx) = unbounded::<&SourceFile>();
    let (out_tx, out_rx) = unbounded::<Result<T, String>>();
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
                    let result = match std::fs::read(&file.absolute) {
                        Ok(bytes) => Ok(work(&mut extractor, file, bytes)),
                        Err(err) => Err(format!("{}: cannot read: {err}", file.relative)),
                    };
                    let _ = out_tx.send(result);
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
        for result in out_rx {
            match result {
                Ok(value) => done.push(value),
                Err(warning) => warnings.push(warning),
            }
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

pub(crate) fn extract_all(files: &[SourceFile], threads: usize) -> Result<Extracted, IndexError> {
    let (mut facts, warnings) = run(files, threads, |extractor, file, bytes| {
        let mut facts = extract_one(extractor, &file.relative, &bytes, xxh3_64(&bytes));
        facts.modified = modified(&file.absolute);
        facts
    })?;
    facts.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Extracted { facts, warnings })
}

/// Extracts one file's summary from its bytes (`hash` is over the bytes as read).
pub(crate) fn extract_one(
    extractor: &mut Extractor,
    path: &str,
    bytes: &[u8],
    hash: u64,
) -> FileFacts {
    extractor.extract(path, bytes, hash)
}

/// A file's modification time in nanoseconds since the epoch, 0 when the system has none.
pub(crate) fn modified(path: &std::path::Path) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// Parse only: (files, bytes).
pub(crate) fn parse_all(files: &[SourceFile], threads: usize) -> Result<(usize, u64), IndexError> {
    let (sizes, _) = run(files, threads, |extractor, file, bytes| {
        extractor.parse_only(&file.relative, &bytes);
        bytes.len() as u64
    })?;
    Ok((sizes.len(), sizes.iter().sum()))
}
