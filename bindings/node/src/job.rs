//! Work done on libuv's thread pool for a promise: a query or an update resolves to JSON
//! text, an open to a [`NativeProject`]; a failure rejects with its JSON (see [`Failure`]).

use napi::bindgen_prelude::Task;
use napi::{Env, Status};
use serde_json::{Value, json};
use tsgraph::LiveProject;
use tsgraph::args::ArgError;

use crate::NativeProject;

/// Why a call failed, on its way to JavaScript: `{code, message, exitCode, …details}` as
/// the CLI's `--format json` and exit codes have it.
#[derive(Debug)]
pub(crate) struct Failure(Value);

impl Failure {
    /// An argument that cannot be used; `message` names it.
    pub(crate) fn argument(message: impl Into<String>) -> Failure {
        Failure::from(ArgError(message.into()))
    }

    /// A failure of the addon itself.
    pub(crate) fn internal(message: &str) -> Failure {
        Failure(json!({"code": "error", "message": message, "exitCode": tsgraph::EXIT_ERROR}))
    }

    /// The failure as a napi error, its message the failure's JSON text.
    pub(crate) fn into_napi(self) -> napi::Error {
        napi::Error::new(Status::GenericFailure, self.0.to_string())
    }
}

impl From<tsgraph::Error> for Failure {
    fn from(error: tsgraph::Error) -> Failure {
        with_exit_code(error.to_json(), error.exit_code())
    }
}

impl From<ArgError> for Failure {
    fn from(error: ArgError) -> Failure {
        with_exit_code(error.to_json(), tsgraph::EXIT_USAGE)
    }
}

fn with_exit_code(mut error: Value, code: u8) -> Failure {
    let mut body = error["error"].take();
    body["exitCode"] = json!(code);
    Failure(body)
}

type Work<T> = Box<dyn FnOnce() -> Result<T, Failure> + Send>;

/// Work that resolves to JSON (or answer) text.
pub struct Job(Option<Work<String>>);

impl Job {
    pub(crate) fn new(work: impl FnOnce() -> Result<String, Failure> + Send + 'static) -> Job {
        Job(Some(Box::new(work)))
    }
}

impl Task for Job {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        run(&mut self.0)
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
        Ok(output)
    }
}

/// Opening a project, which resolves to the project.
pub struct OpenJob(Option<Work<LiveProject>>);

impl OpenJob {
    pub(crate) fn new(
        work: impl FnOnce() -> Result<LiveProject, Failure> + Send + 'static,
    ) -> OpenJob {
        OpenJob(Some(Box::new(work)))
    }
}

impl Task for OpenJob {
    type Output = LiveProject;
    type JsValue = NativeProject;

    fn compute(&mut self) -> napi::Result<LiveProject> {
        run(&mut self.0)
    }

    fn resolve(&mut self, _env: Env, live: LiveProject) -> napi::Result<NativeProject> {
        Ok(NativeProject::new(live))
    }
}

/// Runs the work once (a task is computed once). A panic becomes a failure: napi calls the
/// work from a C callback, which a panic must not unwind through (it would abort the
/// process, an editor's extension host with it).
fn run<T>(work: &mut Option<Work<T>>) -> napi::Result<T> {
    let work = work
        .take()
        .ok_or_else(|| Failure::internal("a task ran twice").into_napi())?;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(done) => done.map_err(Failure::into_napi),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Failure::internal(&format!("tsgraph failed inside: {what}")).into_napi())
        }
    }
}
