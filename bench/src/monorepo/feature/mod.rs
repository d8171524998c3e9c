//! The files of one entity's feature folder in a library (`src/retail-order/`): the model,
//! with the rules, the repository, the service, the HTTP handlers and the folder's barrel.

mod handlers;
mod model;
mod repository;
mod rules;
mod service;

use std::io;

use super::Ctx;
use super::code::{TsFile, ln};
use super::graph::{Callable, Sampling, SymKind};
use super::plan::{ApiItem, Entity};

/// Writes every file of entity `index`'s feature; its library's folder exists.
pub(crate) fn write(ctx: &mut Ctx<'_>, index: usize) -> io::Result<()> {
    model::write(ctx, index)?;
    repository::write(ctx, index)?;
    service::write(ctx, index)?;
    handlers::write(ctx, index)?;
    barrel(ctx, index)
}

/// `{package}/src/{feature}/{kebab}.{module}.ts`.
pub(crate) fn module_path(ctx: &Ctx<'_>, entity: &Entity, module: &str) -> String {
    format!(
        "{}/src/{}/{}.{module}.ts",
        ctx.packages[entity.package].dir,
        entity.feature(),
        entity.names.kebab
    )
}

impl Ctx<'_> {
    /// Registers the function or method `symbol` of `file` and makes it the caller of the
    /// calls written next.
    pub(crate) fn begin(
        &mut self,
        file: &mut TsFile,
        symbol: &str,
        kind: SymKind,
        sampling: Sampling,
    ) -> Callable {
        let callable = self.graph.define(&file.path, symbol, kind, sampling);
        file.enter(callable.sym);
        callable
    }

    /// Like [`Ctx::begin`] for a symbol every call of which is recorded, and records the
    /// callable as `role` of entity `index`, found in its feature module `module`.
    pub(crate) fn begin_api(
        &mut self,
        file: &mut TsFile,
        index: usize,
        role: &'static str,
        module: &'static str,
        symbol: &str,
        kind: SymKind,
    ) -> Callable {
        let callable = self.begin(file, symbol, kind, Sampling::Exact);
        self.entities[index].api.insert(
            role,
            ApiItem {
                callable: callable.clone(),
                module,
            },
        );
        callable
    }

    /// Imports entity `index`'s function `role` into `file` and returns a recorded call.
    pub(crate) fn call_api(
        &self,
        file: &mut TsFile,
        index: usize,
        role: &str,
        args: &str,
    ) -> String {
        let item = self.entities[index].api(role).clone();
        self.import_entity(file, index, item.module, &item.callable.name, false);
        file.call(&item.callable, args)
    }

    /// A recorded call of entity `index`'s service method `role` on `receiver`.
    pub(crate) fn call_method(
        &self,
        file: &mut TsFile,
        receiver: &str,
        index: usize,
        role: &str,
        args: &str,
    ) -> String {
        let item = self.entities[index].api(role);
        file.call_on(receiver, &item.callable, args)
    }
}

/// Writes a function or method head as a formatter would: on one line when it fits in 100
/// columns, else one parameter per line. `head` is everything before the parameters
/// (`export async function handleGet`), `tail` what follows them (`: Promise<X> {`).
pub(crate) fn signature(file: &mut TsFile, head: &str, params: &[String], tail: &str) {
    let one_line = format!("{head}({}){tail}", params.join(", "));
    if one_line.len() + 2 * file.depth() <= 100 || params.is_empty() {
        file.open(format_args!("{one_line}"));
        return;
    }
    file.open(format_args!("{head}("));
    for param in params {
        ln!(file, "{param},");
    }
    file.close(&format!("){tail}"));
    file.indent();
}

/// `src/{feature}/index.ts`: the models, repositories and rules by `export *`, the service
/// and the handlers by name or by `export *`.
fn barrel(ctx: &mut Ctx<'_>, index: usize) -> io::Result<()> {
    let e = ctx.entities[index].clone();
    let dir = &ctx.packages[e.package].dir;
    let path = format!("{dir}/src/{}/index.ts", e.feature());
    let header = format!("The {} feature: its public surface.", e.names.kebab);
    let mut f = ctx.file(path, &[&header]);
    let k = &e.names.kebab;
    ln!(f, "export * from \"./{k}.model\";");
    ln!(f, "export * from \"./{k}.repository\";");
    ln!(
        f,
        "export {{ {}Service }} from \"./{k}.service\";",
        e.names.pascal
    );
    if ctx.rng.percent(50) {
        ln!(f, "export * from \"./{k}.handlers\";");
    } else {
        let mut names: Vec<&str> = e
            .api
            .iter()
            .filter(|(_, item)| item.module == "handlers")
            .map(|(_, item)| item.callable.name.as_str())
            .collect();
        names.sort_unstable();
        f.open(format_args!("export {{"));
        for name in names {
            ln!(f, "{name},");
        }
        f.close(&format!("}} from \"./{k}.handlers\";"));
    }
    ctx.emit(f)
}
