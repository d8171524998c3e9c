// Types of the tsgraph package's API (index.js). Answers are the CLI's `--format json`
// objects (README, "Output formats"), or text when another format is asked for.
import { EventEmitter } from 'node:events';

/** An output format: JSON (an object; the default here), or TOON, text or Mermaid (a string). */
export type Format = 'json' | 'toon' | 'text' | 'mermaid';

/** The edge kinds a walk may follow. */
export type EdgeKind =
  | 'CALLS'
  | 'IMPORTS'
  | 'EXTENDS'
  | 'IMPLEMENTS'
  | 'USES_TYPE'
  | 'REFERENCES'
  | 'INCLUDES'
  | 'CONTAINS';

/** The node kinds a search may ask for. */
export type NodeKind =
  | 'File'
  | 'Function'
  | 'Class'
  | 'Method'
  | 'Interface'
  | 'TypeAlias'
  | 'Variable'
  | 'Property'
  | 'Enum';

/** A JSON answer: the CLI's `--format json` object for the question. */
export type Answer = Record<string, unknown>;

/** The formats answered as text. */
export type TextFormat = 'toon' | 'text' | 'mermaid';

/**
 * A query taking options `O` after its positional arguments `A`: an object for JSON (the
 * default), text for the other formats. Overloads, not a generic, so that an option
 * misspelt in an object literal is a type error.
 */
export interface Query<A extends unknown[], O> {
  (...args: [...A, options?: O & { format?: 'json' }]): Promise<Answer>;
  (...args: [...A, options: O & { format: TextFormat }]): Promise<string>;
  (...args: [...A, options: O]): Promise<Answer | string>;
}

/** Token budget and paging of an answer. */
export interface Budget {
  /** Format of the answer (default `json`). */
  format?: Format;
  /** Estimated tokens at most (0: none). Default: none for JSON, 4000 for the others (the CLI's). */
  maxTokens?: number;
  /** Results to skip: a previous answer's `next.offset`. */
  offset?: number;
  /** The `next.generation` the offset came from. */
  generation?: number;
}

export interface TraversalOptions extends Budget {
  /** A file path or suffix narrowing a name to one file. */
  file?: string;
  /** Hops from the symbol (default 100). */
  maxDepth?: number;
  /** Result nodes reached at most (default 10000). */
  maxNodes?: number;
  /** Edge kinds to follow (default: CALLS and INCLUDES for callers and callees; all but CONTAINS for impact). */
  edgeKinds?: EdgeKind[];
}

export interface ChangeImpactOptions extends Budget {
  /** None: uncommitted work; a revision: the working tree against it; `A..B`: between two revisions. */
  diff?: string;
  maxDepth?: number;
  maxNodes?: number;
  edgeKinds?: EdgeKind[];
}

export interface PathOptions {
  format?: Format;
  /** File narrowing `from`. */
  fromFile?: string;
  /** File narrowing `to`. */
  toFile?: string;
  /** How many shortest distinct paths, 1 to 20 (default 1). */
  k?: number;
  /** Longest path searched, in hops (default 20). */
  maxDepth?: number;
  /** Nodes one search visits at most (default 100000). */
  maxNodes?: number;
  edgeKinds?: EdgeKind[];
}

export interface NeighborOptions extends Budget {
  file?: string;
  /** Hops from the center (default 1). */
  distance?: number;
  /** Default `both`. */
  direction?: 'in' | 'out' | 'both';
  maxNodes?: number;
  edgeKinds?: EdgeKind[];
}

export interface SearchOptions extends Budget {
  kinds?: NodeKind[];
  /** A glob over file paths (`src/db/**`). */
  file?: string;
  module?: string;
  package?: string;
  exported?: boolean;
  /** Results returned at most (default 50). */
  limit?: number;
}

export interface PackageDepsOptions {
  format?: Format;
  /** `out` (default): what the package depends on; `in`: who depends on it. */
  direction?: 'in' | 'out';
  /** Hops from the package (default 10). */
  maxDepth?: number;
}

/** A position in a text: zero-based line, zero-based column in UTF-16 code units (LSP's). */
export interface Position {
  line: number;
  character: number;
}

/** An editor's change: `text` replaces `range`, or the whole text when there is no range. */
export interface ContentChange {
  range?: { start: Position; end: Position };
  text: string;
}

/** A node as a delta names it. */
export interface DeltaNode {
  id: string;
  kind: string;
  name: string;
  file: string;
  line: number;
}

/** An edge as a delta names it. */
export interface DeltaEdge {
  source: string;
  kind: EdgeKind;
  target: string;
}

/** What an edit (or a batch of changed files) did to the graph. */
export interface EditDelta {
  kind: 'edit';
  /** Files whose graph was rewritten. */
  relinked: string[];
  /** Wall time from the edit to the commit, in milliseconds. */
  timeMs: number;
  /** The changed files, for an update the watcher made. */
  paths?: string[];
  nodesAdded: DeltaNode[];
  nodesRemoved: DeltaNode[];
  nodesChanged: DeltaNode[];
  edgesAdded: DeltaEdge[];
  edgesRemoved: DeltaEdge[];
  edgesChanged: DeltaEdge[];
}

/** A comparison of the whole project with the store (after a configuration or folder change). */
export interface SyncDelta {
  kind: 'sync';
  checked: number;
  added: string[];
  changed: string[];
  removed: string[];
  relinked: number;
  /** Whether the whole project was indexed again. */
  full: boolean;
  timeMs: number;
  /** What made the watcher sync (paths). */
  because?: string[];
}

/** A watcher's update that failed; the store keeps the graph of before it. */
export interface FailedDelta {
  kind: 'failed';
  message: string;
  timeMs: number;
}

export type Delta = EditDelta | SyncDelta | FailedDelta;

export interface OpenOptions {
  /** The store file (default `<root>/.tsgraph/graph.redb`); a relative path is the root's. */
  db?: string;
}

/** A failure, with the CLI's codes. */
export class TsgraphError extends Error {
  constructor(body: { code: string; message: string; exitCode: number; [detail: string]: unknown });
  /** `not_found`, `ambiguous`, `file_not_found`, `ambiguous_file`, `package_not_found`, `no_project`, `no_sources`, `invalid_argument` or `error`. */
  code: string;
  /** The CLI's exit code for it: 2 for an unknown or ambiguous symbol, file or package, 64 for a bad argument, else 1. */
  exitCode: 1 | 2 | 64;
  /** `ambiguous`: the nodes the name matches. */
  candidates?: unknown[];
  /** `not_found`, `file_not_found`, `package_not_found`: the closest names. */
  suggestions?: string[];
  [detail: string]: unknown;
}

/** An open project: its graph follows the text the editor holds and, when watching, the disk. */
export class Project extends EventEmitter {
  static open(root: string, options?: OpenOptions): Promise<Project>;
  readonly root: string;
  readonly storePath: string;

  /** Symbols whose names match `pattern` (exact, prefix `save*`, glob, or fuzzy). */
  search: Query<[pattern: string], SearchOptions>;
  /** Symbols and files whose names share words with `phrase` (`user store`). */
  topic: Query<[phrase: string], SearchOptions>;
  /** Who calls `symbol`, transitively. */
  callers: Query<[symbol: string], TraversalOptions>;
  /** What `symbol` calls, transitively. */
  callees: Query<[symbol: string], TraversalOptions>;
  /** What depends on `symbol`, over every dependency kind. */
  impact: Query<[symbol: string], TraversalOptions>;
  /** What a git change breaks. */
  changeImpact: Query<[], ChangeImpactOptions>;
  /** How `from` reaches `to`. */
  path: Query<[from: string, to: string], PathOptions>;
  /** What is around `symbol`. */
  neighbors: Query<[symbol: string], NeighborOptions>;
  /** Everything `file` declares. */
  fileSymbols: Query<[file: string], Budget>;
  /** The packages `pkg` depends on, or that depend on it. */
  packageDeps: Query<[pkg: string], PackageDepsOptions>;

  /** Updates run in the order asked for; a query waits for the updates asked before it. */
  applyEdit(path: string, changes: ContentChange[]): Promise<EditDelta>;
  setFileText(path: string, text: string): Promise<EditDelta>;
  closeFile(path: string): Promise<EditDelta>;
  sync(): Promise<SyncDelta>;

  /** Follows the files on disk; each update is a `delta` event. Keeps the process alive until `unwatch` or `close`. */
  watch(): Promise<this>;
  /** No watcher `delta` after this call. */
  unwatch(): Promise<this>;
  close(): Promise<void>;

  on(event: 'delta', listener: (delta: Delta) => void): this;
  once(event: 'delta', listener: (delta: Delta) => void): this;
  off(event: 'delta', listener: (delta: Delta) => void): this;
}
