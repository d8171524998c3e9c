//! `@gen/ui-kit`: function components (`Button`, `Card`, a generic `Table`, …) and hooks the
//! apps render and call. Consumed through `exports` into `dist/` and the `@ui/*` alias.

use std::io;

use super::{Hub, HubFile};
use crate::monorepo::Ctx;
use crate::monorepo::graph::SymKind::{Component, Function};

/// `src/env.d.ts` of every package with components: ambient types for the slice of React
/// the components use, so that the tree type-checks without installing React. An app would
/// get these from `@types/react`.
pub(crate) const REACT_TYPES: &str = r#"/**
 * Ambient types for the part of React this package uses. The real package provides them
 * at build time; these keep type checks self-contained.
 */
declare module "react" {
  export interface ReactElement {
    type: unknown;
    props: unknown;
    key: string | null;
  }
  export type ReactNode = string | number | boolean | null | undefined | ReactElement | ReactNode[];
  export function useState<S>(initial: S): [S, (next: S) => void];
  export function useMemo<T>(factory: () => T, deps: readonly unknown[]): T;
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
}

declare module "react/jsx-runtime" {
  import type { ReactElement, ReactNode } from "react";
  export namespace JSX {
    type Element = ReactElement;
    interface ElementChildrenAttribute {
      children: {};
    }
    interface IntrinsicAttributes {
      key?: string | number;
    }
    interface IntrinsicElements {
      [tag: string]: {
        children?: ReactNode;
        className?: string;
        key?: string | number;
        onClick?: () => void;
        [attribute: string]: unknown;
      };
    }
  }
  export function jsx(type: unknown, props: unknown, key?: unknown): ReactElement;
  export function jsxs(type: unknown, props: unknown, key?: unknown): ReactElement;
  export const Fragment: unique symbol;
}
"#;

pub(super) fn write(ctx: &mut Ctx<'_>) -> io::Result<()> {
    ctx.emit_text("packages/ui-kit/src/env.d.ts", REACT_TYPES)?;
    let mut f = HubFile::new(
        ctx,
        Hub::Ui,
        "classnames",
        "ts",
        &["Joins CSS class names, skipping the conditional ones that are off."],
    );
    f.func("classNames", Function, &[], r#"
/** `classNames("btn", active && "btn-active")` → `"btn btn-active"` or `"btn"`. */
export function classNames(...parts: Array<string | false | null | undefined>): string {
  return parts.filter((part): part is string => typeof part === "string" && part.length > 0).join(" ");
}
"#);
    f.finish()?;
    button(ctx)?;
    simple(ctx)?;
    table(ctx)?;
    hooks(ctx)?;
    let mut f = HubFile::new(ctx, Hub::Ui, "index", "ts", &["Public API of @gen/ui-kit."]);
    f.text(
        r#"
export * from "./classnames";
export * from "./Button";
export * from "./Card";
export * from "./Stack";
export * from "./Text";
export * from "./Badge";
export * from "./EmptyState";
export * from "./Table";
export * from "./hooks";
"#,
    );
    f.finish()
}

fn button(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(ctx, Hub::Ui, "Button", "tsx", &["A button with a tone."]);
    f.import_local("classnames", &["classNames"]);
    f.text(
        r#"
/** The look of a button. */
export type ButtonTone = "primary" | "secondary" | "danger";

export interface ButtonProps {
  label: string;
  tone?: ButtonTone;
  disabled?: boolean;
  onClick: () => void;
}
"#,
    );
    f.func(
        "Button",
        Component,
        &["classNames"],
        r#"
/** A button; when disabled it ignores clicks itself rather than trusting the browser. */
export function Button(props: ButtonProps) {
  const tone = props.tone ?? "primary";
  return (
    <button
      className={classNames("btn", `btn-${tone}`, props.disabled === true && "btn-disabled")}
      onClick={() => {
        if (props.disabled !== true) {
          props.onClick();
        }
      }}
    >
      {props.label}
    </button>
  );
}
"#,
    );
    f.finish()
}

fn simple(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(ctx, Hub::Ui, "Card", "tsx", &["A titled panel."]);
    f.file.ty(
        crate::monorepo::code::SpecKind::Package,
        "react",
        "ReactNode",
    );
    f.text(
        r#"
export interface CardProps {
  title: string;
  subtitle?: string;
  children?: ReactNode;
}
"#,
    );
    f.func(
        "Card",
        Component,
        &[],
        r#"
/** A panel with a heading; the subtitle only renders when given. */
export function Card(props: CardProps) {
  return (
    <section className="card">
      <header>
        <h2>{props.title}</h2>
        {props.subtitle ? <p className="card-subtitle">{props.subtitle}</p> : null}
      </header>
      {props.children}
    </section>
  );
}
"#,
    );
    f.finish()?;

    let mut f = HubFile::new(
        ctx,
        Hub::Ui,
        "Stack",
        "tsx",
        &["Vertical or horizontal layout."],
    );
    f.file.ty(
        crate::monorepo::code::SpecKind::Package,
        "react",
        "ReactNode",
    );
    f.import_local("classnames", &["classNames"]);
    f.text(
        r#"
export interface StackProps {
  gap?: number;
  direction?: "row" | "column";
  children?: ReactNode;
}
"#,
    );
    f.func(
        "Stack",
        Component,
        &["classNames"],
        r#"
/** Lays its children out with a gap (in spacing units, 1 by default). */
export function Stack(props: StackProps) {
  const direction = props.direction ?? "column";
  return (
    <div className={classNames("stack", `stack-${direction}`, `gap-${props.gap ?? 1}`)}>
      {props.children}
    </div>
  );
}
"#,
    );
    f.finish()?;

    let mut f = HubFile::new(
        ctx,
        Hub::Ui,
        "Text",
        "tsx",
        &["Inline text that never overflows."],
    );
    f.import_hub(&["truncate"], false);
    f.text(
        r#"
export interface TextProps {
  value: string;
  muted?: boolean;
  max?: number;
}
"#,
    );
    f.func("Text", Component, &["truncate"], r#"
/** `value`, cut at `max` characters (80 by default). */
export function Text(props: TextProps) {
  return <span className={props.muted ? "text-muted" : "text"}>{truncate(props.value, props.max ?? 80)}</span>;
}
"#);
    f.finish()?;

    let mut f = HubFile::new(ctx, Hub::Ui, "Badge", "tsx", &["Small status labels."]);
    f.import_hub(&["capitalize"], false);
    f.text(
        r#"
/** The colour of a badge. */
export type BadgeTone = "ok" | "muted" | "warn";

export interface BadgeProps {
  label: string;
  tone: BadgeTone;
}
"#,
    );
    f.func(
        "Badge",
        Component,
        &["capitalize"],
        r#"
/** A capitalised label in the colour of its tone. */
export function Badge(props: BadgeProps) {
  return <span className={`badge badge-${props.tone}`}>{capitalize(props.label)}</span>;
}
"#,
    );
    f.finish()?;

    let mut f = HubFile::new(
        ctx,
        Hub::Ui,
        "EmptyState",
        "tsx",
        &["What an empty list shows."],
    );
    f.text(
        r#"
export interface EmptyStateProps {
  message: string;
}
"#,
    );
    f.func(
        "EmptyState",
        Component,
        &[],
        r#"
/** A centred message instead of an empty table. */
export function EmptyState(props: EmptyStateProps) {
  return (
    <div className="empty">
      <p>{props.message}</p>
    </div>
  );
}
"#,
    );
    f.finish()
}

fn table(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(
        ctx,
        Hub::Ui,
        "Table",
        "tsx",
        &["A generic table of rows with ids."],
    );
    f.file.ty(
        crate::monorepo::code::SpecKind::Package,
        "react",
        "ReactNode",
    );
    f.import_local("EmptyState", &["EmptyState"]);
    f.text(
        r#"
export interface TableProps<T extends { id: string }> {
  rows: readonly T[];
  render: (row: T) => ReactNode;
  empty?: string;
}
"#,
    );
    f.func(
        "Table",
        Component,
        &[],
        r#"
/** One row per item, rendered by `render`; an empty state when there are none. */
export function Table<T extends { id: string }>(props: TableProps<T>) {
  if (props.rows.length === 0) {
    return <EmptyState message={props.empty ?? "Nothing here yet"} />;
  }
  return (
    <table className="table">
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.id}>
            <td>{props.render(row)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
"#,
    );
    f.finish()
}

fn hooks(ctx: &mut Ctx<'_>) -> io::Result<()> {
    let mut f = HubFile::new(ctx, Hub::Ui, "hooks", "ts", &["Hooks shared by the apps."]);
    f.file
        .value(crate::monorepo::code::SpecKind::Package, "react", "useMemo");
    f.file.value(
        crate::monorepo::code::SpecKind::Package,
        "react",
        "useState",
    );
    f.func(
        "useToggle",
        Function,
        &[],
        r#"
/** A boolean and a function that flips it. */
export function useToggle(initial = false): [boolean, () => void] {
  const [on, setOn] = useState(initial);
  return [on, () => setOn(!on)];
}
"#,
    );
    f.text(
        r#"
/** The selected item of a list and a way to select another. */
export interface Selection<T> {
  selected: T | undefined;
  select: (id: string | undefined) => void;
}
"#,
    );
    f.func(
        "useSelection",
        Function,
        &[],
        r#"
/** Tracks one selected item of `items` by id; it clears when the item disappears. */
export function useSelection<T extends { id: string }>(items: readonly T[]): Selection<T> {
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const selected = useMemo(() => items.find((item) => item.id === selectedId), [items, selectedId]);
  return { selected, select: setSelectedId };
}
"#,
    );
    f.finish()
}
