'use strict';
// tsgraph for JavaScript: a project's code graph, kept fresh with the text an editor holds.
// The native addon does the work off the JavaScript thread; this file gives it the shape a
// Node API has (a class, promises, options objects, errors with codes, events).

const { EventEmitter } = require('node:events');
const path = require('node:path');
const { loadNative } = require('./platform.js');

let native;
function addon() {
  if (!native) native = loadNative();
  return native;
}

/** A failure, with the CLI's error `code` and `exitCode` and the details it gives. */
class TsgraphError extends Error {
  constructor(body) {
    super(body.message);
    this.name = 'TsgraphError';
    for (const [key, value] of Object.entries(body)) {
      if (key !== 'message') this[key] = value;
    }
  }
}

/** Rethrows a native failure (its message is the failure's JSON) as a TsgraphError. */
function rethrow(err) {
  let body;
  try {
    body = JSON.parse(err.message);
  } catch {
    throw err;
  }
  if (body && typeof body.code === 'string') throw new TsgraphError(body);
  throw err;
}

function usage(message) {
  return new TsgraphError({ code: 'invalid_argument', message, exitCode: 64 });
}

function text(name, value) {
  if (typeof value !== 'string') throw usage(`${name} must be a string, not ${typeof value}`);
  return value;
}

function options(value) {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw usage(`options must be an object, not ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value;
}

/** An open project. Events: `delta`, with each change to the graph (see index.d.ts). */
class Project extends EventEmitter {
  /**
   * Opens the project at `root` (its store at `options.db`, default `.tsgraph/graph.redb`
   * under the root) and brings the store up to date with the files, indexing it the first
   * time.
   */
  static async open(root, openOptions) {
    const given = { ...options(openOptions) };
    // A relative store path is the project's, not the process's working folder's.
    if (typeof given.db === 'string') given.db = path.resolve(text('root', root), given.db);
    const inner = await addon()
      .open(text('root', root), JSON.stringify(given))
      .catch(rethrow);
    return new Project(inner);
  }

  constructor(inner) {
    super();
    this._inner = inner;
    this._closed = false;
    // Updates run one after another in the order they were asked for (the edits of one
    // document must apply in order), and a query waits for the updates asked before it.
    this._updates = Promise.resolve();
    this._watching = null;
  }

  /** The project root. */
  get root() {
    return this._inner.root;
  }

  /** The store file. */
  get storePath() {
    return this._inner.storePath;
  }

  async _query(kind, makeArgs) {
    const args = makeArgs();
    const inner = this._live();
    await this._updates;
    const format = args.format === undefined ? 'json' : args.format;
    const answer = await inner.query(kind, JSON.stringify({ ...args, format })).catch(rethrow);
    return format === 'json' ? JSON.parse(answer) : answer;
  }

  /** Symbols whose names match `pattern` (exact, prefix `save*`, glob, or fuzzy). */
  search(pattern, opts) {
    return this._query('search', () => ({ ...options(opts), query: text('pattern', pattern) }));
  }

  /** Symbols and files whose names share words with `phrase` (`user store`). */
  topic(phrase, opts) {
    return this._query('search', () => ({ ...options(opts), topic: text('phrase', phrase) }));
  }

  /** Who calls `symbol`, transitively. */
  callers(symbol, opts) {
    return this._query('callers', () => ({ ...options(opts), symbol: text('symbol', symbol) }));
  }

  /** What `symbol` calls, transitively. */
  callees(symbol, opts) {
    return this._query('callees', () => ({ ...options(opts), symbol: text('symbol', symbol) }));
  }

  /** What depends on `symbol`, over every dependency kind. */
  impact(symbol, opts) {
    return this._query('impact', () => ({ ...options(opts), symbol: text('symbol', symbol) }));
  }

  /** What a git change breaks (`options.diff`: none for uncommitted work, a revision, `A..B`). */
  changeImpact(opts) {
    return this._query('changeImpact', () => options(opts));
  }

  /** How `from` reaches `to` (the k shortest paths with `options.k`). */
  path(from, to, opts) {
    return this._query('path', () => ({ ...options(opts), from: text('from', from), to: text('to', to) }));
  }

  /** What is around `symbol`, within `options.distance` hops. */
  neighbors(symbol, opts) {
    return this._query('neighbors', () => ({ ...options(opts), symbol: text('symbol', symbol) }));
  }

  /** Everything `file` declares. */
  fileSymbols(file, opts) {
    return this._query('fileSymbols', () => ({ ...options(opts), file: text('file', file) }));
  }

  /** The packages `pkg` depends on (`options.direction: 'in'`: that depend on it). */
  packageDeps(pkg, opts) {
    return this._query('packageDeps', () => ({ ...options(opts), package: text('package', pkg) }));
  }

  /** Runs an update after those asked before it; resolves to its outcome, also a `delta` event. */
  _update(start) {
    const run = this._updates.then(async () => {
      const outcome = JSON.parse(await start(this._live()).catch(rethrow));
      // Emitted on the next tick: a listener that throws does so as any event listener
      // does, without failing the update that was applied.
      process.nextTick(() => this.emit('delta', outcome));
      return outcome;
    });
    this._updates = run.catch(() => {});
    return run;
  }

  _live() {
    if (this._closed) throw usage('the project is closed');
    return this._inner;
  }

  /**
   * Applies an editor's unsaved changes to `path` (relative to the root): LSP content
   * changes, `{range: {start, end}, text}` with zero-based lines and UTF-16 columns, or
   * `{text}` for the whole text. Resolves to the change in the graph.
   */
  async applyEdit(path, changes) {
    if (!Array.isArray(changes)) throw usage('changes must be an array of {range?, text}');
    const file = text('path', path);
    const sent = JSON.stringify(changes);
    return this._update((inner) => inner.applyEdit(file, sent));
  }

  /** Sets the whole text of `path` as the editor holds it. */
  async setFileText(path, content) {
    const [file, body] = [text('path', path), text('text', content)];
    return this._update((inner) => inner.setFileText(file, body));
  }

  /** The editor closed `path`: its text on disk counts again. */
  async closeFile(path) {
    const file = text('path', path);
    return this._update((inner) => inner.closeFile(file));
  }

  /** Brings the store up to date with the files on disk. */
  async sync() {
    return this._update((inner) => inner.sync());
  }

  /**
   * Follows the files on disk: each update is a `delta` event. Keeps the process alive
   * until `unwatch` or `close`. Resolves once the watcher runs.
   */
  async watch() {
    const inner = this._live();
    const token = {};
    this._watching = token;
    await inner
      .watch((update) => {
        if (this._watching === token) this.emit('delta', JSON.parse(update));
      })
      .catch(rethrow);
    return this;
  }

  /** Stops following the files on disk: no `delta` from the watcher after this call. */
  async unwatch() {
    this._watching = null;
    await this._inner.unwatch().catch(rethrow);
    return this;
  }

  /** Stops watching; later calls fail. The store is let go when the project is collected. */
  async close() {
    if (this._closed) return;
    this._closed = true;
    await this.unwatch();
  }
}

module.exports = { Project, TsgraphError };
