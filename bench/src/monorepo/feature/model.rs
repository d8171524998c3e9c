//! `{entity}.model.ts`: the entity's status enum, id type, interface, input, patch and event
//! types, and the pure helpers every layer calls (create, validate, describe, score, DTOs),
//! followed by its rules (see `rules.rs`).

use std::io;

use super::{module_path, signature};
use crate::monorepo::Ctx;
use crate::monorepo::code::{close_block, ln, open};
use crate::monorepo::graph::SymKind::Function;
use crate::monorepo::plan::FieldType;

pub(super) fn write(ctx: &mut Ctx<'_>, index: usize) -> io::Result<()> {
    let e = ctx.entities[index].clone();
    let (p, w, k, m) = (&e.names.pascal, &e.names.words, &e.names.kebab, e.measure);
    let header = [
        format!("The {w} record: what the {k} feature stores, its lifecycle, and the pure"),
        "helpers every layer uses (creation, validation, labels, ranking).".to_owned(),
    ];
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut f = ctx.file(module_path(ctx, &e, "model"), &header);
    let upstream = e.upstream.map(|u| ctx.entities[u].names.clone());

    let snake = k.replace('-', "_").to_uppercase();
    f.doc(&[&format!(
        "How many {w} records a list shows unless asked for more."
    )]);
    ln!(f, "export const {snake}_PAGE_SIZE = 25;");
    ln!(f);
    f.doc(&[&format!("Lifecycle of a {w}.")]);
    open!(f, "export enum {p}Status {{");
    for status in e.all_statuses() {
        ln!(f, "{status} = \"{}\",", status.to_lowercase());
    }
    close_block(&mut f);
    f.doc(&[&format!("Identifier of a {w} (`{k}-…`).")]);
    ln!(f, "export type {p}Id = string;");
    ln!(f);

    ctx.hubs.ty(&mut f, "Entity");
    f.doc(&[&format!("A {w} as the repository stores it.")]);
    open!(f, "export interface {p} extends Entity<{p}Id> {{");
    f.doc(&["Display name."]);
    ln!(f, "name: string;");
    f.doc(&["Where it is in its lifecycle."]);
    ln!(f, "status: {p}Status;");
    f.doc(&[e.measure_doc]);
    ln!(f, "{m}: number;");
    for field in &e.fields {
        f.doc(&[field.doc]);
        let optional = if field.ty == FieldType::OptionalText {
            "?"
        } else {
            ""
        };
        ln!(f, "{}{optional}: {};", field.name, field.ty.ts());
    }
    if let (Some(u), Some(up)) = (e.upstream, &upstream) {
        ctx.import_entity(&mut f, u, "model", &format!("{}Id", up.pascal), true);
        f.doc(&[&format!("The {} it belongs to.", up.words)]);
        ln!(f, "{}Id: {}Id;", up.camel, up.pascal);
    }
    close_block(&mut f);

    f.doc(&[&format!(
        "What a caller supplies to create a {w}; the rest is assigned."
    )]);
    ln!(
        f,
        "export type {p}Input = Omit<{p}, \"id\" | \"status\" | \"createdAt\" | \"updatedAt\">;"
    );
    ln!(f);
    f.doc(&["The fields a caller may change later."]);
    ln!(f, "export type {p}Patch = Partial<{p}Input>;");
    ln!(f);
    ctx.hubs.ty(&mut f, "DomainEvent");
    f.doc(&[&format!(
        "Published when a {w} is created or changes status."
    )]);
    ln!(
        f,
        "export type {p}Event = DomainEvent<{{ id: {p}Id; status: {p}Status }}>;"
    );
    ln!(f);

    ctx.begin_api(
        &mut f,
        index,
        "create",
        "model",
        &format!("create{p}"),
        Function,
    );
    f.doc(&[&format!("A new draft {w} from `input`, after checking it.")]);
    open!(f, "export function create{p}(input: {p}Input): {p} {{");
    let check = ctx
        .hubs
        .call(&mut f, "assertNonEmpty", "input.name, \"name\"");
    ln!(f, "{check};");
    let check = ctx
        .hubs
        .call(&mut f, "assertNonNegative", &format!("input.{m}, \"{m}\""));
    ln!(f, "{check};");
    let now = ctx.hubs.call(&mut f, "now", "");
    ln!(f, "const at = {now};");
    open!(f, "return {{");
    ln!(f, "...input,");
    let id = ctx.hubs.call(&mut f, "newId", &format!("\"{k}\""));
    ln!(f, "id: {id},");
    ln!(f, "status: {p}Status.Draft,");
    ln!(f, "createdAt: at,");
    ln!(f, "updatedAt: at,");
    f.close("};");
    close_block(&mut f);

    ctx.begin_api(
        &mut f,
        index,
        "isActive",
        "model",
        &format!("is{p}Active"),
        Function,
    );
    f.doc(&[&format!("Whether a {w} counts as live.")]);
    open!(f, "export function is{p}Active(item: {p}): boolean {{");
    ln!(f, "return item.status === {p}Status.Active;");
    close_block(&mut f);

    ctx.begin_api(
        &mut f,
        index,
        "describe",
        "model",
        &format!("describe{p}"),
        Function,
    );
    f.doc(&["A one-line label for lists and logs."]);
    open!(f, "export function describe{p}(item: {p}): string {{");
    ln!(
        f,
        "// Names come from users and can be long; lists have one line per item."
    );
    let name = ctx.hubs.call(&mut f, "truncate", "item.name, 48");
    ln!(f, "return `${{{name}}} (${{item.status}})`;");
    close_block(&mut f);

    ctx.begin_api(
        &mut f,
        index,
        "validate",
        "model",
        &format!("validate{p}"),
        Function,
    );
    f.doc(&[&format!(
        "Throws unless `item` keeps the invariants of a stored {w}."
    )]);
    open!(f, "export function validate{p}(item: {p}): void {{");
    let check = ctx.hubs.call(&mut f, "assertNonEmpty", "item.id, \"id\"");
    ln!(f, "{check};");
    let check = ctx
        .hubs
        .call(&mut f, "assertNonEmpty", "item.name, \"name\"");
    ln!(f, "{check};");
    let check = ctx
        .hubs
        .call(&mut f, "assertNonNegative", &format!("item.{m}, \"{m}\""));
    ln!(f, "{check};");
    for field in &e.fields {
        let call = match field.ty {
            FieldType::Text => ctx.hubs.call(
                &mut f,
                "assertNonEmpty",
                &format!("item.{0}, \"{0}\"", field.name),
            ),
            FieldType::Number => ctx.hubs.call(
                &mut f,
                "assertNonNegative",
                &format!("item.{0}, \"{0}\"", field.name),
            ),
            _ => continue,
        };
        ln!(f, "{call};");
    }
    open!(f, "if (item.updatedAt < item.createdAt) {{");
    ctx.hubs.value(&mut f, "ValidationError");
    ln!(
        f,
        "throw new ValidationError(\"updatedAt\", \"is before createdAt\");"
    );
    f.close("}");
    close_block(&mut f);

    ctx.begin_api(
        &mut f,
        index,
        "applyPatch",
        "model",
        &format!("apply{p}Patch"),
        Function,
    );
    f.doc(&["`item` with `patch` applied; the identity and the lifecycle are kept."]);
    signature(
        &mut f,
        &format!("export function apply{p}Patch"),
        &[format!("item: {p}"), format!("patch: {p}Patch")],
        &format!(": {p} {{"),
    );
    ln!(
        f,
        "return {{ ...item, ...patch, id: item.id, status: item.status }};"
    );
    close_block(&mut f);

    ctx.begin_api(
        &mut f,
        index,
        "score",
        "model",
        &format!("score{p}"),
        Function,
    );
    f.doc(&["A rank for ordering: higher first; live records before the others."]);
    open!(f, "export function score{p}(item: {p}): number {{");
    ln!(f, "const base = item.{m};");
    if let Some(flag) = e.fields.iter().find(|f| f.ty == FieldType::Flag) {
        ln!(f, "const bonus = item.{} ? 1.5 : 1;", flag.name);
    } else {
        ln!(f, "const bonus = 1;");
    }
    let active = ctx.call_api(&mut f, index, "isActive", "item");
    ln!(f, "return {active} ? base * 2 * bonus : base * bonus;");
    close_block(&mut f);

    ctx.begin_api(
        &mut f,
        index,
        "parseStatus",
        "model",
        &format!("parse{p}Status"),
        Function,
    );
    f.doc(&["Reads a status from text; anything unknown is a draft."]);
    open!(
        f,
        "export function parse{p}Status(value: string): {p}Status {{"
    );
    open!(f, "switch (value) {{");
    for status in e.all_statuses() {
        if status != "Draft" {
            ln!(f, "case {p}Status.{status}:");
            ln!(f, "  return {p}Status.{status};");
        }
    }
    ln!(f, "default:");
    ln!(f, "  return {p}Status.Draft;");
    f.close("}");
    close_block(&mut f);

    if e.dto {
        dto(
            ctx,
            &mut f,
            index,
            upstream.as_ref().map(|u| u.camel.as_str()),
        );
    }
    super::rules::write(ctx, &mut f, index);
    ctx.emit(f)
}

/// The wire form and its converters.
fn dto(
    ctx: &mut Ctx<'_>,
    f: &mut crate::monorepo::code::TsFile,
    index: usize,
    upstream: Option<&str>,
) {
    let e = ctx.entities[index].clone();
    let (p, w, m) = (&e.names.pascal, &e.names.words, e.measure);
    f.doc(&[&format!(
        "The wire form of a {w}: dates as ISO text, the status as text."
    )]);
    open!(f, "export interface {p}Dto {{");
    ln!(f, "id: string;");
    ln!(f, "name: string;");
    ln!(f, "status: string;");
    ln!(f, "{m}: number;");
    for field in &e.fields {
        let optional = if field.ty == FieldType::OptionalText {
            "?"
        } else {
            ""
        };
        ln!(f, "{}{optional}: {};", field.name, field.ty.ts());
    }
    if let Some(up) = upstream {
        ln!(f, "{up}Id: string;");
    }
    ln!(f, "createdAt: string;");
    ln!(f, "updatedAt: string;");
    close_block(f);

    ctx.begin_api(f, index, "toDto", "model", &format!("to{p}Dto"), Function);
    f.doc(&[&format!("A {w} in its wire form.")]);
    open!(f, "export function to{p}Dto(item: {p}): {p}Dto {{");
    open!(f, "return {{");
    ln!(f, "id: item.id,");
    ln!(f, "name: item.name,");
    ln!(f, "status: item.status,");
    ln!(f, "{m}: item.{m},");
    for field in &e.fields {
        if field.ty == FieldType::Tags {
            ln!(f, "{0}: [...item.{0}],", field.name);
        } else {
            ln!(f, "{0}: item.{0},", field.name);
        }
    }
    if let Some(up) = upstream {
        ln!(f, "{up}Id: item.{up}Id,");
    }
    ln!(f, "createdAt: new Date(item.createdAt).toISOString(),");
    ln!(f, "updatedAt: new Date(item.updatedAt).toISOString(),");
    f.close("};");
    close_block(f);

    ctx.begin_api(
        f,
        index,
        "fromDto",
        "model",
        &format!("from{p}Dto"),
        Function,
    );
    f.doc(&["Reads the wire form back; an unknown status becomes a draft."]);
    open!(f, "export function from{p}Dto(dto: {p}Dto): {p} {{");
    open!(f, "return {{");
    ln!(f, "id: dto.id,");
    ln!(f, "name: dto.name,");
    let status = ctx.call_api(f, index, "parseStatus", "dto.status");
    ln!(f, "status: {status},");
    ln!(f, "{m}: dto.{m},");
    for field in &e.fields {
        ln!(f, "{0}: dto.{0},", field.name);
    }
    if let Some(up) = upstream {
        ln!(f, "{up}Id: dto.{up}Id,");
    }
    ln!(f, "createdAt: Date.parse(dto.createdAt),");
    ln!(f, "updatedAt: Date.parse(dto.updatedAt),");
    f.close("};");
    close_block(f);
}
