//! Names in type positions resolve as the checker resolves them: through type-only imports
//! used as qualifiers, and to the type meaning of an imported name that is also a value or a
//! namespace (tests/fixtures/type-positions).

use std::collections::BTreeSet;

/// Edges of one kind, `SOURCE -> TARGET`, of the fixture indexed afresh.
fn edges(kind: &str) -> BTreeSet<String> {
    tsgraph_tests::fixture_edges("type-positions", kind)
}

/// Fails naming the first of `wanted` missing from `edges`.
fn has(edges: &BTreeSet<String>, wanted: &[&str]) {
    for edge in wanted {
        assert!(edges.contains(*edge), "missing {edge}: {edges:#?}");
    }
}

#[test]
fn type_only_imports_resolve_as_qualifiers() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            "src/types-only.ts:describe -> src/core.ts:Def",
            "src/types-only.ts:describe -> src/core.ts:Chat.Message",
            // `core.File.Info`: File's namespace meaning; `core.File`: its interface.
            "src/qualified.ts:stat -> src/core.ts:File.Info",
            "src/qualified.ts:stat -> src/core.ts:File",
        ],
    );
}

#[test]
fn an_imported_name_with_a_value_meaning_resolves_to_its_type_in_type_positions() {
    let implements = edges("IMPLEMENTS");
    assert!(
        implements.contains("src/both.ts:Square -> src/core.ts:Shape~Interface"),
        "{implements:#?}"
    );
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            "src/both.ts:measure -> src/core.ts:Shape~Interface",
            // Point's namespace is not a node: the interface has the plain ID.
            "src/both.ts:measure -> src/core.ts:Point",
            // Chat's namespace comes after its interface.
            "src/both.ts:measure -> src/core.ts:Chat",
            // `value is Shape`: the type a predicate narrows to.
            "src/both.ts:isShape -> src/core.ts:Shape~Interface",
        ],
    );
    let calls = edges("CALLS");
    assert!(
        calls.contains("src/both.ts:measure -> src/core.ts:Shape.area"),
        "{calls:#?}"
    );
}

#[test]
fn a_type_alias_uses_the_types_its_definition_names() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            "src/core.ts:Handler -> src/core.ts:Def",
            "src/core.ts:Handler -> src/core.ts:Shape~Interface",
            "src/core.ts:Either -> src/core.ts:Def",
            "src/core.ts:Either -> src/core.ts:Chat",
            "src/core.ts:Options.def -> src/core.ts:Def",
        ],
    );
    // The member names it; the alias that owns the member does not as well.
    assert!(
        !uses.contains("src/core.ts:Options -> src/core.ts:Def"),
        "{uses:#?}"
    );
}

#[test]
fn a_signature_in_an_annotation_is_credited_to_what_it_annotates() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            "src/core.ts:run -> src/core.ts:Def",
            "src/core.ts:run -> src/core.ts:Chat",
            "src/core.ts:Config.enhance -> src/core.ts:Shape~Interface",
            "src/core.ts:Config.enhance -> src/core.ts:Def",
        ],
    );
    // Neither the module nor the interface that owns the property.
    for edge in [
        "src/core.ts -> src/core.ts:Def",
        "src/core.ts:Config -> src/core.ts:Shape~Interface",
        "src/core.ts:Config -> src/core.ts:Def",
    ] {
        assert!(!uses.contains(edge), "wrongly {edge}: {uses:#?}");
    }
}

#[test]
fn the_type_arguments_of_a_heritage_clause_are_uses() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            "src/core.ts:DefBox -> src/core.ts:Def",
            "src/core.ts:ChatBox -> src/core.ts:Chat",
        ],
    );
    let extends = edges("EXTENDS");
    assert!(
        extends.contains("src/core.ts:DefBox -> src/core.ts:Box"),
        "{extends:#?}"
    );
    let implements = edges("IMPLEMENTS");
    assert!(
        implements.contains("src/core.ts:ChatBox -> src/core.ts:Box"),
        "{implements:#?}"
    );
}

#[test]
fn conditional_mapped_and_keyof_types_name_their_parts() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            "src/computed.ts:Unwrap -> src/core.ts:Def",
            "src/computed.ts:Unwrap -> src/core.ts:Chat",
            "src/computed.ts:Flags -> src/core.ts:Def",
            "src/computed.ts:Keys -> src/core.ts:Chat",
            "src/computed.ts:Registry -> src/core.ts:Def",
        ],
    );
    // An inferred name and a mapped key are the type's own, not the interface `Item`; an
    // inferred name's constraint is not a use.
    for edge in [
        "src/computed.ts:Unwrap -> src/computed.ts:Item",
        "src/computed.ts:Flags -> src/computed.ts:Item",
        "src/computed.ts:FirstKey -> src/computed.ts:Keyed",
    ] {
        assert!(!uses.contains(edge), "wrongly {edge}: {uses:#?}");
    }
}

#[test]
fn a_function_valued_field_uses_its_annotation_and_is_typed_by_it() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &["src/fields.ts:View.render -> src/fields.ts:Renderer"],
    );
    let calls = edges("CALLS");
    has(
        &calls,
        &["src/fields.ts:View.render -> src/fields.ts:Doc.title"],
    );
}

#[test]
fn call_type_arguments_and_casts_are_no_uses() {
    let uses = edges("USES_TYPE");
    let from_quiet: Vec<&String> = uses
        .iter()
        .filter(|edge| edge.starts_with("src/quiet.ts"))
        .collect();
    assert!(from_quiet.is_empty(), "{from_quiet:#?}");
}

#[test]
fn an_interface_extending_an_alias_extends_the_alias() {
    let extends = edges("EXTENDS");
    has(
        &extends,
        &[
            "src/heritage.ts:Combined -> src/heritage.ts:Both",
            "src/heritage.ts:Measured -> src/heritage.ts:Sized",
        ],
    );
    let wrong: Vec<&String> = extends
        .iter()
        .filter(|edge| {
            edge.starts_with("src/heritage.ts:Trimmed ")
                || edge.starts_with("src/heritage.ts:Combined -> src/core.ts")
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    // The alias's members are still the interface's.
    let calls = edges("CALLS");
    has(
        &calls,
        &["src/heritage.ts:measure -> src/core.ts:Shape.area"],
    );
}

#[test]
fn a_class_implementing_an_alias_implements_the_alias() {
    let implements = edges("IMPLEMENTS");
    has(
        &implements,
        &[
            "src/heritage.ts:PartReader -> src/heritage.ts:ReadOnly",
            "src/heritage.ts:FullReader -> src/heritage.ts:Reader",
            "src/heritage.ts:FullReader.read -> src/heritage.ts:Reader.read",
            "src/heritage.ts:Door -> src/heritage.ts:Closer",
            "src/heritage.ts:Door.close -> src/heritage.ts:Closer.close",
        ],
    );
    for edge in [
        "src/heritage.ts:PartReader -> src/heritage.ts:Reader",
        "src/heritage.ts:PartReader.read -> src/heritage.ts:Reader.read",
    ] {
        assert!(
            !implements.contains(edge),
            "wrongly {edge}: {implements:#?}"
        );
    }
}

#[test]
fn a_call_through_an_alias_of_a_built_in_reaches_no_project_node() {
    let calls = edges("CALLS");
    let from_probe: Vec<&String> = calls
        .iter()
        .filter(|edge| edge.starts_with("src/aliases.ts:probe "))
        .collect();
    assert!(from_probe.is_empty(), "{from_probe:#?}");
}

#[test]
fn a_destructured_function_from_a_factory_is_called() {
    let calls = edges("CALLS");
    has(
        &calls,
        &[
            "src/destructure.ts:useTools -> src/destructure.ts:makeTools",
            "src/destructure.ts:useTools -> src/destructure.ts:makeTools.build",
        ],
    );
}

#[test]
fn a_global_augmentation_declares_nothing_of_the_file() {
    let uses = edges("USES_TYPE");
    let contains = edges("CONTAINS");
    let from_globals: Vec<&String> = uses
        .iter()
        .chain(contains.iter())
        .filter(|edge| edge.contains("src/globals.ts:Window") || edge.contains("appCache"))
        .collect();
    assert!(from_globals.is_empty(), "{from_globals:#?}");
    assert!(contains.contains("src/globals.ts -> src/globals.ts:here"));
}

#[test]
fn labeled_tuple_elements_use_their_types() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            "src/tuples.ts:query -> src/core.ts:Def",
            "src/tuples.ts:query -> src/core.ts:Chat",
            "src/tuples.ts:Pair -> src/core.ts:Def",
            "src/tuples.ts:Pair -> src/core.ts:Chat",
        ],
    );
}

#[test]
fn computed_member_keys_match_by_the_symbol_they_name() {
    let implements = edges("IMPLEMENTS");
    has(
        &implements,
        &[
            // `[Keys.TypeId]` and `[TypeId]` name the interface's `[TypeId]` constant.
            "src/keys-impl.ts:Written.[Keys.TypeId] -> src/keys.ts:Message.[TypeId]",
            "src/keys-impl.ts:Written.[Keys.OtherId] -> src/keys.ts:Message.[OtherId]",
            // The internal constant is typed `typeof` the public one: the same symbol.
            "src/keys-impl.ts:Aliased.[TypeId] -> src/keys.ts:Message.[TypeId]",
            "src/keys-impl.ts:Aliased.[Keys.OtherId] -> src/keys.ts:Message.[OtherId]",
            // A string constant: the same declaration, or the same text.
            "src/keys-impl.ts:Aliased.[Keys.NAME_KEY] -> src/keys.ts:Message.[NAME_KEY]",
            "src/keys-impl.ts:Written.[NAME_KEY] -> src/keys.ts:Message.[NAME_KEY]",
        ],
    );
    // A local constant named like the interface's key is another key.
    assert!(
        !implements.contains("src/keys-impl.ts:Written.[OtherId] -> src/keys.ts:Message.[OtherId]"),
        "{implements:#?}"
    );
}

#[test]
fn signatures_of_every_form_are_uses_of_their_declaration() {
    let uses = edges("USES_TYPE");
    has(
        &uses,
        &[
            // A type literal's call signatures, annotating `wrap`, are wrap's.
            "src/signatures.ts:wrap -> src/signatures.ts:In",
            "src/signatures.ts:wrap -> src/signatures.ts:Out",
            // A construct signature's parameter and result, an index signature's value.
            "src/signatures.ts:Factory -> src/signatures.ts:In",
            "src/signatures.ts:Factory -> src/signatures.ts:Made",
            "src/signatures.ts:Factory -> src/core.ts:Def",
            // Every namespace of a nested name is kept in its ID.
            "src/signatures.ts:deep -> src/signatures.ts:Outer.Inner.Leaf",
        ],
    );
    // `first<Made>(items: Made[])`: the type parameter, not the interface of that name.
    assert!(
        !uses.contains("src/signatures.ts:first -> src/signatures.ts:Made"),
        "{uses:#?}"
    );
}

#[test]
fn a_factory_base_and_an_accessor_signature_are_followed_as_the_checker_does() {
    let extends = edges("EXTENDS");
    assert!(
        extends.contains("src/signatures.ts:User -> src/signatures.ts:Entity"),
        "{extends:#?}"
    );
    let implements = edges("IMPLEMENTS");
    has(
        &implements,
        &[
            "src/signatures.ts:Box -> src/signatures.ts:Sized",
            "src/signatures.ts:Box.size -> src/signatures.ts:Sized.size",
        ],
    );
}
