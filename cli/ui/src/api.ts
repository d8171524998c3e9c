// The server's API: the CLI's queries and the page's own reads. Every request carries the
// session cookie the server set when the page was opened.

/** A node as the JSON answers give it. */
export interface GraphNode {
  id: string;
  kind: string;
  name: string;
  file: string;
  module?: string;
  package?: string;
  startLine: number;
  endLine: number;
  depth?: number;
  distance?: number;
  mayCall?: boolean;
  parameters?: string[];
  returnType?: string;
  exported?: boolean;
}

/** An edge as the JSON answers give it. */
export interface GraphEdge {
  source: string;
  target: string;
  kind: string;
  sites?: number[];
  resolution?: string;
}

/** A failure the server explained. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

async function read(url: string): Promise<Response> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    let body: { error?: { message?: string; code?: string } } = {};
    try {
      body = await response.json();
    } catch {
      // Not JSON: the status says enough.
    }
    const error = body.error ?? {};
    throw new ApiError(
      error.message ?? `${response.status} ${response.statusText}`,
      response.status,
      error.code ?? 'error',
      error as Record<string, unknown>,
    );
  }
  return response;
}

/** The query kinds, as `tsgraph::args::query` names them. */
export type QueryKind =
  | 'search'
  | 'callers'
  | 'callees'
  | 'impact'
  | 'path'
  | 'neighbors'
  | 'fileSymbols'
  | 'packageDeps';

/** A query's URL: its arguments as the MCP tools and the Node addon take them. */
export function queryUrl(kind: QueryKind, args: Record<string, unknown>): string {
  return `/api/query/${kind}?args=${encodeURIComponent(JSON.stringify(args))}`;
}

/** A query's answer as JSON: whole (the server budgets JSON only when `args` asks). */
export async function queryJson<T>(kind: QueryKind, args: Record<string, unknown>): Promise<T> {
  const response = await read(queryUrl(kind, { format: 'json', ...args }));
  return (await response.json()) as T;
}

/** A query's answer as text, exactly as the CLI prints it for the same arguments. */
export async function queryText(kind: QueryKind, args: Record<string, unknown>): Promise<string> {
  const response = await read(queryUrl(kind, args));
  return response.text();
}

/** One of the page's own reads (`/api/tree`, `/api/symbol`, `/api/source`, `/api/info`). */
export async function get<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const response = await read(query.size > 0 ? `${path}?${query}` : path);
  return (await response.json()) as T;
}
