//! The grammar's node kinds and field names, looked up once per grammar as integer ids, so the
//! extractor matches on a small enum instead of comparing kind strings at every node.

use tree_sitter::{Language, Node};

macro_rules! kinds {
    ($( $variant:ident = $text:literal, )+) => {
        /// The node kinds the extractor distinguishes; every other kind is [`K::Other`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum K {
            $( $variant, )+
            /// A kind the extractor does not distinguish.
            Other,
        }

        const NAMED_KINDS: &[(&str, K)] = &[ $( ($text, K::$variant), )+ ];
    };
}

kinds! {
    Program = "program",
    Error = "ERROR",
    Comment = "comment",
    // Statements.
    ExportStatement = "export_statement",
    ImportStatement = "import_statement",
    ImportAlias = "import_alias",
    ExpressionStatement = "expression_statement",
    LexicalDeclaration = "lexical_declaration",
    VariableDeclaration = "variable_declaration",
    VariableDeclarator = "variable_declarator",
    FunctionDeclaration = "function_declaration",
    GeneratorFunctionDeclaration = "generator_function_declaration",
    FunctionSignature = "function_signature",
    ClassDeclaration = "class_declaration",
    AbstractClassDeclaration = "abstract_class_declaration",
    InterfaceDeclaration = "interface_declaration",
    TypeAliasDeclaration = "type_alias_declaration",
    EnumDeclaration = "enum_declaration",
    InternalModule = "internal_module",
    Module = "module",
    AmbientDeclaration = "ambient_declaration",
    StatementBlock = "statement_block",
    ReturnStatement = "return_statement",
    IfStatement = "if_statement",
    ForStatement = "for_statement",
    ForInStatement = "for_in_statement",
    WhileStatement = "while_statement",
    DoStatement = "do_statement",
    SwitchStatement = "switch_statement",
    TryStatement = "try_statement",
    CatchClause = "catch_clause",
    LabeledStatement = "labeled_statement",
    ThrowStatement = "throw_statement",
    ClassStaticBlock = "class_static_block",
    // Module syntax.
    ImportClause = "import_clause",
    NamedImports = "named_imports",
    ImportSpecifier = "import_specifier",
    NamespaceImport = "namespace_import",
    ImportRequireClause = "import_require_clause",
    ExportClause = "export_clause",
    ExportSpecifier = "export_specifier",
    NamespaceExport = "namespace_export",
    // Classes, interfaces, members.
    Class = "class",
    ClassBody = "class_body",
    ClassHeritage = "class_heritage",
    ExtendsClause = "extends_clause",
    ImplementsClause = "implements_clause",
    ExtendsTypeClause = "extends_type_clause",
    InterfaceBody = "interface_body",
    ObjectType = "object_type",
    MethodDefinition = "method_definition",
    MethodSignature = "method_signature",
    AbstractMethodSignature = "abstract_method_signature",
    PublicFieldDefinition = "public_field_definition",
    PropertySignature = "property_signature",
    CallSignature = "call_signature",
    ConstructSignature = "construct_signature",
    IndexSignature = "index_signature",
    EnumBody = "enum_body",
    EnumAssignment = "enum_assignment",
    Decorator = "decorator",
    AccessibilityModifier = "accessibility_modifier",
    OverrideModifier = "override_modifier",
    // Parameters and patterns.
    FormalParameters = "formal_parameters",
    RequiredParameter = "required_parameter",
    OptionalParameter = "optional_parameter",
    ObjectPattern = "object_pattern",
    ArrayPattern = "array_pattern",
    PairPattern = "pair_pattern",
    AssignmentPattern = "assignment_pattern",
    ObjectAssignmentPattern = "object_assignment_pattern",
    ShorthandPropertyIdentifierPattern = "shorthand_property_identifier_pattern",
    RestPattern = "rest_pattern",
    TypeParameters = "type_parameters",
    TypeParameter = "type_parameter",
    TypeArguments = "type_arguments",
    // Expressions.
    Identifier = "identifier",
    PropertyIdentifier = "property_identifier",
    PrivatePropertyIdentifier = "private_property_identifier",
    ShorthandPropertyIdentifier = "shorthand_property_identifier",
    This = "this",
    Super = "super",
    MemberExpression = "member_expression",
    SubscriptExpression = "subscript_expression",
    CallExpression = "call_expression",
    NewExpression = "new_expression",
    Arguments = "arguments",
    ArrowFunction = "arrow_function",
    FunctionExpression = "function_expression",
    GeneratorFunction = "generator_function",
    Object = "object",
    Pair = "pair",
    SpreadElement = "spread_element",
    Array = "array",
    ParenthesizedExpression = "parenthesized_expression",
    NonNullExpression = "non_null_expression",
    AsExpression = "as_expression",
    SatisfiesExpression = "satisfies_expression",
    TypeAssertion = "type_assertion",
    AwaitExpression = "await_expression",
    YieldExpression = "yield_expression",
    TernaryExpression = "ternary_expression",
    BinaryExpression = "binary_expression",
    AssignmentExpression = "assignment_expression",
    AugmentedAssignmentExpression = "augmented_assignment_expression",
    UnaryExpression = "unary_expression",
    UpdateExpression = "update_expression",
    SequenceExpression = "sequence_expression",
    InstantiationExpression = "instantiation_expression",
    String = "string",
    TemplateString = "template_string",
    TemplateSubstitution = "template_substitution",
    Number = "number",
    True = "true",
    False = "false",
    Null = "null",
    Undefined = "undefined",
    Regex = "regex",
    ComputedPropertyName = "computed_property_name",
    JsxElement = "jsx_element",
    JsxSelfClosingElement = "jsx_self_closing_element",
    JsxOpeningElement = "jsx_opening_element",
    JsxExpression = "jsx_expression",
    JsxAttribute = "jsx_attribute",
    NestedIdentifier = "nested_identifier",
    // Types.
    TypeAnnotation = "type_annotation",
    TypeIdentifier = "type_identifier",
    NestedTypeIdentifier = "nested_type_identifier",
    GenericType = "generic_type",
    PredefinedType = "predefined_type",
    UnionType = "union_type",
    IntersectionType = "intersection_type",
    ArrayType = "array_type",
    TupleType = "tuple_type",
    FunctionType = "function_type",
    ConstructorType = "constructor_type",
    ParenthesizedType = "parenthesized_type",
    TypeQuery = "type_query",
    LookupType = "lookup_type",
    LiteralType = "literal_type",
    ReadonlyType = "readonly_type",
    ThisType = "this_type",
    OptionalType = "optional_type",
    RestType = "rest_type",
    TypePredicateAnnotation = "type_predicate_annotation",
    TypePredicate = "type_predicate",
    AssertsAnnotation = "asserts_annotation",
    TemplateLiteralType = "template_literal_type",
    IndexTypeQuery = "index_type_query",
    ConditionalType = "conditional_type",
    InferType = "infer_type",
    MappedTypeClause = "mapped_type_clause",
}

/// Field names the extractor reads, as ids.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    pub(crate) name: u16,
    pub(crate) value: u16,
    pub(crate) body: u16,
    pub(crate) parameters: u16,
    pub(crate) parameter: u16,
    pub(crate) return_type: u16,
    pub(crate) type_parameters: u16,
    pub(crate) type_arguments: u16,
    pub(crate) type_: u16,
    pub(crate) pattern: u16,
    pub(crate) object: u16,
    pub(crate) property: u16,
    pub(crate) function: u16,
    pub(crate) arguments: u16,
    pub(crate) constructor: u16,
    pub(crate) left: u16,
    pub(crate) right: u16,
    pub(crate) operator: u16,
    pub(crate) key: u16,
    pub(crate) source: u16,
    pub(crate) declaration: u16,
    pub(crate) alias: u16,
    pub(crate) index: u16,
    pub(crate) condition: u16,
    pub(crate) consequence: u16,
    pub(crate) alternative: u16,
    pub(crate) kind: u16,
    pub(crate) module: u16,
    pub(crate) constraint: u16,
    pub(crate) handler: u16,
    pub(crate) finalizer: u16,
    pub(crate) argument: u16,
}

/// A grammar with its kind table and field ids.
pub(crate) struct Grammar {
    kinds: Vec<K>,
    pub(crate) f: Fields,
}

impl Grammar {
    pub(crate) fn new(language: Language) -> Grammar {
        let count = language.node_kind_count();
        let mut kinds = vec![K::Other; count];
        for (id, slot) in kinds.iter_mut().enumerate() {
            let Ok(id) = u16::try_from(id) else { break };
            if !language.node_kind_is_named(id) {
                continue;
            }
            let Some(name) = language.node_kind_for_id(id) else {
                continue;
            };
            if let Some((_, kind)) = NAMED_KINDS.iter().find(|(text, _)| *text == name) {
                *slot = *kind;
            }
        }
        let field = |name: &str| {
            language
                .field_id_for_name(name)
                .map(|id| id.get())
                .unwrap_or(u16::MAX)
        };
        let f = Fields {
            name: field("name"),
            value: field("value"),
            body: field("body"),
            parameters: field("parameters"),
            parameter: field("parameter"),
            return_type: field("return_type"),
            type_parameters: field("type_parameters"),
            type_arguments: field("type_arguments"),
            type_: field("type"),
            pattern: field("pattern"),
            object: field("object"),
            property: field("property"),
            function: field("function"),
            arguments: field("arguments"),
            constructor: field("constructor"),
            left: field("left"),
            right: field("right"),
            operator: field("operator"),
            key: field("key"),
            source: field("source"),
            declaration: field("declaration"),
            alias: field("alias"),
            index: field("index"),
            condition: field("condition"),
            consequence: field("consequence"),
            alternative: field("alternative"),
            kind: field("kind"),
            module: field("module"),
            constraint: field("constraint"),
            handler: field("handler"),
            finalizer: field("finalizer"),
            argument: field("argument"),
        };
        Grammar { kinds, f }
    }

    /// The kind of `node`; ERROR nodes are [`K::Error`], anonymous tokens [`K::Other`].
    pub(crate) fn kind(&self, node: Node<'_>) -> K {
        if node.is_error() {
            return K::Error;
        }
        if !node.is_named() {
            return K::Other;
        }
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(K::Other)
    }
}

/// `child_by_field_id`, treating the "no such field" id as no child.
pub(crate) fn field<'t>(node: Node<'t>, id: u16) -> Option<Node<'t>> {
    if id == u16::MAX {
        None
    } else {
        node.child_by_field_id(id)
    }
}
