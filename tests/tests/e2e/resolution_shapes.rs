//! Calls resolved through the shapes the local type evaluator follows as the checker does:
//! generic interface instances, `extends` chains with type arguments and `this` returns,
//! `this` and parameters typed by context, utility and mapped types, destructured values,
//! members of other expressions, properties typed as another declaration's function, and a
//! package importing itself through a wildcard `exports` entry
//! (tests/fixtures/resolution-shapes; the TypeScript checker agrees with every CALLS edge
//! asserted here but the last, see `a_self_import_through_a_wildcard_export_is_the_published_build`).

use std::collections::BTreeSet;

/// The fixture's edges of one kind, `SOURCE -> TARGET`, indexed afresh.
fn edges(kind: &str) -> BTreeSet<String> {
    tsgraph_tests::fixture_edges("resolution-shapes", kind)
}

/// Fails naming the first of `wanted` missing from `edges`, or of `unwanted` present.
fn check(edges: &BTreeSet<String>, wanted: &[&str], unwanted: &[&str]) {
    for edge in wanted {
        assert!(edges.contains(*edge), "missing {edge}: {edges:#?}");
    }
    for edge in unwanted {
        assert!(!edges.contains(*edge), "unexpected {edge}: {edges:#?}");
    }
}

#[test]
fn members_of_generic_interface_instances_and_their_extends_chains_are_called() {
    check(
        &edges("CALLS"),
        &[
            // `core.Text: Ctor<Text>` through a namespace import.
            "src/generic.ts:build -> src/core.ts:Ctor.init",
            // `TextSchema extends _Text<string>`, `_Text<T> extends Schema<T>`.
            "src/generic.ts:check -> src/core.ts:Schema.refine",
            "src/generic.ts:check -> src/core.ts:_Text.min",
            // `min(): this` returns the receiver's type, whose `parse` is Schema's.
            "src/generic.ts:check -> src/core.ts:Schema.parse",
            "src/generic.ts:strictly -> src/generic.ts:Checked.strict",
            "src/generic.ts:strictly -> src/core.ts:Schema.refine",
            // `this.refine()` in a method of an object typed `TextSchema`.
            "src/generic.ts:lenient.min -> src/core.ts:Schema.refine",
        ],
        &[],
    );
}

#[test]
fn this_and_parameters_are_typed_by_their_context() {
    check(
        &edges("CALLS"),
        &[
            // `ThisType<Counter>` in the parameter the literal is passed to.
            "src/context.ts:counter -> src/context.ts:Counter.increment",
            // `Methods & ThisType<Store>`: the marker's argument, not the rest.
            "src/context.ts:store -> src/context.ts:Store.save",
            // `ThisType<Vm>` on the options whose `methods` hold the literal.
            "src/context.ts:component -> src/context.ts:Vm.refresh",
            // `const hooks: Hooks = { … }`: `this` is `Hooks`, not the literal.
            "src/context.ts:hooks.start -> src/context.ts:Hooks.stop",
            // `register<Widget>("w", (inst) => inst.render())`.
            "src/context.ts:setup -> src/context.ts:Widget.render",
            // `new Registry<Widget>((inst) => inst.render())`.
            "src/context.ts:registerWidgets -> src/context.ts:Widget.render",
            // `{ … } satisfies Hooks`, `{ … } as Hooks`.
            "src/context.ts:plugin.start -> src/context.ts:Hooks.stop",
            "src/context.ts:cast.start -> src/context.ts:Hooks.stop",
            // The innermost wrapper, `<Hooks>`, a property's literal, a default export.
            "src/context.ts:nested.start -> src/context.ts:Hooks.stop",
            "src/context.ts:angled.start -> src/context.ts:Hooks.stop",
            "src/context.ts:registry.hooks.start -> src/context.ts:Hooks.stop",
            "src/context.ts:default.start -> src/context.ts:Hooks.stop",
            // A function in `satisfies Setup`.
            "src/context.ts:setupWidget -> src/context.ts:Widget.render",
        ],
        &[
            "src/context.ts:hooks.start -> src/context.ts:hooks.stop",
            "src/context.ts:plugin.start -> src/context.ts:plugin.stop",
            "src/context.ts:cast.start -> src/context.ts:cast.stop",
            "src/context.ts:registry.hooks.start -> src/context.ts:registry.hooks.stop",
            "src/context.ts:default.start -> src/context.ts:default.stop",
        ],
    );
}

#[test]
fn utility_and_mapped_types_keep_the_members_they_are_built_from() {
    check(
        &edges("CALLS"),
        &[
            "src/utility.ts:picked -> src/utility.ts:Editor.setTool",
            "src/utility.ts:omitted -> src/utility.ts:Editor.undo",
            "src/utility.ts:frozen -> src/utility.ts:Editor.redo",
            "src/utility.ts:frozen -> src/utility.ts:Editor.undo",
            "src/utility.ts:indexed -> src/utility.ts:Editor.setTool",
            "src/utility.ts:returned -> src/utility.ts:Editor.redo",
            "src/utility.ts:awaited -> src/utility.ts:Editor.setTool",
            // `interface History extends Pick<Editor, "undo" | "redo">`.
            "src/utility.ts:rewind -> src/utility.ts:Editor.undo",
            "src/utility.ts:rewind -> src/utility.ts:History.clear",
        ],
        &[],
    );
}

#[test]
fn destructured_values_and_members_of_other_expressions_are_called() {
    check(
        &edges("CALLS"),
        &[
            "src/destructure.ts:title -> src/destructure.ts:translate",
            "src/destructure.ts:Toolbar -> src/destructure.ts:Commands.run",
            "src/destructure.ts:tick -> src/destructure.ts:makeCounter.next",
            "src/destructure.ts:tick -> src/destructure.ts:makeCounter.reset",
            // `getEditor().doc.update()`, `maybe?.doc.update()`, `(<Editor>x).doc.update()`.
            "src/members.ts:edit -> src/members.ts:Doc.update",
            // `(x as Editor).focus()`, `later!.focus()`.
            "src/members.ts:edit -> src/members.ts:Editor.focus",
        ],
        &[],
    );
}

#[test]
fn a_property_typed_as_another_function_calls_that_function() {
    check(
        &edges("CALLS"),
        &[
            "src/props.ts:toolbar -> src/props.ts:App.setActiveTool",
            "src/props.ts:toolbar -> src/props.ts:App.getName",
            "src/props.ts:toolbar -> src/props.ts:defaultBackoff",
            // A function type of its own: the property.
            "src/props.ts:toolbar -> src/props.ts:AppProperties.onChange",
            // `typeof defaultCheck`, annotated `Check`: the checker's signature is Check's.
            "src/props.ts:toolbar -> src/props.ts:RetryOptions.retryCondition",
            // Holding `defaultCheck` is the same: the property.
            "src/props.ts:toolbar -> src/props.ts:holder.check",
        ],
        &[
            "src/props.ts:toolbar -> src/props.ts:AppProperties.setActiveTool",
            "src/props.ts:toolbar -> src/props.ts:defaultCheck",
        ],
    );
}

#[test]
fn a_self_import_through_a_wildcard_export_is_the_published_build() {
    // `@acme/shapes/published` lands on dist/published.d.ts (the declaration beside the
    // dist/published.js the pattern names): outside the sources, as the checker resolves it. `@acme/shapes/unbuilt` has no built
    // declaration, so it reaches the sources (where the checker reports an unresolved module).
    check(
        &edges("IMPORTS"),
        &["src/selfimport.ts -> src/unbuilt.ts"],
        &["src/selfimport.ts -> src/published.ts"],
    );
    check(
        &edges("CALLS"),
        &["src/selfimport.ts:both -> src/unbuilt.ts:unbuiltHelper"],
        &["src/selfimport.ts:both -> src/published.ts:publishedHelper"],
    );
}
