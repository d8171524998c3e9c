//! One domain library: its place in the package DAG, its entities, their feature folders,
//! the internal audit module, the `module.ts` factory wiring its services, the root barrel,
//! and its package.json and tsconfig.json.

use std::io;

use super::code::{close_block, ln, open};
use super::graph::Sampling::Exact;
use super::graph::SymKind::Function;
use super::hubs::Hub;
use super::names::DOMAINS;
use super::plan::{Entity, Package, PackageKind};
use super::{Ctx, config, feature, relative};

/// How many of the first libraries act as domain hubs that later libraries favour.
const DOMAIN_HUBS: usize = 4;

/// Writes the next library.
pub(crate) fn write(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let number = ctx.packages.len() - 3;
    let slug = format!("{}-{number}", DOMAINS[number % DOMAINS.len()]);
    let deps = choose_deps(ctx, number);
    let dist_exports = ctx.rng.percent(50);
    let package = ctx.packages.len();
    ctx.packages.push(Package::new(
        PackageKind::Library,
        "packages",
        &slug,
        dist_exports,
        deps,
    ));

    let count = ctx.rng.between(3, 7);
    for _ in 0..count {
        let upstream = choose_upstream(ctx, package);
        let index = ctx.entities.len();
        let entity = Entity::random(&mut ctx.rng, index, package, upstream);
        ctx.entities.push(entity);
        ctx.packages[package].entities.push(index);
    }
    audit(ctx, package)?;
    for index in ctx.packages[package].entities.clone() {
        feature::write(ctx, index)?;
    }
    module(ctx, package)?;
    barrel(ctx, package)?;
    config::write_package(ctx, package)
}

/// `shared` and `core`, plus up to four earlier libraries, favouring the first few so that
/// they become hubs with a large fan-in.
fn choose_deps(ctx: &mut Ctx<'_>, number: usize) -> Vec<usize> {
    let mut deps = vec![Hub::Shared.package(), Hub::Core.package()];
    if number > 0 {
        for _ in 0..ctx.rng.between(1, number.min(4)) {
            let pick = if ctx.rng.percent(40) {
                ctx.rng.index(number.min(DOMAIN_HUBS))
            } else {
                ctx.rng.index(number)
            };
            let dep = 3 + pick;
            if !deps.contains(&dep) {
                deps.push(dep);
            }
        }
    }
    deps
}

/// An earlier entity of the same library (half of the time, when there is one), else an
/// entity of a library dependency, else none.
fn choose_upstream(ctx: &mut Ctx<'_>, package: usize) -> Option<usize> {
    let own = ctx.packages[package].entities.clone();
    if !own.is_empty() && ctx.rng.percent(50) {
        return Some(*ctx.rng.pick(&own));
    }
    let libraries: Vec<usize> = ctx.packages[package]
        .deps
        .iter()
        .copied()
        .filter(|&d| ctx.packages[d].kind == PackageKind::Library)
        .collect();
    if libraries.is_empty() || ctx.rng.percent(25) {
        return None;
    }
    let library = *ctx.rng.pick(&libraries);
    let entities = ctx.packages[library].entities.clone();
    Some(*ctx.rng.pick(&entities))
}

/// `src/internal/audit.ts`: helpers the services use that the package does not export.
fn audit(ctx: &mut Ctx<'_>, package: usize) -> io::Result<()> {
    let (dir, name) = (
        ctx.packages[package].dir.clone(),
        ctx.packages[package].name.clone(),
    );
    let mut f = ctx.file(
        format!("{dir}/src/internal/audit.ts"),
        &[
            &format!("Audit lines for the services of {name}."),
            "Internal: the package's barrel does not export this module.",
        ],
    );
    let line = ctx.begin(&mut f, "auditLine", Function, Exact);
    f.doc(&["One audit line: scope, operation, subject and time."]);
    open!(
        f,
        "export function auditLine(scope: string, operation: string, subject: string): string {{"
    );
    let at = ctx.hubs.call(&mut f, "now", "");
    let when = ctx.hubs.call(&mut f, "formatTimestamp", &at);
    ln!(
        f,
        "return `[${{scope}}] ${{operation}} ${{subject}} at ${{{when}}}`;"
    );
    close_block(&mut f);
    let trail = ctx.begin(&mut f, "auditTrail", Function, Exact);
    f.doc(&["Numbered audit lines replaying `subjects` in order."]);
    open!(
        f,
        "export function auditTrail(scope: string, subjects: readonly string[]): string[] {{"
    );
    let call = f.call(&line, "scope, \"replay\", subject");
    ln!(
        f,
        "return subjects.map((subject, index) => `${{index + 1}}. ${{{call}}}`);"
    );
    close_block(&mut f);
    ctx.packages[package].audit = Some(trail);
    ctx.emit(f)
}

/// `src/module.ts`: the interface listing the package's services and the factory that
/// builds them in dependency order.
fn module(ctx: &mut Ctx<'_>, package: usize) -> io::Result<()> {
    let pkg = ctx.packages[package].clone();
    let mut f = ctx.file(
        format!("{}/src/module.ts", pkg.dir),
        &[
            &format!(
                "Wiring of {}: every service over in-memory storage.",
                pkg.name
            ),
            "Hosts with real storage build the services themselves from the same parts.",
        ],
    );
    let services = format!("{}Services", pkg.pascal);
    f.doc(&[&format!("The services of {}, by entity.", pkg.name)]);
    open!(f, "export interface {services} {{");
    for &index in &pkg.entities {
        let n = ctx.entities[index].names.clone();
        ctx.import_entity(
            &mut f,
            index,
            "service",
            &format!("{}Service", n.pascal),
            true,
        );
        ln!(f, "{}: {}Service;", n.camel, n.pascal);
    }
    close_block(&mut f);

    let factory = format!("create{services}");
    let callable = ctx.begin(&mut f, &factory, Function, Exact);
    ctx.hubs.ty(&mut f, "Logger");
    ctx.hubs.value(&mut f, "EventBus");
    f.doc(&[&format!(
        "Builds every service of {}; `logger` is shared by all.",
        pkg.name
    )]);
    open!(
        f,
        "export function {factory}(logger: Logger): {services} {{"
    );
    for &index in &pkg.entities {
        let e = ctx.entities[index].clone();
        let (p, c) = (&e.names.pascal, &e.names.camel);
        ctx.import_entity(&mut f, index, "service", &format!("{p}Service"), false);
        ctx.import_entity(
            &mut f,
            index,
            "repository",
            &format!("InMemory{p}Repository"),
            false,
        );
        ctx.import_entity(&mut f, index, "model", &format!("{p}Event"), true);
        let repo = if e.cached {
            ctx.import_entity(
                &mut f,
                index,
                "repository",
                &format!("Cached{p}Repository"),
                false,
            );
            format!("new Cached{p}Repository(new InMemory{p}Repository())")
        } else {
            format!("new InMemory{p}Repository()")
        };
        open!(f, "const {c} = new {p}Service(");
        ln!(f, "{repo},");
        ln!(f, "logger,");
        ln!(f, "new EventBus<{p}Event>(),");
        if let Some(u) = e.upstream.filter(|&u| ctx.entities[u].package == package) {
            ln!(f, "{},", ctx.entities[u].names.camel);
        }
        f.close(");");
    }
    let names: Vec<String> = pkg
        .entities
        .iter()
        .map(|&i| ctx.entities[i].names.camel.clone())
        .collect();
    ln!(f, "return {{ {} }};", names.join(", "));
    close_block(&mut f);
    ctx.packages[package].factory = Some(callable);
    ctx.emit(f)
}

/// `src/index.ts`: every feature folder by `export *`, the factory by name.
fn barrel(ctx: &mut Ctx<'_>, package: usize) -> io::Result<()> {
    let pkg = ctx.packages[package].clone();
    let path = format!("{}/src/index.ts", pkg.dir);
    let mut f = ctx.file(
        path.clone(),
        &[
            &format!("Public API of {}.", pkg.name),
            "Feature folders are re-exported whole; internal/ stays private.",
        ],
    );
    for &index in &pkg.entities {
        let feature = ctx.entities[index].feature().to_owned();
        ln!(
            f,
            "export * from \"{}\";",
            relative(&path, &format!("{}/src/{feature}", pkg.dir))
        );
    }
    ln!(
        f,
        "export {{ create{}Services }} from \"./module\";",
        pkg.pascal
    );
    ln!(
        f,
        "export type {{ {}Services }} from \"./module\";",
        pkg.pascal
    );
    ctx.emit(f)
}
