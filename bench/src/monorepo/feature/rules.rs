//! The rules part of `{entity}.model.ts`: module-level helpers over lists of the entity
//! (totals, latest, grouping), the abstract policy class with its subclasses, and the CSV
//! exporter. They share the model's file so that files have the size of real ones.

use super::signature;
use crate::monorepo::Ctx;
use crate::monorepo::code::{TsFile, close_block, ln, open};
use crate::monorepo::graph::Sampling::Partial;
use crate::monorepo::graph::SymKind::{Function, Method};
use crate::monorepo::plan::FieldType;

/// Names and bodies of the policy subclasses, in the order they are written.
const POLICIES: [(&str, &str); 3] = [
    ("Default", "passes live and draft records"),
    ("Strict", "also demands a meaningful name"),
    ("Capped", "rejects records whose measure is out of range"),
];

/// Appends the rules of entity `index` to its model file `f`.
pub(super) fn write(ctx: &mut Ctx<'_>, f: &mut TsFile, index: usize) {
    let e = ctx.entities[index].clone();
    let (p, w, m) = (&e.names.pascal, &e.names.words, e.measure);
    f.doc(&[&format!("Rules over lists of {w} records.")]);
    ln!(
        f,
        "// Everything below is pure: services and pages call it on what they loaded."
    );
    ln!(f);
    let measure = crate::monorepo::names::pascal_of_kebab(m);

    ctx.begin_api(
        f,
        index,
        "total",
        "model",
        &format!("total{p}{measure}"),
        Function,
    );
    f.doc(&[&format!("The sum of `{m}` over `items`.")]);
    open!(
        f,
        "export function total{p}{measure}(items: readonly {p}[]): number {{"
    );
    let sum = ctx
        .hubs
        .call(f, "sumBy", &format!("items, (item) => item.{m}"));
    ln!(f, "return {sum};");
    close_block(f);

    ctx.begin_api(f, index, "latest", "model", &format!("latest{p}"), Function);
    f.doc(&["The most recently changed record, if there is one."]);
    open!(
        f,
        "export function latest{p}(items: readonly {p}[]): {p} | undefined {{"
    );
    let max = ctx.hubs.call(f, "maxBy", "items, (item) => item.updatedAt");
    ln!(f, "return {max};");
    close_block(f);

    ctx.begin_api(f, index, "index", "model", &format!("index{p}s"), Function);
    f.doc(&["Records by id, for joins."]);
    open!(
        f,
        "export function index{p}s(items: readonly {p}[]): Map<string, {p}> {{"
    );
    let by_id = ctx.hubs.call(f, "indexById", "items");
    ln!(f, "return {by_id};");
    close_block(f);

    ctx.begin_api(
        f,
        index,
        "formatLine",
        "model",
        &format!("format{p}Line"),
        Function,
    );
    f.doc(&["One line of a plain-text report."]);
    open!(f, "export function format{p}Line(item: {p}): string {{");
    let label = ctx.call_api(f, index, "describe", "item");
    let amount = if m == "amountCents" {
        ctx.hubs.call(f, "formatMoney", "item.amountCents, \"EUR\"")
    } else {
        ctx.hubs.call(f, "formatNumber", &format!("item.{m}"))
    };
    let padded = ctx.hubs.call(f, "padRight", &format!("{label}, 56"));
    ln!(
        f,
        "// Padded so that the amounts line up in a fixed-width report."
    );
    ln!(f, "const label = {padded};");
    ln!(f, "return `${{label}} ${{{amount}}}`;");
    close_block(f);

    ctx.begin_api(f, index, "split", "model", &format!("split{p}s"), Function);
    f.doc(&["Live records first, then the others; each part keeps the input order."]);
    signature(
        f,
        &format!("export function split{p}s"),
        &[format!("items: readonly {p}[]")],
        &format!(": [{p}[], {p}[]] {{"),
    );
    let active = ctx.call_api(f, index, "isActive", "item");
    let parts = ctx
        .hubs
        .call(f, "partition", &format!("items, (item) => {active}"));
    ln!(f, "return {parts};");
    close_block(f);

    if let Some(u) = e.upstream.filter(|&u| ctx.entities[u].package != e.package) {
        let up = ctx.entities[u].names.clone();
        ctx.import_entity(f, u, "model", &up.pascal, true);
        let symbol = format!("score{p}With{}", up.pascal);
        ctx.begin_api(f, index, "scoreWith", "model", &symbol, Function);
        f.doc(&[&format!(
            "Ranks a {w} together with the {} it refers to.",
            up.words
        )]);
        signature(
            f,
            &format!("export function {symbol}"),
            &[format!("item: {p}"), format!("other: {}", up.pascal)],
            ": number {",
        );
        let mine = ctx.call_api(f, index, "score", "item");
        let theirs = ctx.call_api(f, u, "score", "other");
        ln!(
            f,
            "// The record's own rank weighs more than the one it refers to."
        );
        ln!(f, "return {mine} * 0.75 + {theirs} * 0.25;");
        close_block(f);
    }

    if e.policies > 0 {
        policies(ctx, f, index);
    }
    if e.dto {
        exporter(ctx, f, index);
    }
}

fn policies(ctx: &mut Ctx<'_>, f: &mut TsFile, index: usize) {
    let e = ctx.entities[index].clone();
    let (p, w, m) = (&e.names.pascal, &e.names.words, e.measure);
    let class = format!("{p}Policy");
    f.doc(&[&format!("A rule a {w} must pass before it goes live.")]);
    open!(f, "export abstract class {class} {{");
    f.doc(&["Short name for audit lines."]);
    ln!(f, "abstract readonly label: string;");
    ln!(f);
    f.doc(&["Whether `item` passes."]);
    ln!(f, "abstract allows(item: {p}): boolean;");
    ln!(f);
    ctx.begin_api(
        f,
        index,
        "policyExplain",
        "model",
        &format!("{class}.explain"),
        Method,
    );
    f.doc(&["A sentence for the audit log."]);
    open!(f, "explain(item: {p}): string {{");
    let label = ctx.call_api(f, index, "describe", "item");
    open!(f, "if (this.allows(item)) {{");
    ln!(f, "return `${{this.label}}: ok`;");
    f.close("}");
    ln!(f, "return `${{this.label}}: rejected ${{{label}}}`;");
    f.close("}");
    close_block(f);

    let mut subclasses = Vec::new();
    for (name, doc) in POLICIES.iter().take(e.policies) {
        let sub = format!("{name}{p}Policy");
        f.doc(&[&format!("A policy that {doc}.")]);
        open!(f, "export class {sub} extends {class} {{");
        ln!(f, "readonly label = \"{}\";", name.to_lowercase());
        ln!(f);
        ctx.begin(f, &format!("{sub}.allows"), Method, Partial);
        open!(f, "allows(item: {p}): boolean {{");
        match *name {
            "Default" => {
                let active = ctx.call_api(f, index, "isActive", "item");
                ln!(f, "return {active} || item.status === {p}Status.Draft;");
            }
            "Strict" => {
                let name_ok = "item.name.trim().length >= 3";
                match e.fields.iter().find(|f| f.ty == FieldType::Text) {
                    Some(field) => {
                        ln!(f, "return {name_ok} && item.{}.length > 0;", field.name)
                    }
                    None => ln!(f, "return {name_ok};"),
                }
            }
            _ => {
                ln!(
                    f,
                    "// Outliers are usually typos; a person should look at them first."
                );
                ln!(f, "return item.{m} >= 0 && item.{m} <= 1_000_000;");
            }
        }
        f.close("}");
        close_block(f);
        subclasses.push(sub);
    }

    ctx.begin_api(
        f,
        index,
        "defaultPolicies",
        "model",
        &format!("default{p}Policies"),
        Function,
    );
    f.doc(&[&format!("The policies a new {w} is checked against.")]);
    open!(f, "export function default{p}Policies(): {class}[] {{");
    let list: Vec<String> = subclasses.iter().map(|s| format!("new {s}()")).collect();
    ln!(f, "return [{}];", list.join(", "));
    close_block(f);

    let symbol = format!("evaluate{p}Policies");
    ctx.begin_api(f, index, "evaluatePolicies", "model", &symbol, Function);
    f.doc(&["The explanations of the policies `item` fails; empty when it passes them all."]);
    signature(
        f,
        &format!("export function {symbol}"),
        &[
            format!("item: {p}"),
            format!("policies: readonly {class}[]"),
        ],
        ": string[] {",
    );
    let explain = ctx.call_method(f, "policy", index, "policyExplain", "item");
    ln!(f, "return policies");
    ln!(f, "  .filter((policy) => !policy.allows(item))");
    ln!(f, "  .map((policy) => {explain});");
    close_block(f);
}

fn exporter(ctx: &mut Ctx<'_>, f: &mut TsFile, index: usize) {
    let e = ctx.entities[index].clone();
    let (p, w, m) = (&e.names.pascal, &e.names.words, e.measure);
    let class = format!("{p}CsvExporter");
    ctx.hubs.value(f, "CsvExporter");
    f.doc(&[&format!("Writes {w} records as CSV for spreadsheets.")]);
    open!(f, "export class {class} extends CsvExporter<{p}> {{");
    ctx.begin(f, &format!("{class}.columns"), Method, Partial);
    open!(f, "protected columns(): string[] {{");
    ln!(f, "return [\"id\", \"name\", \"status\", \"{m}\"];");
    close_block(f);
    ctx.begin(f, &format!("{class}.row"), Method, Partial);
    open!(f, "protected row(item: {p}): string[] {{");
    let number = ctx.hubs.call(f, "formatNumber", &format!("item.{m}"));
    ln!(f, "return [item.id, item.name, item.status, {number}];");
    f.close("}");
    close_block(f);
}
