// Pieces every view uses: a symbol's link, the copy bar that gives the CLI's answer to the
// same question, and error display.

import { ApiError, queryText, type QueryKind } from '../api';
import { h } from '../dom';
import { link } from '../route';

/** What a view shows, as the CLI asks it: the query kind and its arguments. */
export interface Question {
  kind: QueryKind;
  args: Record<string, unknown>;
  /** The same question on the command line. */
  command: string;
  /** The formats offered (default TOON, JSON and Mermaid). */
  formats?: Array<'toon' | 'json' | 'mermaid' | 'text'>;
}

/** A link to a symbol's page, with its kind. */
export function symbolLink(node: { id: string; name: string; kind: string }): HTMLElement {
  return h(
    'a',
    { class: 'symbol', href: link('symbol', { id: node.id }), title: node.id, 'data-id': node.id },
    h('span', { class: `kind kind-${node.kind}` }, kindLetter(node.kind)),
    node.kind === 'File' ? node.id : node.name,
  );
}

/** A one- or two-letter badge for a node kind. */
export function kindLetter(kind: string): string {
  const letters: Record<string, string> = {
    File: 'F', Function: 'fn', Class: 'C', Method: 'm', Interface: 'I',
    TypeAlias: 'T', Variable: 'v', Property: 'p', Enum: 'E',
  };
  return letters[kind] ?? kind.slice(0, 2);
}

/** `file:line`. */
export function place(node: { file: string; startLine: number }): string {
  return `${node.file}:${node.startLine}`;
}

/** Quotes an argument for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The copy bar: each button fetches the CLI's answer to the view's question in that format
 * (its default budget too), shows it and puts it on the clipboard.
 */
export function copyBar(question: Question): HTMLElement {
  const output = h('pre', { class: 'copied', id: 'copied', hidden: true });
  const status = h('span', { class: 'copy-status', id: 'copy-status' });
  const buttons = (question.formats ?? ['toon', 'json', 'mermaid']).map((format) =>
    h(
      'button',
      {
        type: 'button',
        'data-format': format,
        onclick: async () => {
          status.textContent = '…';
          try {
            const text = await queryText(question.kind, { ...question.args, format });
            output.textContent = text;
            output.hidden = false;
            try {
              await navigator.clipboard.writeText(text);
              status.textContent = `${format.toUpperCase()} copied`;
            } catch {
              status.textContent = `${format.toUpperCase()} shown below (the clipboard refused)`;
            }
          } catch (error) {
            status.textContent = String((error as Error).message);
          }
        },
      },
      `Copy as ${format === 'toon' ? 'TOON' : format === 'json' ? 'JSON' : format === 'mermaid' ? 'Mermaid' : 'text'}`,
    ),
  );
  return h(
    'section',
    { class: 'copybar' },
    h('code', { class: 'command', title: 'The same question on the command line' }, question.command),
    ...buttons,
    status,
    output,
  );
}

/** An error as a view shows it: the server's message, and suggestions when it has some. */
export function errorBox(error: unknown): HTMLElement {
  const box = h('div', { class: 'error', role: 'alert' });
  box.append(error instanceof Error ? error.message : String(error));
  if (error instanceof ApiError) {
    const suggestions = (error.details.suggestions ?? error.details.candidates) as unknown;
    if (Array.isArray(suggestions) && suggestions.length > 0) {
      box.append(h('div', { class: 'suggestions' }, 'Did you mean: ', ...suggestions.flatMap((s, i) => [
        i > 0 ? ', ' : '',
        typeof s === 'string' ? h('a', { href: link('symbol', { id: s }) }, s) : '',
      ])));
    }
  }
  return box;
}

/** A labelled figure: `12 direct`. */
export function figure(value: unknown, label: string): HTMLElement {
  return h('span', { class: 'figure' }, h('b', {}, String(value ?? 0)), ` ${label}`);
}
