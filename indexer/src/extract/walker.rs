//! The iterative walk over one syntax tree (an explicit stack, no recursion, so deeply nested
//! code cannot overflow the stack). Each frame says what the node's surroundings allow:
//! module-level declarations, members of a class/interface/object, or code in a body.

use std::collections::HashMap;

use tree_sitter::{Node, Tree};
use tsgraph_engine::{EdgeKind, NodeFlags, NodeKind};

use super::signature::{annotation, folded, modifiers, parameters, string_value, text};
use crate::facts::{
    Callee, ExportAlias, FileFacts, Import, ImportBinding, Reference, Symbol, SymbolIndex,
};

/// What kind of place a node sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Module level: declarations become symbols.
    Declarations,
    /// Inside a class body, interface body or object literal bound to a name.
    Members,
    /// Code: only references are collected.
    Body,
}

#[derive(Clone, Copy)]
struct Frame<'t> {
    node: Node<'t>,
    mode: Mode,
    /// The symbol that owns declarations found here.
    owner: SymbolIndex,
    /// The symbol references found here are attributed to.
    scope: SymbolIndex,
    exported: bool,
    default_export: bool,
    /// The node whose lines a declaration found here spans (an enclosing `export` statement).
    range: Option<Node<'t>>,
    /// Inside an ERROR node (declarations may survive only in degraded forms there).
    in_error: bool,
}

/// What a declaration records beyond its kind, name and lines.
#[derive(Debug, Default)]
struct Facts {
    flags: u16,
    visibility: u8,
    parameters: Vec<String>,
    /// Return type of a callable, declared type of a property or variable.
    type_text: String,
}

struct Walk<'t, 's, 'f> {
    source: &'s [u8],
    facts: &'f mut FileFacts,
    stack: Vec<Frame<'t>>,
    by_path: HashMap<String, SymbolIndex>,
}

/// Gives the facts only their File symbol.
pub(super) fn file_only(facts: &mut FileFacts) {
    let name = facts
        .path
        .rsplit('/')
        .next()
        .unwrap_or(&facts.path)
        .to_owned();
    facts.symbols.push(Symbol {
        kind: NodeKind::File,
        name,
        path: String::new(),
        parent: 0,
        start_line: 1,
        end_line: facts.lines.max(1),
        flags: 0,
        visibility: 0,
        parameters: Vec::new(),
        type_text: String::new(),
        locals: Vec::new(),
        local_types: Vec::new(),
        exports_own_name: false,
    });
}

pub(super) fn walk(tree: &Tree, source: &[u8], facts: &mut FileFacts) {
    file_only(facts);
    let root = tree.root_node();
    let mut walk = Walk {
        source,
        facts,
        stack: Vec::new(),
        by_path: HashMap::new(),
    };
    walk.push_children(root, Mode::Declarations, 0, 0, false);
    while let Some(frame) = walk.stack.pop() {
        walk.visit(frame);
    }
    walk.apply_export_aliases();
    for symbol in &mut walk.facts.symbols {
        symbol.locals.sort_unstable();
        symbol.locals.dedup();
    }
}

fn line_of(node: Node<'_>) -> u32 {
    u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX)
}

fn end_line_of(node: Node<'_>) -> u32 {
    u32::try_from(node.end_position().row + 1).unwrap_or(u32::MAX)
}

fn is_function_value(kind: &str) -> bool {
    matches!(
        kind,
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

impl<'t> Walk<'t, '_, '_> {
    fn frame(
        &self,
        node: Node<'t>,
        mode: Mode,
        owner: SymbolIndex,
        scope: SymbolIndex,
    ) -> Frame<'t> {
        Frame {
            node,
            mode,
            owner,
            scope,
            exported: false,
            default_export: false,
            range: None,
            in_error: false,
        }
    }

    /// Pushes the named children of `node` in reverse, so they are visited in source order.
    fn push_children(
        &mut self,
        node: Node<'t>,
        mode: Mode,
        owner: SymbolIndex,
        scope: SymbolIndex,
        in_error: bool,
    ) {
        let start = self.stack.len();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let mut frame = self.frame(child, mode, owner, scope);
            frame.in_error = in_error;
            self.stack.push(frame);
        }
        self.stack[start..].reverse();
    }

    fn push_body(&mut self, node: Option<Node<'t>>, scope: SymbolIndex, in_error: bool) {
        if let Some(node) = node {
            let mut frame = self.frame(node, Mode::Body, scope, scope);
            frame.in_error = in_error;
            self.stack.push(frame);
        }
    }

    /// Modifiers, parameters and return type of a function-like node.
    fn callable_facts(&self, callable: Node<'_>) -> Facts {
        let (flags, visibility) = modifiers(callable, self.source);
        Facts {
            flags,
            visibility,
            parameters: parameters(callable, self.source),
            type_text: annotation(callable.child_by_field_name("return_type"), self.source),
        }
    }

    /// Declares a function or method spanning `node` whose signature and body are on
    /// `callable`, and walks them.
    fn declare_callable(
        &mut self,
        frame: Frame<'t>,
        kind: NodeKind,
        name: String,
        node: Node<'t>,
        callable: Node<'t>,
        facts: Facts,
    ) -> SymbolIndex {
        let index = self.declare(frame, kind, name, node, facts);
        self.push_callable(callable, index, frame.in_error);
        index
    }

    /// Walks a function-like node's parameters and body as code of `scope` (parameters bind
    /// names; their default values may call things).
    fn push_callable(&mut self, callable: Node<'t>, scope: SymbolIndex, in_error: bool) {
        self.bind(scope, callable.child_by_field_name("parameter"));
        self.push_body(callable.child_by_field_name("body"), scope, in_error);
        self.push_body(callable.child_by_field_name("parameters"), scope, in_error);
    }

    fn visit(&mut self, frame: Frame<'t>) {
        let node = frame.node;
        if node.is_error() {
            // Keep what parsed inside: walk the children as if the ERROR node were not there.
            self.push_children(node, frame.mode, frame.owner, frame.scope, true);
            return;
        }
        match frame.mode {
            Mode::Declarations => self.visit_declaration(frame),
            Mode::Members => self.visit_member(frame),
            Mode::Body => self.visit_body(frame),
        }
    }

    fn visit_declaration(&mut self, frame: Frame<'t>) {
        let node = frame.node;
        match node.kind() {
            "export_statement" => self.visit_export(frame),
            "import_statement" => self.record_import(node),
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                self.declare_function(frame, node, node);
            }
            "class_declaration" | "abstract_class_declaration" => {
                self.declare_class(frame, node, None);
            }
            // Inside an ERROR node a declaration often survives only as a named function
            // expression (its `export` keyword swallowed); keep it as the declaration it was.
            "function_expression"
                if frame.in_error && node.child_by_field_name("name").is_some() =>
            {
                self.declare_function(frame, node, node);
            }
            "interface_declaration" => self.declare_interface(frame, node),
            "type_alias_declaration" | "enum_declaration" => {
                let kind = if node.kind() == "enum_declaration" {
                    NodeKind::Enum
                } else {
                    NodeKind::TypeAlias
                };
                if let Some(name) = node.child_by_field_name("name") {
                    let name = text(name, self.source).to_owned();
                    self.declare(
                        frame,
                        kind,
                        name,
                        node,
                        Facts {
                            flags: declaration_flags(&frame),
                            ..Facts::default()
                        },
                    );
                }
            }
            "lexical_declaration" | "variable_declaration" => self.declare_variables(frame, node),
            "ambient_declaration" => {
                let (exported, default_export, range) =
                    (frame.exported, frame.default_export, frame.range);
                let start = self.stack.len();
                self.push_children(
                    node,
                    Mode::Declarations,
                    frame.owner,
                    frame.scope,
                    frame.in_error,
                );
                for child in &mut self.stack[start..] {
                    child.exported = exported;
                    child.default_export = default_export;
                    child.range = range.or(Some(node));
                }
            }
            _ => self.push_children(node, Mode::Body, frame.owner, frame.scope, frame.in_error),
        }
    }

    fn visit_export(&mut self, frame: Frame<'t>) {
        let node = frame.node;
        let default_export = has_token(node, "default");
        if let Some(declaration) = node.child_by_field_name("declaration") {
            let mut inner = self.frame(declaration, Mode::Declarations, frame.owner, frame.scope);
            inner.exported = true;
            inner.default_export = default_export;
            inner.range = Some(node);
            inner.in_error = frame.in_error;
            self.stack.push(inner);
            return;
        }
        if let Some(value) = node.child_by_field_name("value") {
            self.declare_default_value(frame, node, value);
            return;
        }
        if let Some(source) = node.child_by_field_name("source") {
            self.record_reexport(node, source);
            return;
        }
        // `export { a, b as c }`: local names exported, maybe under other names.
        let mut cursor = node.walk();
        let clauses: Vec<Node<'_>> = node
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "export_clause")
            .collect();
        for clause in clauses {
            for (local, exported) in self.export_specifiers(clause) {
                self.facts
                    .export_aliases
                    .push(ExportAlias { local, exported });
            }
        }
    }

    /// `export default <expression>`.
    fn declare_default_value(&mut self, frame: Frame<'t>, statement: Node<'t>, value: Node<'t>) {
        let flags = NodeFlags::EXPORTED | NodeFlags::DEFAULT_EXPORT;
        let mut frame = frame;
        frame.exported = true;
        frame.default_export = true;
        frame.range = Some(statement);
        match value.kind() {
            "identifier" => self.facts.export_aliases.push(ExportAlias {
                local: text(value, self.source).to_owned(),
                exported: "default".to_owned(),
            }),
            kind if is_function_value(kind) => {
                self.declare_function_named(frame, value, value, "default".to_owned());
            }
            "class" => {
                self.declare_class(frame, value, None);
            }
            "object" => {
                let index = self.declare(
                    frame,
                    NodeKind::Variable,
                    "default".to_owned(),
                    statement,
                    Facts {
                        flags,
                        ..Facts::default()
                    },
                );
                self.push_children(value, Mode::Members, index, index, frame.in_error);
            }
            _ => self.push_body(Some(value), frame.scope, frame.in_error),
        }
    }

    fn declare_function(&mut self, frame: Frame<'t>, node: Node<'t>, signature: Node<'t>) {
        let name = node
            .child_by_field_name("name")
            .map(|n| text(n, self.source).to_owned())
            .unwrap_or_else(|| "default".to_owned());
        self.declare_function_named(frame, node, signature, name);
    }

    /// A function symbol for `node` whose parameters, return type and body are on `signature`
    /// (the same node for declarations, the arrow/function value for `const f = …`).
    fn declare_function_named(
        &mut self,
        frame: Frame<'t>,
        node: Node<'t>,
        signature: Node<'t>,
        name: String,
    ) -> SymbolIndex {
        let mut facts = self.callable_facts(signature);
        facts.flags |= declaration_flags(&frame);
        self.declare_callable(frame, NodeKind::Function, name, node, signature, facts)
    }

    /// A class declaration or expression; `bound_name` names a class expression after the
    /// variable it is assigned to (`const Foo = class extends Base {}`).
    fn declare_class(
        &mut self,
        frame: Frame<'t>,
        node: Node<'t>,
        bound_name: Option<String>,
    ) -> SymbolIndex {
        let name = bound_name
            .or_else(|| {
                node.child_by_field_name("name")
                    .map(|n| text(n, self.source).to_owned())
            })
            .unwrap_or_else(|| "default".to_owned());
        let (mut flags, _) = modifiers(node, self.source);
        flags |= declaration_flags(&frame);
        if node.kind() == "abstract_class_declaration" {
            flags |= NodeFlags::ABSTRACT;
        }
        let index = self.declare(
            frame,
            NodeKind::Class,
            name,
            node,
            Facts {
                flags,
                ..Facts::default()
            },
        );
        let mut cursor = node.walk();
        for heritage in node
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "class_heritage")
        {
            let mut clauses = heritage.walk();
            for clause in heritage.named_children(&mut clauses) {
                match clause.kind() {
                    "extends_clause" => {
                        if let Some(value) = clause.child_by_field_name("value") {
                            self.reference_to_type(index, value, EdgeKind::Extends);
                        }
                    }
                    "implements_clause" => {
                        let mut types = clause.walk();
                        for ty in clause.named_children(&mut types) {
                            self.reference_to_type(index, ty, EdgeKind::Implements);
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.push_children(body, Mode::Members, index, index, frame.in_error);
        }
        index
    }

    fn declare_interface(&mut self, frame: Frame<'t>, node: Node<'t>) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = text(name, self.source).to_owned();
        let index = self.declare(
            frame,
            NodeKind::Interface,
            name,
            node,
            Facts {
                flags: declaration_flags(&frame),
                ..Facts::default()
            },
        );
        let mut cursor = node.walk();
        for clause in node
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "extends_type_clause")
        {
            let mut types = clause.walk();
            for ty in clause.named_children(&mut types) {
                self.reference_to_type(index, ty, EdgeKind::Extends);
            }
        }
        if let Some(body) = node.child_by_field_name("body") {
            self.push_children(body, Mode::Members, index, index, frame.in_error);
        }
    }

    fn declare_variables(&mut self, frame: Frame<'t>, node: Node<'t>) {
        let is_const = node
            .child_by_field_name("kind")
            .is_some_and(|k| k.kind() == "const")
            || has_token(node, "const");
        let mut cursor = node.walk();
        let declarators: Vec<Node<'t>> = node
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "variable_declarator")
            .collect();
        let single = declarators.len() == 1;
        for declarator in declarators {
            let range = if single {
                frame.range.unwrap_or(node)
            } else {
                declarator
            };
            let mut inner = frame;
            inner.range = Some(range);
            self.declare_variable(inner, declarator, is_const);
        }
    }

    fn declare_variable(&mut self, frame: Frame<'t>, declarator: Node<'t>, is_const: bool) {
        let value = declarator.child_by_field_name("value");
        let Some(name) = declarator
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier")
        else {
            // Destructuring: no symbol, but calls in the initialiser still count.
            self.push_body(value, frame.scope, frame.in_error);
            return;
        };
        let name = text(name, self.source).to_owned();
        let mut flags = declaration_flags(&frame);
        if is_const {
            flags |= NodeFlags::CONST;
        }
        match value {
            Some(value) if is_function_value(value.kind()) => {
                let index = self.declare_function_named(frame, declarator, value, name);
                self.facts.symbols[index].flags |= flags;
            }
            Some(value) if value.kind() == "class" => {
                let mut class_frame = frame;
                class_frame.range = frame.range.or(Some(declarator));
                let index = self.declare_class(class_frame, value, Some(name));
                self.facts.symbols[index].flags |= flags;
            }
            _ => {
                let ty = annotation(declarator.child_by_field_name("type"), self.source);
                let index = self.declare(
                    frame,
                    NodeKind::Variable,
                    name,
                    declarator,
                    Facts {
                        flags,
                        type_text: ty,
                        ..Facts::default()
                    },
                );
                match value {
                    Some(object) if object.kind() == "object" => {
                        self.push_children(object, Mode::Members, index, index, frame.in_error);
                    }
                    other => self.push_body(other, index, frame.in_error),
                }
            }
        }
    }

    fn visit_member(&mut self, frame: Frame<'t>) {
        let node = frame.node;
        let member_name = |walk: &Self, field: &str| {
            node.child_by_field_name(field)
                .map(|n| member_name_text(n, walk.source))
        };
        match node.kind() {
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                let Some(name) = member_name(self, "name") else {
                    return;
                };
                let facts = self.callable_facts(node);
                self.declare_callable(member(frame), NodeKind::Method, name, node, node, facts);
            }
            "public_field_definition" | "property_signature" => {
                let Some(name) = member_name(self, "name") else {
                    return;
                };
                let (flags, visibility) = modifiers(node, self.source);
                let value = node.child_by_field_name("value");
                match value {
                    Some(value) if is_function_value(value.kind()) => {
                        // `private handle = async () => …`: the field's modifiers, the
                        // arrow's signature.
                        let mut facts = self.callable_facts(value);
                        facts.flags |= flags;
                        facts.visibility = visibility;
                        self.declare_callable(
                            member(frame),
                            NodeKind::Method,
                            name,
                            node,
                            value,
                            facts,
                        );
                    }
                    _ => {
                        let ty = annotation(node.child_by_field_name("type"), self.source);
                        let index = self.declare(
                            member(frame),
                            NodeKind::Property,
                            name,
                            node,
                            Facts {
                                flags,
                                visibility,
                                type_text: ty,
                                ..Facts::default()
                            },
                        );
                        self.push_body(value, index, frame.in_error);
                    }
                }
            }
            "pair" => {
                let Some(name) = member_name(self, "key") else {
                    return;
                };
                match node.child_by_field_name("value") {
                    Some(value) if is_function_value(value.kind()) => {
                        let facts = self.callable_facts(value);
                        self.declare_callable(
                            member(frame),
                            NodeKind::Method,
                            name,
                            node,
                            value,
                            facts,
                        );
                    }
                    other => self.push_body(other, frame.scope, frame.in_error),
                }
            }
            _ => self.push_body(Some(node), frame.scope, frame.in_error),
        }
    }

    fn visit_body(&mut self, frame: Frame<'t>) {
        let node = frame.node;
        match node.kind() {
            "call_expression" => {
                if let Some(callee) = node
                    .child_by_field_name("function")
                    .and_then(|f| self.callee(f))
                {
                    self.reference(frame.scope, callee, EdgeKind::Calls, node);
                }
            }
            "new_expression" => {
                if let Some(callee) = node
                    .child_by_field_name("constructor")
                    .and_then(|f| self.callee(f))
                {
                    self.reference(frame.scope, callee, EdgeKind::Calls, node);
                }
            }
            "variable_declarator" | "required_parameter" | "optional_parameter" => {
                let field = if node.kind() == "variable_declarator" {
                    "name"
                } else {
                    "pattern"
                };
                self.bind(frame.scope, node.child_by_field_name(field));
                self.record_local_type(frame.scope, node, field);
            }
            "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "abstract_class_declaration"
            | "arrow_function" => {
                self.bind(
                    frame.scope,
                    node.child_by_field_name("name")
                        .or_else(|| node.child_by_field_name("parameter")),
                );
            }
            "catch_clause" => self.bind(frame.scope, node.child_by_field_name("parameter")),
            "for_in_statement" => self.bind(frame.scope, node.child_by_field_name("left")),
            "jsx_opening_element" | "jsx_self_closing_element" => {
                let component = node
                    .child_by_field_name("name")
                    .and_then(|name| self.callee(name))
                    .filter(|callee| !matches!(callee, Callee::Name(n) if n.starts_with(|c: char| c.is_ascii_lowercase())));
                if let Some(callee) = component {
                    self.reference(frame.scope, callee, EdgeKind::Includes, node);
                }
            }
            _ => {}
        }
        self.push_children(node, Mode::Body, frame.owner, frame.scope, frame.in_error);
    }

    /// `const s = new UserService(…)`, `const s: UserService = …` and `(s: UserService)`: the
    /// class a local stands for, so `s.save()` can resolve to `UserService.save`.
    fn record_local_type(&mut self, scope: SymbolIndex, binding: Node<'_>, name_field: &str) {
        if scope == 0 {
            return;
        }
        let Some(name) = binding
            .child_by_field_name(name_field)
            .filter(|n| n.kind() == "identifier")
        else {
            return;
        };
        let annotated = binding
            .child_by_field_name("type")
            .and_then(|annotation| annotation.named_child(0))
            .filter(|ty| ty.kind() == "type_identifier");
        let constructed = binding
            .child_by_field_name("value")
            .filter(|value| value.kind() == "new_expression")
            .and_then(|value| value.child_by_field_name("constructor"))
            .filter(|class| class.kind() == "identifier");
        if let Some(class) = annotated.or(constructed) {
            let entry = (
                text(name, self.source).to_owned(),
                text(class, self.source).to_owned(),
            );
            if let Some(symbol) = self.facts.symbols.get_mut(scope) {
                symbol.local_types.push(entry);
            }
        }
    }

    /// Records the names a binding pattern introduces as locals of `scope`. Default values
    /// (`{ a = f() }`) and property keys (`{ key: local }`) are not names bound.
    fn bind(&mut self, scope: SymbolIndex, pattern: Option<Node<'_>>) {
        let Some(pattern) = pattern else { return };
        if scope == 0 {
            // Module-level bindings are the file's own symbols.
            return;
        }
        let mut stack = vec![pattern];
        while let Some(node) = stack.pop() {
            match node.kind() {
                "identifier" | "shorthand_property_identifier_pattern" => {
                    let name = text(node, self.source).to_owned();
                    if let Some(symbol) = self.facts.symbols.get_mut(scope) {
                        symbol.locals.push(name);
                    }
                }
                "assignment_pattern" | "object_assignment_pattern" => {
                    stack.extend(node.child_by_field_name("left"));
                }
                "pair_pattern" => stack.extend(node.child_by_field_name("value")),
                "object_pattern" | "array_pattern" | "rest_pattern" => {
                    let mut cursor = node.walk();
                    stack.extend(node.named_children(&mut cursor));
                }
                _ => {}
            }
        }
    }

    /// How a call's function expression names its target, if it does so plainly.
    fn callee(&self, function: Node<'_>) -> Option<Callee> {
        match function.kind() {
            "identifier" => Some(Callee::Name(text(function, self.source).to_owned())),
            "member_expression" => {
                let object = function.child_by_field_name("object")?;
                let property = function.child_by_field_name("property")?;
                let property = text(property, self.source).to_owned();
                match object.kind() {
                    "this" => Some(Callee::This(property)),
                    "identifier" => Some(Callee::Member(
                        text(object, self.source).to_owned(),
                        property,
                    )),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn reference(&mut self, from: SymbolIndex, callee: Callee, kind: EdgeKind, node: Node<'_>) {
        self.facts.references.push(Reference {
            from,
            callee,
            kind,
            line: line_of(node),
        });
    }

    /// EXTENDS / IMPLEMENTS targets: `Base`, `Base<T>`, `ns.Base`.
    fn reference_to_type(&mut self, from: SymbolIndex, node: Node<'_>, kind: EdgeKind) {
        let target = match node.kind() {
            "generic_type" => node.child_by_field_name("name"),
            _ => Some(node),
        };
        let callee = target.and_then(|t| match t.kind() {
            "identifier" | "type_identifier" => Some(Callee::Name(text(t, self.source).to_owned())),
            "member_expression" => self.callee(t),
            "nested_type_identifier" => {
                let module = t.child_by_field_name("module")?;
                let name = t.child_by_field_name("name")?;
                Some(Callee::Member(
                    text(module, self.source).to_owned(),
                    text(name, self.source).to_owned(),
                ))
            }
            _ => None,
        });
        if let Some(callee) = callee {
            self.reference(from, callee, kind, node);
        }
    }

    fn record_import(&mut self, node: Node<'_>) {
        let Some(source) = node.child_by_field_name("source") else {
            return;
        };
        let mut bindings = Vec::new();
        let mut cursor = node.walk();
        for clause in node
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "import_clause")
        {
            let mut parts = clause.walk();
            for part in clause.named_children(&mut parts) {
                match part.kind() {
                    "identifier" => bindings.push(ImportBinding {
                        imported: "default".to_owned(),
                        local: text(part, self.source).to_owned(),
                    }),
                    "namespace_import" => {
                        let mut ids = part.walk();
                        if let Some(local) = part
                            .named_children(&mut ids)
                            .find(|c| c.kind() == "identifier")
                        {
                            bindings.push(ImportBinding {
                                imported: "*".to_owned(),
                                local: text(local, self.source).to_owned(),
                            });
                        }
                    }
                    "named_imports" => {
                        let mut specs = part.walk();
                        for spec in part
                            .named_children(&mut specs)
                            .filter(|s| s.kind() == "import_specifier")
                        {
                            let Some(name) = spec.child_by_field_name("name") else {
                                continue;
                            };
                            let imported = string_value(name, self.source);
                            let local = spec
                                .child_by_field_name("alias")
                                .map(|a| text(a, self.source).to_owned())
                                .unwrap_or_else(|| imported.clone());
                            bindings.push(ImportBinding { imported, local });
                        }
                    }
                    _ => {}
                }
            }
        }
        self.facts.imports.push(Import {
            specifier: string_value(source, self.source),
            bindings,
            type_only: has_token(node, "type"),
            reexport: false,
            reexport_all: false,
            line: line_of(node),
        });
    }

    /// The `(name, exported as)` pairs of an `export { a, b as c }` clause.
    fn export_specifiers(&self, clause: Node<'_>) -> Vec<(String, String)> {
        let mut cursor = clause.walk();
        let specifiers = clause
            .named_children(&mut cursor)
            .filter(|s| s.kind() == "export_specifier");
        specifiers
            .filter_map(|spec| {
                let name = string_value(spec.child_by_field_name("name")?, self.source);
                let alias = spec
                    .child_by_field_name("alias")
                    .map(|a| string_value(a, self.source));
                Some((name.clone(), alias.unwrap_or(name)))
            })
            .collect()
    }

    fn record_reexport(&mut self, node: Node<'_>, source: Node<'_>) {
        let mut bindings = Vec::new();
        let mut reexport_all = false;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "export_clause" => {
                    for (imported, local) in self.export_specifiers(child) {
                        bindings.push(ImportBinding { imported, local });
                    }
                }
                "namespace_export" => {
                    let mut ids = child.walk();
                    if let Some(local) = child.named_children(&mut ids).next() {
                        bindings.push(ImportBinding {
                            imported: "*".to_owned(),
                            local: string_value(local, self.source),
                        });
                    }
                }
                _ => {}
            }
        }
        if bindings.is_empty() && has_token(node, "*") {
            reexport_all = true;
        }
        self.facts.imports.push(Import {
            specifier: string_value(source, self.source),
            bindings,
            type_only: has_token(node, "type"),
            reexport: true,
            reexport_all,
            line: line_of(node),
        });
    }

    /// Adds a symbol, merging it into an existing one with the same path and kind (overloads,
    /// interface merging, get/set pairs). A different kind under an existing path (a class and
    /// an interface of one name) gets the path `Name~Kind`; a static member declared after an
    /// instance member of its name gets `name~static`, an instance one after a static one
    /// `name~instance`.
    fn declare(
        &mut self,
        frame: Frame<'t>,
        kind: NodeKind,
        name: String,
        node: Node<'t>,
        facts: Facts,
    ) -> SymbolIndex {
        let Facts {
            flags,
            visibility,
            parameters,
            type_text,
        } = facts;
        let parent = frame.owner;
        let range = frame.range.unwrap_or(node);
        let (start_line, end_line) = (line_of(range), end_line_of(range));
        let mut path = match self.facts.symbols.get(parent) {
            Some(owner) if parent != 0 => format!("{}.{name}", owner.path),
            _ => name.clone(),
        };
        if let Some(&existing) = self.by_path.get(&path) {
            let other = &self.facts.symbols[existing];
            let same_side = other.flags & NodeFlags::STATIC == flags & NodeFlags::STATIC;
            if other.kind == kind && same_side {
                let symbol = &mut self.facts.symbols[existing];
                symbol.exports_own_name |= frame.exported && !frame.default_export;
                symbol.start_line = symbol.start_line.min(start_line);
                symbol.end_line = symbol.end_line.max(end_line);
                symbol.flags |= flags;
                if symbol.parameters.is_empty() {
                    symbol.parameters = parameters;
                }
                if symbol.type_text.is_empty() {
                    symbol.type_text = type_text;
                }
                return existing;
            }
            // A static and an instance member may share a name; so may a value and a type.
            let suffix = match (other.kind == kind, flags & NodeFlags::STATIC != 0) {
                (true, true) => "static",
                (true, false) => "instance",
                (false, _) => kind.as_str(),
            };
            path = format!("{path}~{suffix}");
            if let Some(&existing) = self.by_path.get(&path) {
                return existing;
            }
        }
        let index = self.facts.symbols.len();
        self.by_path.insert(path.clone(), index);
        self.facts.symbols.push(Symbol {
            kind,
            name,
            path,
            parent,
            start_line,
            end_line,
            flags,
            visibility,
            parameters,
            type_text,
            locals: Vec::new(),
            local_types: Vec::new(),
            exports_own_name: frame.exported && !frame.default_export,
        });
        index
    }

    /// `export { a as b }` and `export default a` mark the local declarations exported.
    fn apply_export_aliases(&mut self) {
        for alias in &self.facts.export_aliases {
            for symbol in self.facts.symbols.iter_mut().skip(1) {
                if symbol.parent == 0 && symbol.name == alias.local {
                    symbol.flags |= NodeFlags::EXPORTED;
                    symbol.exports_own_name |= alias.exported == alias.local;
                    if alias.exported == "default" {
                        symbol.flags |= NodeFlags::DEFAULT_EXPORT;
                    }
                }
            }
        }
    }
}

/// The frame a member is declared from: members are never module exports themselves.
fn member(frame: Frame<'_>) -> Frame<'_> {
    Frame {
        exported: false,
        default_export: false,
        range: None,
        ..frame
    }
}

fn declaration_flags(frame: &Frame<'_>) -> u16 {
    let mut flags = 0;
    if frame.exported {
        flags |= NodeFlags::EXPORTED;
    }
    if frame.default_export {
        flags |= NodeFlags::DEFAULT_EXPORT;
    }
    flags
}

fn member_name_text(node: Node<'_>, source: &[u8]) -> String {
    match node.kind() {
        "string" => string_value(node, source),
        _ => folded(node, source),
    }
}

fn has_token(node: Node<'_>, token: &str) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .any(|child| !child.is_named() && child.kind() == token)
}
