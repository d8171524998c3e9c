//! The three hub packages every other package uses (`@gen/shared`, `@gen/core`,
//! `@gen/ui-kit`): fixed, hand-shaped code, and the registry through which generated files
//! import and call what the hubs export.

mod core;
mod shared;
pub(crate) mod ui;

use std::collections::HashMap;
use std::io;

use super::Ctx;
use super::code::{SpecKind, TsFile};
use super::graph::{Callable, Sampling, SymKind};
use super::plan::{Package, PackageKind};

/// One hub package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hub {
    /// `@gen/shared`: strings, numbers, collections, errors, caching, paging.
    Shared,
    /// `@gen/core`: entities, repositories, services, events, logging, HTTP shapes.
    Core,
    /// `@gen/ui-kit`: function components and hooks.
    Ui,
}

impl Hub {
    /// Index in `Ctx::packages` (the hubs are written first, in this order).
    pub(crate) fn package(self) -> usize {
        match self {
            Hub::Shared => 0,
            Hub::Core => 1,
            Hub::Ui => 2,
        }
    }

    fn slug(self) -> &'static str {
        match self {
            Hub::Shared => "shared",
            Hub::Core => "core",
            Hub::Ui => "ui-kit",
        }
    }

    /// The tsconfig `paths` alias prefix (`@shared` for `@shared/*`).
    pub(crate) fn alias(self) -> &'static str {
        match self {
            Hub::Shared => "@shared",
            Hub::Core => "@core",
            Hub::Ui => "@ui",
        }
    }

    /// The package name.
    pub(crate) fn name(self) -> String {
        format!("@gen/{}", self.slug())
    }
}

/// What the hubs export and which of their functions and methods can be called.
#[derive(Debug, Default)]
pub(crate) struct Hubs {
    /// Exported name → its hub and module (file stem under `src/`).
    exports: HashMap<String, (Hub, String)>,
    /// Symbol path (`truncate`, `LruCache.get`) → callable.
    callables: HashMap<&'static str, Callable>,
}

impl Hubs {
    fn spec(&self, file: &TsFile, name: &str) -> (SpecKind, String) {
        let Some((hub, module)) = self.exports.get(name) else {
            panic!("generator bug: the hubs export no `{name}`");
        };
        if file.prefer_alias {
            (SpecKind::Alias, format!("{}/{module}", hub.alias()))
        } else {
            (SpecKind::Package, hub.name())
        }
    }

    /// Imports the value `name` (a function, class, enum or constant) into `file`.
    pub(crate) fn value(&self, file: &mut TsFile, name: &str) {
        let (kind, spec) = self.spec(file, name);
        file.value(kind, &spec, name);
    }

    /// Imports the type `name` into `file`.
    pub(crate) fn ty(&self, file: &mut TsFile, name: &str) {
        let (kind, spec) = self.spec(file, name);
        file.ty(kind, &spec, name);
    }

    fn callable(&self, symbol: &str) -> &Callable {
        match self.callables.get(symbol) {
            Some(callable) => callable,
            None => panic!("generator bug: no hub callable `{symbol}`"),
        }
    }

    /// Imports the function `name` and returns the text of a call of it, recorded.
    pub(crate) fn call(&self, file: &mut TsFile, name: &str, args: &str) -> String {
        self.value(file, name);
        file.call(self.callable(name), args)
    }

    /// The text of a call of the hub method `symbol` (`EventBus.publish`) on `receiver`,
    /// recorded.
    pub(crate) fn call_on(
        &self,
        file: &mut TsFile,
        receiver: &str,
        symbol: &str,
        args: &str,
    ) -> String {
        file.call_on(receiver, self.callable(symbol), args)
    }
}

impl Hubs {
    /// Records a call of the hub callable `symbol` whose text the caller writes itself
    /// (a call spread over several lines).
    pub(crate) fn record(&self, file: &mut TsFile, symbol: &str) {
        file.record(self.callable(symbol));
    }
}

/// Writes the three hub packages.
pub(crate) fn write(ctx: &mut Ctx<'_>) -> io::Result<()> {
    for hub in [Hub::Shared, Hub::Core, Hub::Ui] {
        let deps = match hub {
            Hub::Shared => vec![],
            Hub::Core => vec![Hub::Shared.package()],
            Hub::Ui => vec![Hub::Shared.package()],
        };
        ctx.packages.push(Package::new(
            PackageKind::Hub,
            "packages",
            hub.slug(),
            // core and ui-kit are consumed through `exports` into dist, shared through its
            // sources: both layouts occur in real monorepos.
            hub != Hub::Shared,
            deps,
        ));
    }
    shared::write(ctx)?;
    core::write(ctx)?;
    ui::write(ctx)?;
    for hub in [Hub::Shared, Hub::Core, Hub::Ui] {
        super::config::write_package(ctx, hub.package())?;
    }
    Ok(())
}

/// Writes one hub file declaration by declaration, registering what it exports and the calls
/// each function makes.
struct HubFile<'c, 's> {
    ctx: &'c mut Ctx<'s>,
    hub: Hub,
    module: &'static str,
    file: TsFile,
}

impl<'c, 's> HubFile<'c, 's> {
    /// The file `src/{module}.{ext}` of `hub`.
    fn new(
        ctx: &'c mut Ctx<'s>,
        hub: Hub,
        module: &'static str,
        ext: &str,
        header: &[&str],
    ) -> Self {
        let path = format!("packages/{}/src/{module}.{ext}", hub.slug());
        let file = ctx.file(path, header);
        HubFile {
            ctx,
            hub,
            module,
            file,
        }
    }

    /// Imports `names` from a sibling module (`./strings`).
    fn import_local(&mut self, module: &str, names: &[&str]) {
        for name in names {
            self.file
                .value(SpecKind::Relative, &format!("./{module}"), name);
        }
    }

    /// Imports `names` from another hub, by package name or alias as the file prefers.
    fn import_hub(&mut self, names: &[&str], types: bool) {
        for name in names {
            if types {
                self.ctx.hubs.ty(&mut self.file, name);
            } else {
                self.ctx.hubs.value(&mut self.file, name);
            }
        }
    }

    /// Text without calls (types, class openings, blank lines); exports are registered.
    fn text(&mut self, text: &str) {
        self.register_exports(text);
        self.file.block(text);
        self.file.line(format_args!(""));
    }

    /// A function or method `symbol` (`truncate`, `LruCache.get`) whose body calls the
    /// hub callables `calls`.
    fn func(&mut self, symbol: &'static str, kind: SymKind, calls: &[&str], text: &str) {
        self.func_with(symbol, kind, Sampling::Exact, calls, text);
    }

    fn func_with(
        &mut self,
        symbol: &'static str,
        kind: SymKind,
        sampling: Sampling,
        calls: &[&str],
        text: &str,
    ) {
        let callable = self
            .ctx
            .graph
            .define(&self.file.path, symbol, kind, sampling);
        self.file.enter(callable.sym);
        for callee in calls {
            let callee = self.ctx.hubs.callable(callee).clone();
            self.file.calls.push((callable.sym, callee.sym));
        }
        self.ctx.hubs.callables.insert(symbol, callable);
        self.text(text);
    }

    fn register_exports(&mut self, text: &str) {
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("export ") else {
                continue;
            };
            let rest = rest.strip_prefix("abstract ").unwrap_or(rest);
            let Some((_, rest)) = rest.split_once(' ') else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                self.ctx
                    .hubs
                    .exports
                    .insert(name, (self.hub, self.module.to_owned()));
            }
        }
    }

    fn finish(self) -> io::Result<()> {
        self.ctx.emit(self.file)
    }
}
