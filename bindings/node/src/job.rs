//! Work done on libuv's thread pool for a promise: a query or an update resolves to JSON
//! text, an open to a [`NativeProject`]; a failure rejects with its JSON (see [`Failure`]).

use napi::bindgen_prelude::{ToNapiValue, TypeName};
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

/// Work on the thread pool whose result `T` becomes the JavaScript value `J` on the
/// JavaScript thread.
pub struct Task<T, J> {
    work: Option<Work<T>>,
    to_js: fn(T) -> J,
}

/// Work that resolves to JSON (or answer) text.
pub(crate) type Job = Task<String, String>;

/// Opening a project, which resolves to the project.
pub(crate) type OpenJob = Task<LiveProject, NativeProject>;

impl<T, J> Task<T, J> {
    pub(crate) fn new(
        work: impl FnOnce() -> Result<T, Failure> + Send + 'static,
        to_js: fn(T) -> J,
    ) -> Task<T, J> {
        Task {
            work: Some(Box::new(work)),
            to_js,
        }
    }
}

impl<T: Send + 'static, J: ToNapiValue + TypeName> napi::Task for Task<T, J> {
    type Output = T;
    type JsValue = J;

    fn compute(&mut self) -> napi::Result<T> {
        run(&mut self.work)
    }

    fn resolve(&mut self, _env: Env, output: T) -> napi::Result<J> {
        Ok((self.to_js)(output))
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
