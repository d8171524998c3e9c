//! `{entity}.handlers.ts`: framework-neutral HTTP handlers, module-level functions that take
//! the service and a request and call one service method each, and the route table that
//! references them.

use std::io;

use super::{module_path, signature};
use crate::monorepo::Ctx;
use crate::monorepo::code::{SpecKind, TsFile, close_block, ln, open};
use crate::monorepo::graph::SymKind::Function;
use crate::monorepo::plan::{Entity, Extra};

/// One handler: its role, route, name suffix, service method role, and what it returns.
struct Route {
    role: &'static str,
    route: &'static str,
    name: &'static str,
    method: &'static str,
    body: Body,
}

/// How a handler turns the request into a call and the result into a response.
#[derive(Clone, Copy)]
enum Body {
    /// `service.m(request.body)` → the record, 201.
    Create,
    /// `service.m(id)` → the record, 404 when missing.
    ById,
    /// `service.m(id, request.body)`.
    Patch,
    /// `service.m()` → the records as labels.
    Labels,
    /// `service.m()` → whatever it returns.
    Plain,
    /// `service.m(request.query.q)`.
    Query,
    /// `service.m(Number(request.query.page))`.
    Numbered,
    /// `service.m()` → a Map, sent as an object.
    Groups,
}

fn routes(e: &Entity) -> Vec<Route> {
    let mut routes = vec![
        Route {
            role: "h.create",
            route: "POST /",
            name: "Create",
            method: "svc.create",
            body: Body::Create,
        },
        Route {
            role: "h.get",
            route: "GET /:id",
            name: "Get",
            method: "svc.get",
            body: Body::ById,
        },
        Route {
            role: "h.update",
            route: "PATCH /:id",
            name: "Update",
            method: "svc.update",
            body: Body::Patch,
        },
        Route {
            role: "h.activate",
            route: "POST /:id/activate",
            name: "Activate",
            method: "svc.activate",
            body: Body::ById,
        },
        Route {
            role: "h.archive",
            route: "POST /:id/archive",
            name: "Archive",
            method: "svc.archive",
            body: Body::ById,
        },
        Route {
            role: "h.list",
            route: "GET /",
            name: "List",
            method: "svc.listActive",
            body: Body::Labels,
        },
        Route {
            role: "h.summary",
            route: "GET /summary",
            name: "Summary",
            method: "svc.summarize",
            body: Body::Plain,
        },
    ];
    let optional = [
        (
            Extra::Search,
            Route {
                role: "h.search",
                route: "GET /search",
                name: "Search",
                method: "svc.search",
                body: Body::Query,
            },
        ),
        (
            Extra::Page,
            Route {
                role: "h.page",
                route: "GET /pages",
                name: "Page",
                method: "svc.page",
                body: Body::Numbered,
            },
        ),
        (
            Extra::Ranked,
            Route {
                role: "h.ranked",
                route: "GET /top",
                name: "Ranked",
                method: "svc.ranked",
                body: Body::Labels,
            },
        ),
        (
            Extra::Total,
            Route {
                role: "h.total",
                route: "GET /total",
                name: "Total",
                method: "svc.total",
                body: Body::Plain,
            },
        ),
        (
            Extra::GroupByStatus,
            Route {
                role: "h.groups",
                route: "GET /by-status",
                name: "Groups",
                method: "svc.groupByStatus",
                body: Body::Groups,
            },
        ),
        (
            Extra::CountActive,
            Route {
                role: "h.count",
                route: "GET /count",
                name: "Count",
                method: "svc.countActive",
                body: Body::Plain,
            },
        ),
    ];
    for (extra, route) in optional {
        if e.has(extra) {
            routes.push(route);
        }
    }
    if e.dto {
        routes.push(Route {
            role: "h.export",
            route: "GET /export.csv",
            name: "Export",
            method: "svc.exportCsv",
            body: Body::Plain,
        });
    }
    if e.policies > 0 {
        routes.push(Route {
            role: "h.review",
            route: "GET /:id/review",
            name: "Review",
            method: "svc.review",
            body: Body::ById,
        });
    }
    routes
}

pub(super) fn write(ctx: &mut Ctx<'_>, index: usize) -> io::Result<()> {
    let e = ctx.entities[index].clone();
    let (p, w, k) = (&e.names.pascal, &e.names.words, &e.names.kebab);
    let header = [
        format!("HTTP handlers of the {k} feature, mounted under `/{k}s` by the host."),
        "Each one adapts a request to one service call; errors the service throws on".to_owned(),
        "purpose become 4xx responses here, anything else propagates.".to_owned(),
    ];
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut f = ctx.file(module_path(ctx, &e, "handlers"), &header);
    f.ty(
        SpecKind::Relative,
        &format!("./{k}.service"),
        &format!("{p}Service"),
    );
    let model = format!("./{k}.model");
    ctx.hubs.ty(&mut f, "Response");
    for route in routes(&e) {
        let name = format!("handle{}{p}", route.name);
        ctx.begin_api(&mut f, index, route.role, "handlers", &name, Function);
        f.doc(&[&format!("`{}`: {}.", route.route, doc_of(route.body, w))]);
        let service = format!("service: {p}Service");
        let (params, result) = match route.body {
            Body::Create => {
                ctx.hubs.ty(&mut f, "Request");
                f.ty(SpecKind::Relative, &model, &format!("{p}Input"));
                f.ty(SpecKind::Relative, &model, p);
                (
                    vec![service, format!("request: Request<{p}Input>")],
                    p.clone(),
                )
            }
            Body::ById | Body::Patch => {
                ctx.hubs.ty(&mut f, "Request");
                ctx.hubs.ty(&mut f, "ErrorBody");
                let body = if matches!(route.body, Body::Patch) {
                    f.ty(SpecKind::Relative, &model, &format!("{p}Patch"));
                    format!("{p}Patch")
                } else {
                    "unknown".to_owned()
                };
                let result = if route.method == "svc.review" {
                    "string[] | ErrorBody".to_owned()
                } else {
                    f.ty(SpecKind::Relative, &model, p);
                    format!("{p} | ErrorBody")
                };
                (vec![service, format!("request: Request<{body}>")], result)
            }
            Body::Query | Body::Numbered => {
                ctx.hubs.ty(&mut f, "Request");
                let result = if matches!(route.body, Body::Query) {
                    "string[]".to_owned()
                } else {
                    ctx.hubs.ty(&mut f, "Page");
                    f.ty(SpecKind::Relative, &model, p);
                    format!("Page<{p}>")
                };
                (vec![service, "request: Request".to_owned()], result)
            }
            Body::Labels => (vec![service], "string[]".to_owned()),
            Body::Groups => (vec![service], "Record<string, number>".to_owned()),
            Body::Plain => {
                let result = match route.method {
                    "svc.summarize" => "string[]",
                    "svc.exportCsv" => "string",
                    _ => "number",
                };
                (vec![service], result.to_owned())
            }
        };
        signature(
            &mut f,
            &format!("export async function {name}"),
            &params,
            &format!(": Promise<Response<{result}>> {{"),
        );
        let call = |ctx: &Ctx<'_>, f: &mut crate::monorepo::code::TsFile, args: &str| {
            ctx.call_method(f, "service", index, route.method, args)
        };
        match route.body {
            Body::Create => {
                let created = call(ctx, &mut f, "request.body");
                ln!(f, "const item = await {created};");
                let response = ctx.hubs.call(&mut f, "respond", "item, 201");
                ln!(f, "return {response};");
            }
            Body::ById | Body::Patch => {
                ln!(f, "const id = request.params.id;");
                open!(f, "if (!id) {{");
                let bad = ctx.hubs.call(&mut f, "badRequest", "\"missing id\"");
                ln!(f, "return {bad};");
                f.close("}");
                open!(f, "try {{");
                let args = if matches!(route.body, Body::Patch) {
                    "id, request.body"
                } else {
                    "id"
                };
                let result = call(ctx, &mut f, args);
                let response = ctx.hubs.call(&mut f, "respond", &format!("await {result}"));
                ln!(f, "return {response};");
                f.close("} catch (error) {");
                f.indent();
                ctx.hubs.value(&mut f, "NotFoundError");
                open!(f, "if (error instanceof NotFoundError) {{");
                let missing = ctx.hubs.call(&mut f, "notFound", &format!("\"{k}\", id"));
                ln!(f, "return {missing};");
                f.close("}");
                ln!(f, "throw error;");
                f.close("}");
            }
            Body::Labels => {
                let items = call(ctx, &mut f, "");
                ln!(f, "const items = await {items};");
                let label = ctx.call_api(&mut f, index, "describe", "item");
                let response =
                    ctx.hubs
                        .call(&mut f, "respond", &format!("items.map((item) => {label})"));
                ln!(f, "return {response};");
            }
            Body::Plain => {
                let result = call(ctx, &mut f, "");
                let response = ctx.hubs.call(&mut f, "respond", &format!("await {result}"));
                ln!(f, "return {response};");
            }
            Body::Query => {
                ln!(f, "const text = request.query.q ?? \"\";");
                let found = call(ctx, &mut f, "text");
                ln!(f, "const found = await {found};");
                let label = ctx.call_api(&mut f, index, "describe", "item");
                let response =
                    ctx.hubs
                        .call(&mut f, "respond", &format!("found.map((item) => {label})"));
                ln!(f, "return {response};");
            }
            Body::Numbered => {
                ln!(
                    f,
                    "// Missing or malformed page numbers mean the first page."
                );
                ln!(
                    f,
                    "const n = Number.parseInt(request.query.page ?? \"1\", 10);"
                );
                let page = call(ctx, &mut f, "Number.isNaN(n) ? 1 : n");
                let response = ctx.hubs.call(&mut f, "respond", &format!("await {page}"));
                ln!(f, "return {response};");
            }
            Body::Groups => {
                let groups = call(ctx, &mut f, "");
                ln!(f, "const groups = await {groups};");
                ln!(f, "const counts: Record<string, number> = {{}};");
                open!(f, "for (const [status, items] of groups) {{");
                ln!(f, "counts[status] = items.length;");
                f.close("}");
                let response = ctx.hubs.call(&mut f, "respond", "counts");
                ln!(f, "return {response};");
            }
        }
        close_block(&mut f);
    }
    route_table(ctx, &mut f, &e);
    ctx.emit(f)
}

/// The feature's routes as data, for the host to mount: each entry references a handler.
fn route_table(ctx: &mut Ctx<'_>, f: &mut TsFile, e: &Entity) {
    let (p, c, k) = (&e.names.pascal, &e.names.camel, &e.names.kebab);
    ctx.hubs.ty(f, "Request");
    f.doc(&[&format!(
        "A route of the {k} feature: method, path and handler."
    )]);
    open!(f, "export interface {p}Route {{");
    ln!(f, "method: \"GET\" | \"POST\" | \"PATCH\";");
    ln!(f, "path: string;");
    ln!(
        f,
        "handle: (service: {p}Service, request: Request<never>) => Promise<Response<unknown>>;"
    );
    close_block(f);
    f.doc(&[&format!("Every route of the feature, relative to `/{k}s`.")]);
    open!(f, "export const {c}Routes: readonly {p}Route[] = [");
    for route in routes(e) {
        let (method, path) = route.route.split_once(' ').unwrap_or(("GET", route.route));
        ln!(
            f,
            "{{ method: \"{method}\", path: \"{path}\", handle: handle{}{p} }},",
            route.name
        );
    }
    f.close("];");
}

fn doc_of(body: Body, words: &str) -> String {
    match body {
        Body::Create => format!("creates a {words} from the request body"),
        Body::ById => format!("acts on the {words} named by the `id` parameter"),
        Body::Patch => format!("changes fields of a {words}"),
        Body::Labels => format!("{words} records as one-line labels"),
        Body::Plain => "the service's answer as it is".to_owned(),
        Body::Query => "records matching the `q` query parameter".to_owned(),
        Body::Numbered => "one page, chosen by the `page` query parameter".to_owned(),
        Body::Groups => "how many records there are per status".to_owned(),
    }
}
