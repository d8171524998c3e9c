//! `@gen/shared`: small generic helpers nearly every generated file calls, which makes its
//! functions the high fan-in hubs of the call graph. Consumed through its sources (`main`
//! names `src/index.ts`) and through the `@shared/*` path alias.

use std::io;

use super::{Hub, HubFile};
use crate::monorepo::Ctx;
use crate::monorepo::graph::SymKind::{Function, Method};

pub(super) fn write(ctx: &mut Ctx<'_>) -> io::Result<()> {
    strings(ctx)?;
    numbers(ctx)?;
    collections(ctx)?;
    ids(ctx)?;
    errors(ctx)?;
    cache(ctx)?;
    paging(ctx)?;
    result(ctx)?;
    dates(ctx)?;
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "index",
        "ts",
        &["Public API of @gen/shared: small, dependency-free helpers used across the monorepo."],
    );
    f.text(
        r#"
export * from "./strings";
export * from "./numbers";
export * from "./collections";
export * from "./ids";
export * from "./errors";
export * from "./cache";
export * from "./paging";
export * from "./result";
export * from "./dates";
"#,
    );
    f.finish()
}

fn strings(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "strings",
        "ts",
        &[
            "String helpers for labels, slugs and CSV output.",
            "",
            "Everything here is pure and locale-independent on purpose: output must not change",
            "with the machine that renders it.",
        ],
    );
    f.func(
        "truncate",
        Function,
        &[],
        r#"
/** Cuts `text` to at most `max` characters, marking the cut with three dots. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  // Three ASCII dots rather than an ellipsis, so byte and character counts agree in logs.
  return `${text.slice(0, Math.max(0, max - 3))}...`;
}
"#,
    );
    f.func(
        "capitalize",
        Function,
        &[],
        r#"
/** Upper-cases the first letter and leaves the rest alone. */
export function capitalize(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toUpperCase() + text.slice(1);
}
"#,
    );
    f.func(
        "slugify",
        Function,
        &[],
        r#"
/** Lower-case words joined by dashes, for URLs and file names. */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
"#,
    );
    f.func(
        "padRight",
        Function,
        &[],
        r#"
/** Pads `text` with spaces up to `width` characters; longer text is left as it is. */
export function padRight(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}
"#,
    );
    f.func(
        "escapeCsv",
        Function,
        &[],
        r#"
/** Quotes a CSV cell when it holds a separator, a quote or a line break. */
export function escapeCsv(cell: string): string {
  if (!/[",\n]/.test(cell)) {
    return cell;
  }
  return `"${cell.replace(/"/g, '""')}"`;
}
"#,
    );
    f.func(
        "joinCsv",
        Function,
        &["escapeCsv"],
        r#"
/** One CSV line from its cells. */
export function joinCsv(cells: readonly string[]): string {
  return cells.map((cell) => escapeCsv(cell)).join(",");
}
"#,
    );
    f.func(
        "listToText",
        Function,
        &[],
        r#"
/** Joins items the way prose does: "a, b and c". */
export function listToText(items: readonly string[]): string {
  if (items.length <= 1) {
    return items.join("");
  }
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
"#,
    );
    f.finish()
}

fn numbers(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "numbers",
        "ts",
        &["Number formatting and arithmetic helpers."],
    );
    f.func(
        "round",
        Function,
        &[],
        r#"
/** Rounds to `digits` decimals (half away from zero, as people expect on invoices). */
export function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return Math.sign(value) * (Math.round(Math.abs(value) * factor) / factor);
}
"#,
    );
    f.func(
        "clamp",
        Function,
        &[],
        r#"
/** Keeps `value` within `min`..`max`. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
"#,
    );
    f.func(
        "formatNumber",
        Function,
        &["round"],
        r#"
/** Two decimals at most, thousands separated with commas. */
export function formatNumber(value: number): string {
  const [whole, fraction] = round(value, 2).toFixed(2).split(".");
  const grouped = (whole ?? "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === "00" ? grouped : `${grouped}.${fraction}`;
}
"#,
    );
    f.func(
        "formatMoney",
        Function,
        &["formatNumber", "round"],
        r#"
/** Cents as an amount with its currency code: `1,234.50 EUR`. */
export function formatMoney(cents: number, currency: string): string {
  return `${formatNumber(round(cents / 100, 2))} ${currency}`;
}
"#,
    );
    f.func(
        "percent",
        Function,
        &["round"],
        r#"
/** `part` as a percentage of `whole` with one decimal; 0 when `whole` is 0. */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : round((part / whole) * 100, 1);
}
"#,
    );
    f.finish()
}

fn collections(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "collections",
        "ts",
        &[
            "Generic collection helpers.",
            "",
            "They take readonly arrays and return new ones: callers often pass repository results",
            "that other code still holds.",
        ],
    );
    f.func(
        "groupBy",
        Function,
        &[],
        r#"
/** Groups `items` by the key `key` returns; each group keeps the items' order. */
export function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) {
      group.push(item);
    } else {
      groups.set(k, [item]);
    }
  }
  return groups;
}
"#,
    );
    f.func(
        "sortBy",
        Function,
        &[],
        r#"
/** A sorted copy, by the number `rank` gives; highest first when `descending`. */
export function sortBy<T>(items: readonly T[], rank: (item: T) => number, descending = false): T[] {
  const sign = descending ? -1 : 1;
  return [...items].sort((a, b) => sign * (rank(a) - rank(b)));
}
"#,
    );
    f.func(
        "sumBy",
        Function,
        &[],
        r#"
/** The sum of `value` over `items`. */
export function sumBy<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) {
    total += value(item);
  }
  return total;
}
"#,
    );
    f.func(
        "maxBy",
        Function,
        &[],
        r#"
/** The item with the largest `value`, or `undefined` when there are none. */
export function maxBy<T>(items: readonly T[], value: (item: T) => number): T | undefined {
  let best: T | undefined;
  let bestValue = -Infinity;
  for (const item of items) {
    const v = value(item);
    if (v > bestValue) {
      best = item;
      bestValue = v;
    }
  }
  return best;
}
"#,
    );
    f.func(
        "indexById",
        Function,
        &[],
        r#"
/** Items by their `id`; a later item wins over an earlier one with the same id. */
export function indexById<T extends { readonly id: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item] as const));
}
"#,
    );
    f.func(
        "partition",
        Function,
        &[],
        r#"
/** The items that pass `test`, and those that do not. */
export function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) {
    (test(item) ? yes : no).push(item);
  }
  return [yes, no];
}
"#,
    );
    f.func(
        "uniqueBy",
        Function,
        &[],
        r#"
/** The first item of each key, in order. */
export function uniqueBy<T, K>(items: readonly T[], key: (item: T) => K): T[] {
  const seen = new Set<K>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) {
      return false;
    }
    seen.add(k);
    return true;
  });
}
"#,
    );
    f.func(
        "chunk",
        Function,
        &[],
        r#"
/** Splits `items` into runs of `size` (at least 1). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const step = Math.max(1, Math.floor(size));
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += step) {
    chunks.push(items.slice(i, i + step));
  }
  return chunks;
}
"#,
    );
    f.finish()
}

fn ids(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "ids",
        "ts",
        &["Readable unique ids: a prefix, the time and a counter."],
    );
    f.text("let counter = 0;");
    f.func(
        "newId",
        Function,
        &[],
        r#"
/** A new id with a readable prefix, e.g. `retail-order-lq3k9x-17`. */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}
"#,
    );
    f.func(
        "isId",
        Function,
        &[],
        r#"
/** Whether `value` looks like an id made by `newId(prefix)`. */
export function isId(value: string, prefix: string): boolean {
  return value.startsWith(`${prefix}-`) && value.length > prefix.length + 1;
}
"#,
    );
    f.finish()
}

fn errors(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "errors",
        "ts",
        &["Errors with a meaning callers can test for, and the assertions that throw them."],
    );
    f.text(
        r#"
/** Thrown when input breaks an invariant; `field` names the culprit. */
export class ValidationError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "ValidationError";
  }
}

/** Thrown when a lookup by id finds nothing. */
export class NotFoundError extends Error {
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {
    super(`${kind} ${id} not found`);
    this.name = "NotFoundError";
  }
}
"#,
    );
    f.func(
        "assertNonEmpty",
        Function,
        &[],
        r#"
/** Throws unless `value` has a non-blank character. */
export function assertNonEmpty(value: string, field: string): void {
  if (value.trim().length === 0) {
    throw new ValidationError(field, "must not be empty");
  }
}
"#,
    );
    f.func(
        "assertNonNegative",
        Function,
        &[],
        r#"
/** Throws unless `value` is a finite number of at least 0. */
export function assertNonNegative(value: number, field: string): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new ValidationError(field, `must be a non-negative number, got ${value}`);
  }
}
"#,
    );
    f.func(
        "assertDefined",
        Function,
        &[],
        r#"
/** `value`, or a `ValidationError` when it is missing. */
export function assertDefined<T>(value: T | undefined, field: string): T {
  if (value === undefined) {
    throw new ValidationError(field, "is missing");
  }
  return value;
}
"#,
    );
    f.finish()
}

fn cache(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "cache",
        "ts",
        &["A small least-recently-used cache over Map, which iterates in insertion order."],
    );
    f.text(
        r#"
/** A map that forgets its least recently used entries beyond `capacity`. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}
"#,
    );
    f.func(
        "LruCache.get",
        Method,
        &[],
        r#"
  /** The value of `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Re-inserting moves the key to the end of the Map's order: the most recent.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
"#,
    );
    f.func(
        "LruCache.evict",
        Method,
        &[],
        r#"
  private evict(): void {
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) {
        return;
      }
      this.entries.delete(oldest.value);
    }
  }
"#,
    );
    f.func(
        "LruCache.set",
        Method,
        &["LruCache.evict"],
        r#"
  /** Stores `value`, evicting the oldest entries when over capacity. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.evict();
  }
"#,
    );
    f.func(
        "LruCache.delete",
        Method,
        &[],
        r#"
  /** Forgets `key`; whether it was there. */
  delete(key: K): boolean {
    return this.entries.delete(key);
  }
"#,
    );
    f.func(
        "LruCache.size",
        Method,
        &[],
        r#"
  /** Entries held. */
  size(): number {
    return this.entries.size;
  }
}
"#,
    );
    f.finish()
}

fn paging(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "paging",
        "ts",
        &["Pages over in-memory lists."],
    );
    f.import_local("numbers", &["clamp"]);
    f.text(
        r#"
/** One page of a longer list. */
export interface Page<T> {
  items: T[];
  /** Counted from 1. */
  page: number;
  pageCount: number;
  total: number;
}

/** Cuts a list into pages of `size` items. */
export class Paginator<T> {
  constructor(
    private readonly items: readonly T[],
    private readonly size = 20,
  ) {}
"#,
    );
    f.func(
        "Paginator.pageCount",
        Method,
        &[],
        r#"
  /** Pages there are; an empty list still has one (empty) page. */
  pageCount(): number {
    return Math.max(1, Math.ceil(this.items.length / this.size));
  }
"#,
    );
    f.func(
        "Paginator.page",
        Method,
        &["clamp", "Paginator.pageCount"],
        r#"
  /** Page `n`, clamped to the pages there are. */
  page(n: number): Page<T> {
    const page = clamp(Math.floor(n), 1, this.pageCount());
    const start = (page - 1) * this.size;
    return {
      items: this.items.slice(start, start + this.size),
      page,
      pageCount: this.pageCount(),
      total: this.items.length,
    };
  }
}
"#,
    );
    f.finish()
}

fn result(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "result",
        "ts",
        &["A result type for operations whose failure is expected, not exceptional."],
    );
    f.text(
        r#"
/** Either a value or an error. */
export type Result<T, E = Error> = { ok: true; value: T } | { ok: false; error: E };
"#,
    );
    f.func(
        "ok",
        Function,
        &[],
        r#"
/** A successful result. */
export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}
"#,
    );
    f.func(
        "err",
        Function,
        &[],
        r#"
/** A failed result. */
export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}
"#,
    );
    f.func(
        "mapResult",
        Function,
        &["ok"],
        r#"
/** Applies `f` to a successful value; errors pass through. */
export function mapResult<T, U, E>(result: Result<T, E>, f: (value: T) => U): Result<U, E> {
  return result.ok ? ok(f(result.value)) : result;
}
"#,
    );
    f.func(
        "unwrapOr",
        Function,
        &[],
        r#"
/** The value, or `fallback` for an error. */
export function unwrapOr<T, E>(result: Result<T, E>, fallback: T): T {
  return result.ok ? result.value : fallback;
}
"#,
    );
    f.finish()
}

fn dates(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Shared,
        "dates",
        "ts",
        &["Timestamps are milliseconds since the epoch, in UTC, everywhere."],
    );
    f.text("const DAY_MS = 24 * 60 * 60 * 1000;");
    f.func(
        "formatTimestamp",
        Function,
        &[],
        r#"
/** `2024-05-01 13:45:00`: ISO without the `T` and the milliseconds. */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}
"#,
    );
    f.func(
        "startOfDay",
        Function,
        &[],
        r#"
/** Midnight (UTC) of the day `ms` falls on. */
export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
"#,
    );
    f.func(
        "daysBetween",
        Function,
        &["startOfDay"],
        r#"
/** Whole days from `from` to `to`, counting calendar days. */
export function daysBetween(from: number, to: number): number {
  return Math.round((startOfDay(to) - startOfDay(from)) / DAY_MS);
}
"#,
    );
    f.finish()
}
