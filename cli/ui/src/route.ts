// Views live in the address's fragment (`#/callers?id=…&depth=2`): every view is a
// permalink, and the server serves the same page for all of them.

/** A view and its parameters. */
export interface Route {
  view: string;
  params: URLSearchParams;
}

/** The route of the current address. */
export function current(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [view = '', query = ''] = hash.split('?', 2);
  return { view, params: new URLSearchParams(query) };
}

/** The fragment of a view with its parameters (empty ones left out). */
export function link(view: string, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `#/${view}?${text}` : `#/${view}`;
}

/** Goes to a view; `replace` keeps the history as it is (search as you type). */
export function go(fragment: string, replace = false): void {
  if (replace) {
    history.replaceState(null, '', fragment);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = fragment;
  }
}

/** A whole number parameter within bounds, else the default. */
export function numberParam(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const value = Number(params.get(name));
  return Number.isInteger(value) && value >= min && value <= max && params.has(name) ? value : fallback;
}
