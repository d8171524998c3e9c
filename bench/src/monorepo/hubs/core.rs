//! `@gen/core`: the base types and classes every library builds on (entities, repositories,
//! services, events, logging, HTTP shapes, exporters). Consumed through `exports` into
//! `dist/` and through the `@core/*` path alias.

use std::io;

use super::{Hub, HubFile};
use crate::monorepo::Ctx;
use crate::monorepo::graph::Sampling::Partial;
use crate::monorepo::graph::SymKind::{Function, Method};

pub(super) fn write(ctx: &mut Ctx<'_>) -> io::Result<()> {
    entity(ctx)?;
    clock(ctx)?;
    logger(ctx)?;
    events(ctx)?;
    repository(ctx)?;
    service(ctx)?;
    http(ctx)?;
    exporter(ctx)?;
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "index",
        "ts",
        &["Public API of @gen/core: what every domain library builds on."],
    );
    f.text(
        r#"
export * from "./entity";
export * from "./clock";
export * from "./logger";
export * from "./events";
export * from "./repository";
export * from "./service";
export * from "./http";
export * from "./exporter";
"#,
    );
    f.finish()
}

fn entity(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "entity",
        "ts",
        &["Entities: records with an identity that outlives their versions."],
    );
    f.text(
        r#"
/** What every stored record has: an id and its timestamps (milliseconds since the epoch). */
export interface Entity<Id extends string = string> {
  readonly id: Id;
  createdAt: number;
  updatedAt: number;
}
"#,
    );
    f.func(
        "touch",
        Function,
        &[],
        r#"
/** A copy of `item` marked as changed at `at`; never earlier than its creation. */
export function touch<T extends Entity>(item: T, at: number): T {
  return { ...item, updatedAt: Math.max(at, item.createdAt) };
}
"#,
    );
    f.func(
        "sameEntity",
        Function,
        &[],
        r#"
/** Whether two records are the same entity, whatever their versions. */
export function sameEntity(a: Entity, b: Entity): boolean {
  return a.id === b.id;
}
"#,
    );
    f.finish()
}

fn clock(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "clock",
        "ts",
        &["The one place that reads the wall clock, so tests can reason about time."],
    );
    f.func(
        "now",
        Function,
        &[],
        r#"
/** Milliseconds since the epoch. */
export function now(): number {
  return Date.now();
}
"#,
    );
    f.func(
        "elapsedSince",
        Function,
        &["now"],
        r#"
/** Milliseconds since `start`. */
export function elapsedSince(start: number): number {
  return now() - start;
}
"#,
    );
    f.finish()
}

fn logger(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "logger",
        "ts",
        &["Structured logging. Entries stay in memory; shipping them is the host's job."],
    );
    f.import_local("clock", &["now"]);
    f.text(
        r#"
/** Severity of a log entry. */
export enum LogLevel {
  Debug = 0,
  Info = 1,
  Warn = 2,
  Error = 3,
}

/** One logged event. */
export interface LogEntry {
  level: LogLevel;
  scope: string;
  message: string;
  data: Record<string, unknown>;
  at: number;
}

/** Where services write what they do. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Keeps entries at or above `level` in memory. */
export class MemoryLogger implements Logger {
  readonly entries: LogEntry[] = [];

  constructor(
    private readonly scope: string,
    private readonly level: LogLevel = LogLevel.Info,
  ) {}
"#,
    );
    f.func(
        "MemoryLogger.write",
        Method,
        &["now"],
        r#"
  private write(level: LogLevel, message: string, data: Record<string, unknown>): void {
    if (level < this.level) {
      return;
    }
    this.entries.push({ level, scope: this.scope, message, data, at: now() });
  }
"#,
    );
    for level in ["debug", "info", "warn", "error"] {
        let symbol: &'static str = match level {
            "debug" => "MemoryLogger.debug",
            "info" => "MemoryLogger.info",
            "warn" => "MemoryLogger.warn",
            _ => "MemoryLogger.error",
        };
        let capital = match level {
            "debug" => "Debug",
            "info" => "Info",
            "warn" => "Warn",
            _ => "Error",
        };
        f.func_with(
            symbol,
            Method,
            Partial,
            &["MemoryLogger.write"],
            &format!(
                r#"
  {level}(message: string, data: Record<string, unknown> = {{}}): void {{
    this.write(LogLevel.{capital}, message, data);
  }}
"#
            ),
        );
    }
    f.text("}");
    f.func(
        "createLogger",
        Function,
        &[],
        r#"
/** A logger for `scope` that keeps entries at or above `level`. */
export function createLogger(scope: string, level: LogLevel = LogLevel.Info): Logger {
  return new MemoryLogger(scope, level);
}
"#,
    );
    f.finish()
}

fn events(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "events",
        "ts",
        &["In-process domain events."],
    );
    f.text(
        r#"
/** Something that happened to an entity. */
export interface DomainEvent<P = unknown> {
  type: string;
  payload: P;
  at: number;
}

/** Receives events. */
export type Listener<E> = (event: E) => void;

/** Delivers events to the listeners subscribed when they are published. */
export class EventBus<E extends DomainEvent> {
  private listeners: Listener<E>[] = [];
"#,
    );
    f.func(
        "EventBus.subscribe",
        Method,
        &[],
        r#"
  /** Adds `listener`; the returned function removes it again. */
  subscribe(listener: Listener<E>): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
"#,
    );
    f.func(
        "EventBus.publish",
        Method,
        &[],
        r#"
  /** Calls every listener with `event`, in subscription order. */
  publish(event: E): void {
    // A copy, so that a listener unsubscribing itself does not make the loop skip one.
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }
"#,
    );
    f.func(
        "EventBus.listenerCount",
        Method,
        &[],
        r#"
  /** Listeners subscribed now. */
  listenerCount(): number {
    return this.listeners.length;
  }
}
"#,
    );
    f.finish()
}

fn repository(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "repository",
        "ts",
        &["Repositories: the storage interface services depend on, and an in-memory base."],
    );
    f.import_local("clock", &["now"]);
    f.import_local("entity", &["touch"]);
    f.file.ty(
        crate::monorepo::code::SpecKind::Relative,
        "./entity",
        "Entity",
    );
    f.text(
        r#"
/** Storage of one kind of entity. */
export interface Repository<T extends Entity<Id>, Id extends string = string> {
  findById(id: Id): Promise<T | undefined>;
  list(filter?: (item: T) => boolean): Promise<T[]>;
  save(item: T): Promise<T>;
  remove(id: Id): Promise<boolean>;
  count(): Promise<number>;
}

/**
 * Keeps entities in a Map. Subclasses say what a valid entity is; saving stamps
 * `updatedAt`, so callers never do it by hand.
 */
export abstract class BaseRepository<T extends Entity<Id>, Id extends string = string>
  implements Repository<T, Id>
{
  protected readonly items = new Map<Id, T>();

  /** The kind of record, for messages. */
  abstract readonly name: string;

  /** Throws when `item` breaks an invariant of its kind. */
  protected abstract validate(item: T): void;
"#,
    );
    f.func_with(
        "BaseRepository.findById",
        Method,
        Partial,
        &[],
        r#"
  async findById(id: Id): Promise<T | undefined> {
    return this.items.get(id);
  }
"#,
    );
    f.func_with(
        "BaseRepository.list",
        Method,
        Partial,
        &[],
        r#"
  async list(filter?: (item: T) => boolean): Promise<T[]> {
    const all = [...this.items.values()];
    return filter ? all.filter((item) => filter(item)) : all;
  }
"#,
    );
    f.func_with(
        "BaseRepository.save",
        Method,
        Partial,
        &["touch", "now"],
        r#"
  async save(item: T): Promise<T> {
    this.validate(item);
    const stored = touch(item, now());
    this.items.set(stored.id, stored);
    return stored;
  }
"#,
    );
    f.func_with(
        "BaseRepository.remove",
        Method,
        Partial,
        &[],
        r#"
  async remove(id: Id): Promise<boolean> {
    return this.items.delete(id);
  }
"#,
    );
    f.func_with(
        "BaseRepository.count",
        Method,
        Partial,
        &[],
        r#"
  async count(): Promise<number> {
    return this.items.size;
  }
}
"#,
    );
    f.finish()
}

fn service(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "service",
        "ts",
        &["The base of every domain service: tracing and failure logging in one place."],
    );
    f.file.ty(
        crate::monorepo::code::SpecKind::Relative,
        "./logger",
        "Logger",
    );
    f.text(
        r#"
/** A service with a logger. */
export abstract class BaseService {
  constructor(protected readonly logger: Logger) {}
"#,
    );
    f.func(
        "BaseService.trace",
        Method,
        &[],
        r#"
  /** Logs an operation at debug level, named after the concrete service. */
  protected trace(operation: string, data: Record<string, unknown> = {}): void {
    this.logger.debug(`${this.constructor.name}.${operation}`, data);
  }
"#,
    );
    f.func(
        "BaseService.fail",
        Method,
        &[],
        r#"
  /** Logs `error` and rethrows it, so that call sites stay one line. */
  protected fail(operation: string, error: unknown): never {
    this.logger.error(`${operation} failed`, { error: String(error) });
    throw error;
  }
}
"#,
    );
    f.finish()
}

fn http(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "http",
        "ts",
        &["Framework-neutral request and response shapes for handlers."],
    );
    f.text(
        r#"
/** What a handler receives. */
export interface Request<B = unknown> {
  params: Record<string, string>;
  query: Record<string, string>;
  body: B;
}

/** What a handler returns. */
export interface Response<T> {
  status: number;
  body: T;
}

/** The body of an error response. */
export interface ErrorBody {
  error: string;
}

/**
 * What remote repositories need from an HTTP client; hosts adapt `fetch` or their client of
 * choice to it. A 404 rejects with the shared `NotFoundError`.
 */
export interface HttpClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
  delete(path: string): Promise<void>;
}
"#,
    );
    f.func(
        "respond",
        Function,
        &[],
        r#"
/** A response with `body`, 200 unless said otherwise. */
export function respond<T>(body: T, status = 200): Response<T> {
  return { status, body };
}
"#,
    );
    f.func(
        "notFound",
        Function,
        &["respond"],
        r#"
/** A 404 naming what was missing. */
export function notFound(kind: string, id: string): Response<ErrorBody> {
  return respond({ error: `${kind} ${id} not found` }, 404);
}
"#,
    );
    f.func(
        "badRequest",
        Function,
        &["respond"],
        r#"
/** A 400 with `message`. */
export function badRequest(message: string): Response<ErrorBody> {
  return respond({ error: message }, 400);
}
"#,
    );
    f.finish()
}

fn exporter(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Core,
        "exporter",
        "ts",
        &["Exporters turn entity lists into files for other tools."],
    );
    f.import_hub(&["joinCsv"], false);
    f.text(
        r#"
/** Renders a list of `T` in one format. */
export interface Exporter<T> {
  readonly format: string;
  render(items: readonly T[]): string;
}

/** CSV with a header line; subclasses choose the columns. */
export abstract class CsvExporter<T> implements Exporter<T> {
  readonly format = "csv";

  /** Header cells. */
  protected abstract columns(): string[];

  /** The cells of one item, in the order of `columns()`. */
  protected abstract row(item: T): string[];
"#,
    );
    f.func_with(
        "CsvExporter.render",
        Method,
        Partial,
        &["joinCsv"],
        r#"
  render(items: readonly T[]): string {
    const lines = [joinCsv(this.columns()), ...items.map((item) => joinCsv(this.row(item)))];
    return lines.join("\n");
  }
}
"#,
    );
    f.finish()
}
