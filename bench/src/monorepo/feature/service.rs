//! `{entity}.service.ts`: the entity's service, a `BaseService` subclass whose constructor
//! parameter properties hold the repository (by interface), the event bus and, for an
//! upstream entity of the same library, that entity's service. Its methods call each other
//! through `this`, the model and rules functions, and hub helpers.

use std::io;

use super::{module_path, signature};
use crate::monorepo::Ctx;
use crate::monorepo::code::{SpecKind, TsFile, close_block, ln, open};
use crate::monorepo::graph::SymKind::Method;
use crate::monorepo::plan::{Entity, Extra};

pub(super) fn write(ctx: &mut Ctx<'_>, index: usize) -> io::Result<()> {
    let e = ctx.entities[index].clone();
    let (p, w, k) = (&e.names.pascal, &e.names.words, &e.names.kebab);
    let header = [
        format!("Use cases of {w} records: creation, lookup, status changes, reports."),
        "Storage is reached only through the repository interface, so the same service".to_owned(),
        "runs over memory in tests and over a database in production.".to_owned(),
    ];
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut f = ctx.file(module_path(ctx, &e, "service"), &header);
    let model = format!("./{k}.model");
    for name in ["", "Id", "Input", "Patch", "Event"] {
        f.ty(SpecKind::Relative, &model, &format!("{p}{name}"));
    }
    f.ty(
        SpecKind::Relative,
        &format!("./{k}.repository"),
        &format!("{p}Repository"),
    );
    ctx.hubs.value(&mut f, "BaseService");
    ctx.hubs.ty(&mut f, "EventBus");
    ctx.hubs.ty(&mut f, "Logger");
    let local_upstream = e.upstream.filter(|&u| ctx.entities[u].package == e.package);
    let mut params = vec![
        format!("private readonly repo: {p}Repository"),
        "logger: Logger".to_owned(),
        format!("private readonly events: EventBus<{p}Event>"),
    ];
    if let Some(u) = local_upstream {
        let up = ctx.entities[u].names.clone();
        ctx.import_entity(&mut f, u, "service", &format!("{}Service", up.pascal), true);
        params.push(format!(
            "private readonly {}Service: {}Service",
            up.camel, up.pascal
        ));
    }

    f.doc(&[&format!("What the application does with {w} records.")]);
    open!(f, "export class {p}Service extends BaseService {{");
    signature(&mut f, "constructor", &params, " {");
    ln!(f, "super(logger);");
    close_block(&mut f);

    let mut s = Writer {
        ctx: &mut *ctx,
        f: &mut f,
        index,
        e: e.clone(),
    };
    s.create();
    s.get();
    s.update();
    s.set_status();
    s.status_change("activate", "Active", "Makes the record live.");
    s.status_change(
        "archive",
        "Archived",
        "Retires the record; it stays readable.",
    );
    s.list_active();
    s.summarize();
    for extra in &e.extras {
        s.extra(*extra);
    }
    if e.dto {
        s.dto();
    }
    if e.policies > 0 {
        s.review();
    }
    if let Some(u) = e.upstream {
        if local_upstream.is_some() {
            s.load_upstream(u);
        } else {
            s.with_upstream(u);
        }
    }
    f.close("}");
    ctx.emit(f)
}

/// Writes the methods of one service class.
struct Writer<'a, 's> {
    ctx: &'a mut Ctx<'s>,
    f: &'a mut TsFile,
    index: usize,
    e: Entity,
}

impl Writer<'_, '_> {
    /// Starts method `name` (role `svc.{name}`) with its doc line and signature.
    /// `head` is the method's name with its modifiers (`private async setStatus`).
    fn method(&mut self, role: &'static str, head: &str, doc: &str, params: &[String], tail: &str) {
        let name = head.rsplit(' ').next().unwrap_or(head);
        let symbol = format!("{}Service.{name}", self.e.names.pascal);
        self.ctx
            .begin_api(self.f, self.index, role, "service", &symbol, Method);
        self.f.doc(&[doc]);
        signature(self.f, head, params, tail);
    }

    fn api(&mut self, role: &str, args: &str) -> String {
        self.ctx.call_api(self.f, self.index, role, args)
    }

    fn this(&mut self, role: &str, args: &str) -> String {
        self.ctx.call_method(self.f, "this", self.index, role, args)
    }

    fn hub(&mut self, name: &str, args: &str) -> String {
        self.ctx.hubs.call(self.f, name, args)
    }

    fn trace(&mut self, args: &str) {
        let call = self
            .ctx
            .hubs
            .call_on(self.f, "this", "BaseService.trace", args);
        ln!(self.f, "{call};");
    }

    fn status_value(&mut self) {
        let model = format!("./{}.model", self.e.names.kebab);
        let status = format!("{}Status", self.e.names.pascal);
        self.f.value(SpecKind::Relative, &model, &status);
    }

    /// `this.events.publish({ … })` over several lines.
    fn publish(&mut self, kind: &str, item: &str) {
        self.ctx.hubs.record(self.f, "EventBus.publish");
        let f = &mut *self.f;
        open!(f, "this.events.publish({{");
        ln!(f, "type: {kind},");
        ln!(f, "payload: {{ id: {item}.id, status: {item}.status }},");
        ln!(f, "at: {item}.updatedAt,");
        f.close("});");
    }

    fn end(&mut self) {
        close_block(self.f);
    }

    fn create(&mut self) {
        let p = self.e.names.pascal.clone();
        let k = self.e.names.kebab.clone();
        self.method(
            "svc.create",
            "async create",
            "Creates a record from `input`, stores it and announces it.",
            &[format!("input: {p}Input")],
            &format!(": Promise<{p}> {{"),
        );
        let item = self.api("create", "input");
        ln!(self.f, "const item = {item};");
        if self.e.policies > 0 {
            let defaults = self.api("defaultPolicies", "");
            let problems = self.api("evaluatePolicies", &format!("item, {defaults}"));
            ln!(self.f, "const problems = {problems};");
            open!(self.f, "if (problems.length > 0) {{");
            self.ctx.hubs.value(self.f, "ValidationError");
            let text = self.hub("listToText", "problems");
            ln!(self.f, "throw new ValidationError(\"policy\", {text});");
            self.f.close("}");
        }
        ln!(self.f, "const saved = await this.repo.save(item);");
        self.trace("\"create\", { id: saved.id }");
        self.publish(&format!("\"{k}.created\""), "saved");
        ln!(self.f, "return saved;");
        self.end();
    }

    fn get(&mut self) {
        let p = self.e.names.pascal.clone();
        let k = self.e.names.kebab.clone();
        self.method(
            "svc.get",
            "async get",
            "The record with `id`; throws `NotFoundError` when there is none.",
            &[format!("id: {p}Id")],
            &format!(": Promise<{p}> {{"),
        );
        ln!(self.f, "const item = await this.repo.findById(id);");
        open!(self.f, "if (!item) {{");
        self.ctx.hubs.value(self.f, "NotFoundError");
        ln!(self.f, "throw new NotFoundError(\"{k}\", id);");
        self.f.close("}");
        ln!(self.f, "return item;");
        self.end();
    }

    fn update(&mut self) {
        let p = self.e.names.pascal.clone();
        self.method(
            "svc.update",
            "async update",
            "Applies `patch` to the record with `id`.",
            &[format!("id: {p}Id"), format!("patch: {p}Patch")],
            &format!(": Promise<{p}> {{"),
        );
        let current = self.this("svc.get", "id");
        ln!(self.f, "const current = await {current};");
        let next = self.api("applyPatch", "current, patch");
        ln!(self.f, "const next = {next};");
        self.trace("\"update\", { id, fields: Object.keys(patch) }");
        ln!(self.f, "return this.repo.save(next);");
        self.end();
    }

    fn set_status(&mut self) {
        let p = self.e.names.pascal.clone();
        let k = self.e.names.kebab.clone();
        self.method(
            "svc.setStatus",
            "private async setStatus",
            "Moves the record to `status`; a no-op when it is there already.",
            &[format!("id: {p}Id"), format!("status: {p}Status")],
            &format!(": Promise<{p}> {{"),
        );
        self.status_value();
        let current = self.this("svc.get", "id");
        ln!(self.f, "const current = await {current};");
        open!(self.f, "if (current.status === status) {{");
        ln!(self.f, "return current;");
        self.f.close("}");
        ln!(
            self.f,
            "const saved = await this.repo.save({{ ...current, status }});"
        );
        self.publish(&format!("`{k}.${{status}}`"), "saved");
        self.trace("\"setStatus\", { id, status }");
        ln!(self.f, "return saved;");
        self.end();
    }

    fn status_change(&mut self, name: &str, status: &str, doc: &str) {
        let p = self.e.names.pascal.clone();
        let role: &'static str = if name == "activate" {
            "svc.activate"
        } else {
            "svc.archive"
        };
        self.method(
            role,
            name,
            doc,
            &[format!("id: {p}Id")],
            &format!(": Promise<{p}> {{"),
        );
        self.status_value();
        let call = self.this("svc.setStatus", &format!("id, {p}Status.{status}"));
        ln!(self.f, "return {call};");
        self.end();
    }

    fn list_active(&mut self) {
        let p = self.e.names.pascal.clone();
        self.method(
            "svc.listActive",
            "async listActive",
            "Live records, best ranked first.",
            &[],
            &format!(": Promise<{p}[]> {{"),
        );
        let active = self.api("isActive", "item");
        ln!(
            self.f,
            "const items = await this.repo.list((item) => {active});"
        );
        let score = self.api("score", "item");
        let sorted = self.hub("sortBy", &format!("items, (item) => {score}, true"));
        ln!(self.f, "return {sorted};");
        self.end();
    }

    fn summarize(&mut self) {
        self.method(
            "svc.summarize",
            "async summarize",
            "One line per record, for logs and plain-text reports.",
            &[],
            ": Promise<string[]> {",
        );
        ln!(self.f, "const items = await this.repo.list();");
        let label = self.api("describe", "item");
        ln!(self.f, "return items.map((item) => {label});");
        self.end();
    }

    fn extra(&mut self, extra: Extra) {
        let p = self.e.names.pascal.clone();
        let k = self.e.names.kebab.clone();
        match extra {
            Extra::GroupByStatus => {
                self.method(
                    "svc.groupByStatus",
                    "async groupByStatus",
                    "Records by status, for dashboards.",
                    &[],
                    &format!(": Promise<Map<{p}Status, {p}[]>> {{"),
                );
                self.status_value();
                ln!(self.f, "const items = await this.repo.list();");
                let groups = self.hub("groupBy", "items, (item) => item.status");
                ln!(self.f, "return {groups};");
            }
            Extra::Total => {
                self.method(
                    "svc.total",
                    "async total",
                    &format!("The total `{}` of the live records.", self.e.measure),
                    &[],
                    ": Promise<number> {",
                );
                let active = self.this("svc.listActive", "");
                ln!(self.f, "const items = await {active};");
                let total = self.api("total", "items");
                ln!(self.f, "return {total};");
            }
            Extra::Search => {
                self.method(
                    "svc.search",
                    "async search",
                    "Records whose name contains `text`, best ranked first.",
                    &["text: string".to_owned()],
                    &format!(": Promise<{p}[]> {{"),
                );
                ln!(self.f, "const found = await this.repo.search(text.trim());");
                self.trace("\"search\", { text, hits: found.length }");
                let score = self.api("score", "item");
                let sorted = self.hub("sortBy", &format!("found, (item) => {score}, true"));
                ln!(self.f, "return {sorted};");
            }
            Extra::Latest => {
                self.method(
                    "svc.latest",
                    "async latest",
                    "The most recently changed record, if any.",
                    &[],
                    &format!(": Promise<{p} | undefined> {{"),
                );
                ln!(self.f, "const items = await this.repo.list();");
                let latest = self.api("latest", "items");
                ln!(self.f, "return {latest};");
            }
            Extra::Ranked => {
                self.method(
                    "svc.ranked",
                    "async ranked",
                    "The best `limit` live records.",
                    &["limit = 10".to_owned()],
                    &format!(": Promise<{p}[]> {{"),
                );
                let active = self.this("svc.listActive", "");
                ln!(self.f, "const items = await {active};");
                ln!(self.f, "return items.slice(0, Math.max(0, limit));");
            }
            Extra::Page => {
                self.ctx.hubs.ty(self.f, "Page");
                self.method(
                    "svc.page",
                    "async page",
                    "Page `n` (from 1) of the live records.",
                    &["n: number".to_owned()],
                    &format!(": Promise<Page<{p}>> {{"),
                );
                let active = self.this("svc.listActive", "");
                ln!(self.f, "const items = await {active};");
                self.ctx.hubs.value(self.f, "Paginator");
                let snake = k.replace('-', "_").to_uppercase();
                self.f.value(
                    SpecKind::Relative,
                    &format!("./{k}.model"),
                    &format!("{snake}_PAGE_SIZE"),
                );
                let receiver = format!("new Paginator<{p}>(items, {snake}_PAGE_SIZE)");
                let page = self
                    .ctx
                    .hubs
                    .call_on(self.f, &receiver, "Paginator.page", "n");
                ln!(self.f, "return {page};");
            }
            Extra::BulkCreate => {
                self.method(
                    "svc.bulkCreate",
                    "async bulkCreate",
                    "Creates one record per input; all are checked before any is stored.",
                    &[format!("inputs: readonly {p}Input[]")],
                    &format!(": Promise<{p}[]> {{"),
                );
                let create = self.this("svc.create", "input");
                ln!(
                    self.f,
                    "return Promise.all(inputs.map((input) => {create}));"
                );
            }
            Extra::Audit => {
                self.method(
                    "svc.audit",
                    "async audit",
                    "Audit lines for the records among `ids` that exist.",
                    &[format!("ids: readonly {p}Id[]")],
                    ": Promise<string[]> {",
                );
                ln!(
                    self.f,
                    "const found = await Promise.all(ids.map((id) => this.repo.findById(id)));"
                );
                ln!(self.f, "const present = found");
                ln!(
                    self.f,
                    "  .filter((item): item is {p} => item !== undefined)"
                );
                ln!(self.f, "  .map((item) => item.id);");
                let package = self.e.package;
                let Some(audit) = self.ctx.packages[package].audit.clone() else {
                    panic!("generator bug: the internal audit module is written first");
                };
                let dir = self.ctx.packages[package].dir.clone();
                let spec =
                    crate::monorepo::relative(&self.f.path, &format!("{dir}/src/internal/audit"));
                self.f.value(SpecKind::Relative, &spec, &audit.name);
                let trail = self.f.call(&audit, &format!("\"{k}\", present"));
                ln!(self.f, "return {trail};");
            }
            Extra::CountActive => {
                self.method(
                    "svc.countActive",
                    "async countActive",
                    "How many records are live.",
                    &[],
                    ": Promise<number> {",
                );
                let active = self.this("svc.listActive", "");
                ln!(self.f, "return (await {active}).length;");
            }
            Extra::RemoveArchived => {
                self.method(
                    "svc.removeArchived",
                    "async removeArchived",
                    "Deletes archived records; how many went.",
                    &[],
                    ": Promise<number> {",
                );
                self.status_value();
                ln!(
                    self.f,
                    "const archived = await this.repo.findByStatus({p}Status.Archived);"
                );
                ln!(
                    self.f,
                    "const removed = await Promise.all(archived.map((item) => this.repo.remove(item.id)));"
                );
                ln!(
                    self.f,
                    "const count = removed.filter((done) => done).length;"
                );
                self.trace("\"removeArchived\", { count }");
                ln!(self.f, "return count;");
            }
            Extra::Subscribe => {
                self.ctx.hubs.ty(self.f, "Listener");
                self.method(
                    "svc.onStatusChange",
                    "onStatusChange",
                    "Calls `listener` on every creation and status change; returns the unsubscribe.",
                    &[format!("listener: Listener<{p}Event>")],
                    ": () => void {",
                );
                let call =
                    self.ctx
                        .hubs
                        .call_on(self.f, "this.events", "EventBus.subscribe", "listener");
                ln!(self.f, "return {call};");
            }
            Extra::Chunks => {
                self.method(
                    "svc.chunks",
                    "async chunks",
                    "All records in batches of `size`, for bulk jobs.",
                    &["size: number".to_owned()],
                    &format!(": Promise<{p}[][]> {{"),
                );
                ln!(self.f, "const items = await this.repo.list();");
                let chunks = self.hub("chunk", "items, size");
                ln!(self.f, "return {chunks};");
            }
        }
        self.end();
    }

    fn dto(&mut self) {
        let p = self.e.names.pascal.clone();
        let rules = format!("./{}.model", self.e.names.kebab);
        self.method(
            "svc.exportCsv",
            "async exportCsv",
            "Every record as CSV.",
            &[],
            ": Promise<string> {",
        );
        ln!(self.f, "const items = await this.repo.list();");
        self.f
            .value(SpecKind::Relative, &rules, &format!("{p}CsvExporter"));
        let render = self.ctx.hubs.call_on(
            self.f,
            &format!("new {p}CsvExporter()"),
            "CsvExporter.render",
            "items",
        );
        ln!(self.f, "return {render};");
        self.end();

        self.f.ty(
            SpecKind::Relative,
            &format!("./{}.model", self.e.names.kebab),
            &format!("{p}Dto"),
        );
        self.method(
            "svc.exportDtos",
            "async exportDtos",
            "Every record in its wire form.",
            &[],
            &format!(": Promise<{p}Dto[]> {{"),
        );
        ln!(self.f, "const items = await this.repo.list();");
        let dto = self.api("toDto", "item");
        ln!(self.f, "return items.map((item) => {dto});");
        self.end();

        self.method(
            "svc.importDtos",
            "async importDtos",
            "Stores records read from their wire form; how many were stored.",
            &[format!("dtos: readonly {p}Dto[]")],
            ": Promise<number> {",
        );
        let from = self.api("fromDto", "dto");
        ln!(
            self.f,
            "const saved = await Promise.all(dtos.map((dto) => this.repo.save({from})));"
        );
        self.trace("\"importDtos\", { count: saved.length }");
        ln!(self.f, "return saved.length;");
        self.end();
    }

    fn review(&mut self) {
        let p = self.e.names.pascal.clone();
        self.method(
            "svc.review",
            "async review",
            "Why the record with `id` would fail its policies; empty when it passes.",
            &[format!("id: {p}Id")],
            ": Promise<string[]> {",
        );
        let item = self.this("svc.get", "id");
        ln!(self.f, "const item = await {item};");
        let defaults = self.api("defaultPolicies", "");
        let result = self.api("evaluatePolicies", &format!("item, {defaults}"));
        ln!(self.f, "return {result};");
        self.end();
    }

    /// The upstream entity lives in this library: its service is a constructor dependency.
    fn load_upstream(&mut self, upstream: usize) {
        let p = self.e.names.pascal.clone();
        let up = self.ctx.entities[upstream].names.clone();
        self.ctx
            .import_entity(self.f, upstream, "model", &up.pascal, true);
        self.method(
            "svc.loadUpstream",
            &format!("async load{}", up.pascal),
            &format!("The {} the record with `id` refers to.", up.words),
            &[format!("id: {p}Id")],
            &format!(": Promise<{}> {{", up.pascal),
        );
        let item = self.this("svc.get", "id");
        ln!(self.f, "const item = await {item};");
        let receiver = format!("this.{}Service", up.camel);
        let load = self.ctx.call_method(
            self.f,
            &receiver,
            upstream,
            "svc.get",
            &format!("item.{}Id", up.camel),
        );
        ln!(self.f, "return {load};");
        self.end();
    }

    /// The upstream entity lives in a dependency: its functions are imported by package.
    fn with_upstream(&mut self, upstream: usize) {
        let p = self.e.names.pascal.clone();
        let up = self.ctx.entities[upstream].names.clone();
        self.ctx
            .import_entity(self.f, upstream, "model", &up.pascal, true);
        self.method(
            "svc.describeWith",
            &format!("async describeWith{}", up.pascal),
            &format!(
                "A label joining the record with `id` and the {} it refers to.",
                up.words
            ),
            &[format!("id: {p}Id"), format!("other: {}", up.pascal)],
            ": Promise<string> {",
        );
        let item = self.this("svc.get", "id");
        ln!(self.f, "const item = await {item};");
        open!(self.f, "if (item.{}Id !== other.id) {{", up.camel);
        ln!(
            self.f,
            "// Callers pass what they have at hand; a mismatch is worth a trace, not an error."
        );
        self.trace("\"describeWith.mismatch\", { id, other: other.id }");
        self.f.close("}");
        let mine = self.api("describe", "item");
        let theirs = self.ctx.call_api(self.f, upstream, "describe", "other");
        ln!(self.f, "return `${{{mine}}} / ${{{theirs}}}`;");
        self.end();

        self.method(
            "svc.scoreWith",
            &format!("async scoreWith{}", up.pascal),
            &format!("The rank of the record with `id` next to the {}.", up.words),
            &[format!("id: {p}Id"), format!("other: {}", up.pascal)],
            ": Promise<number> {",
        );
        let item = self.this("svc.get", "id");
        ln!(self.f, "const item = await {item};");
        let score = self.api("scoreWith", "item, other");
        ln!(self.f, "return {score};");
        self.end();
    }
}
