//! A file's interface: what other files can observe of it — its imports and exports, its
//! module-level declarations with their members, types, signatures and heritage, and the
//! expressions their types are inferred from. Two summaries with the same interface hash
//! resolve every other file the same way, so an edit that keeps the hash (a change inside a
//! function body whose return type is declared, a comment, a moved line) re-links only the
//! edited file.
//!
//! The hash is over structure and names, never over positions or the ids a summary gives its
//! declarations, so it does not change when code moves or locals are added.

use std::collections::{HashMap, HashSet};
use std::hash::Hasher;

use xxhash_rust::xxh3::Xxh3;

pub(crate) use crate::export_change::ExportChange;
use crate::facts::{
    BindingTarget, Decl, DeclId, Expr, ExprId, FileFacts, MODULE_SCOPE, TypeExpr, TypeId,
};

/// How deep declarations, expressions and types are followed (they can refer to each other).
const MAX_DEPTH: u32 = 24;

/// A file's interface: its hash, and the imports it exposes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Interface {
    pub(crate) hash: u64,
    /// The imports (indices into the file's imports, ascending) the interface refers to:
    /// re-exports, and imported names an export's type, signature, heritage or inferred value
    /// mentions. What another file sees of this one can change when one of those modules
    /// changes its interface; through its other imports it cannot.
    pub(crate) exposed_imports: Vec<u32>,
}

/// The interface hash of a file's summary.
#[cfg(test)]
pub(crate) fn interface_hash(facts: &FileFacts) -> u64 {
    interface_of(facts).hash
}

/// The interface of a file's summary.
pub(crate) fn interface_of(facts: &FileFacts) -> Interface {
    let mut hasher = InterfaceHasher::new(facts);
    hasher.file();
    let mut exposed = hasher.exposed;
    exposed.sort_unstable();
    exposed.dedup();
    Interface {
        hash: hasher.state.finish(),
        exposed_imports: exposed,
    }
}

struct InterfaceHasher<'f> {
    facts: &'f FileFacts,
    state: Xxh3,
    /// Module-level names the hashed part refers to, whose declarations are hashed next.
    wanted: Vec<u32>,
    /// Module-level names already hashed.
    hashed: HashSet<u32>,
    /// Imports the hashed part refers to.
    exposed: Vec<u32>,
}

/// What changed in what the file of `old` exports, now that its summary is `new`.
pub(crate) fn export_change(old: &FileFacts, new: &FileFacts) -> ExportChange {
    let (Some((old_stars, old)), Some((new_stars, new))) = (export_hashes(old), export_hashes(new))
    else {
        return ExportChange::All;
    };
    if old_stars != new_stars {
        return ExportChange::All;
    }
    let mut change = ExportChange::none();
    for (name, _) in old
        .iter()
        .filter(|(name, hash)| new.get(*name) != Some(*hash))
    {
        change.add(name);
    }
    for name in new.keys().filter(|name| !old.contains_key(*name)) {
        change.add(name);
    }
    change
}

/// A hash of every class and interface of the file, exported or not, with its heritage and
/// members (as [`interface_of`] hashes them): when it is the same for two summaries, calls
/// through those classes and interfaces dispatch as they did.
pub(crate) fn classes_hash(facts: &FileFacts) -> u64 {
    let mut hasher = InterfaceHasher::new(facts);
    for (index, decl) in facts.decls.iter().enumerate() {
        if matches!(
            decl.node,
            Some(tsgraph_engine::NodeKind::Class | tsgraph_engine::NodeKind::Interface)
        ) {
            hasher.decl(DeclId::try_from(index).unwrap_or(DeclId::MAX), 0);
        }
    }
    hasher.declarations_wanted();
    hasher.state.finish()
}

/// Each exported name's own interface hash (what it reaches, as [`interface_of`] hashes the
/// whole), and a hash of the modules re-exported whole; none for a script, whose every
/// declaration is a global.
fn export_hashes(facts: &FileFacts) -> Option<(u64, HashMap<String, u64>)> {
    if facts.imports.is_empty() && facts.exports.is_empty() {
        return None;
    }
    let mut names: HashMap<String, u64> = HashMap::new();
    let mut add = |name: &str, hash: u64| {
        names
            .entry(name.to_owned())
            .and_modify(|h| *h = h.rotate_left(7) ^ hash)
            .or_insert(hash);
    };
    for export in &facts.exports {
        let mut hasher = InterfaceHasher::new(facts);
        hasher.export(export);
        hasher.declarations_wanted();
        add(facts.name(export.exported), hasher.state.finish());
    }
    let mut stars = Xxh3::new();
    for import in facts.imports.iter().filter(|i| i.reexport) {
        if import.reexport_all {
            stars.write(import.specifier.as_bytes());
            stars.write_u8(0xff);
            continue;
        }
        for binding in &import.bindings {
            let mut hasher = InterfaceHasher::new(facts);
            hasher.str(&import.specifier);
            hasher.name(binding.imported);
            hasher.tag(u8::from(import.type_only));
            add(facts.name(binding.local), hasher.state.finish());
        }
    }
    Some((stars.finish(), names))
}

impl<'f> InterfaceHasher<'f> {
    fn new(facts: &'f FileFacts) -> InterfaceHasher<'f> {
        InterfaceHasher {
            facts,
            state: Xxh3::new(),
            wanted: Vec::new(),
            hashed: HashSet::new(),
            exposed: Vec::new(),
        }
    }

    /// The walk stopped at [`MAX_DEPTH`]: what lies deeper may name any import, so every one
    /// counts as exposed (the resolver follows further than the hash does).
    fn cut_off(&mut self) {
        let count = u32::try_from(self.facts.imports.len()).unwrap_or(u32::MAX);
        self.exposed.extend(0..count);
    }

    fn str(&mut self, text: &str) {
        self.state.write(text.as_bytes());
        self.state.write_u8(0xff);
    }

    fn name(&mut self, name: u32) {
        let text = self.facts.name(name);
        self.str(text);
    }

    fn tag(&mut self, tag: u8) {
        self.state.write_u8(tag);
    }

    fn file(&mut self) {
        let facts = self.facts;
        for (index, import) in facts.imports.iter().enumerate() {
            if import.reexport {
                self.exposed.push(u32::try_from(index).unwrap_or(u32::MAX));
            }
            self.tag(1);
            self.str(&import.specifier);
            self.tag(
                u8::from(import.reexport)
                    | u8::from(import.reexport_all) << 1
                    | u8::from(import.type_only) << 2,
            );
            for binding in &import.bindings {
                self.name(binding.imported);
                self.name(binding.local);
            }
        }
        for export in &facts.exports {
            self.export(export);
        }
        // A script (no import, no export) declares globals every file sees: all of its
        // declarations are its interface. A module's are the declarations its exports reach
        // through names (a type, an inferred initializer or return), so a new helper that no
        // export uses re-links no importer.
        let is_script = facts.imports.is_empty() && facts.exports.is_empty();
        if is_script {
            self.all_module_declarations();
        } else {
            self.declarations_wanted();
        }
    }

    fn export(&mut self, export: &crate::facts::Export) {
        self.tag(2);
        self.name(export.exported);
        match export.target {
            crate::facts::ExportTarget::Local(name) => {
                self.name(name);
                self.wanted.push(name);
            }
            crate::facts::ExportTarget::Decl(decl) => self.decl(decl, 0),
            crate::facts::ExportTarget::Expr(expr) => self.expr(expr, 0),
        }
    }

    /// Hashes the module-level declarations the hashed part named, and those they name.
    fn declarations_wanted(&mut self) {
        while let Some(name) = self.wanted.pop() {
            if self.hashed.insert(name) {
                self.module_declarations_named(name);
            }
        }
    }

    fn all_module_declarations(&mut self) {
        let facts = self.facts;
        if let Some(module) = facts.scopes.get(MODULE_SCOPE as usize) {
            for binding in &module.bindings {
                self.module_binding(binding);
            }
        }
    }

    fn module_declarations_named(&mut self, name: u32) {
        let facts = self.facts;
        let Some(module) = facts.scopes.get(MODULE_SCOPE as usize) else {
            return;
        };
        let start = module.bindings.partition_point(|b| b.name < name);
        for binding in module.bindings[start..]
            .iter()
            .take_while(|b| b.name == name)
        {
            self.module_binding(binding);
        }
    }

    fn module_binding(&mut self, binding: &crate::facts::Binding) {
        match binding.target {
            BindingTarget::Decl(decl) => {
                self.tag(3);
                self.name(binding.name);
                self.tag(binding.space);
                self.decl(decl, 0);
            }
            BindingTarget::Import(import, index) => {
                // Where the name comes from, and in which namespaces it is bound (`import type`
                // binds types only): an export that names it changes when the import does.
                self.exposed.push(import);
                let facts = self.facts;
                if let Some(import) = facts.imports.get(import as usize) {
                    self.tag(4);
                    self.tag(u8::from(import.type_only));
                    self.tag(binding.space);
                    self.str(&import.specifier);
                    if let Some(imported) = import.bindings.get(index as usize) {
                        self.name(imported.imported);
                    }
                }
            }
        }
    }

    fn decl(&mut self, id: DeclId, depth: u32) {
        if depth > MAX_DEPTH {
            self.cut_off();
            return;
        }
        let facts = self.facts;
        let d: &Decl = facts.decl(id);
        self.tag(10);
        self.tag(d.kind as u8);
        self.name(d.name);
        self.tag(d.node.map_or(0xfe, |k| k.as_u8()));
        self.state.write_u16(d.node_flags);
        self.state.write_u32(d.flags);
        if let Some(ty) = d.ty.get() {
            self.ty(ty, depth + 1);
        }
        // A type is inferred from the initializer only when none is declared.
        if d.ty.is_none()
            && let Some(init) = d.init.get()
        {
            self.expr(init, depth + 1);
        }
        for param in d.params() {
            self.tag(11);
            self.decl(*param, depth + 1);
        }
        for param in d.type_params() {
            self.tag(12);
            self.decl(*param, depth + 1);
        }
        match d.ret.get() {
            Some(ret) => self.ty(ret, depth + 1),
            None => {
                for returned in d.returns() {
                    self.tag(13);
                    self.expr(*returned, depth + 1);
                }
            }
        }
        for member in d.members() {
            self.tag(14);
            self.decl(*member, depth + 1);
        }
        if let Some(base) = facts.extends_expr(id) {
            self.tag(15);
            self.expr(base, depth + 1);
        }
        for ty in facts.extends_types(id).iter().chain(facts.implements(id)) {
            self.tag(16);
            self.ty(*ty, depth + 1);
        }
        for (name, value) in facts.this_assignments(id) {
            self.tag(17);
            self.name(*name);
            self.expr(*value, depth + 1);
        }
    }

    /// The declaration `name` is bound to in a scope inside a function (module-level names
    /// are hashed once, as the file's own declarations).
    fn local_binding(&self, mut scope: crate::facts::ScopeId, name: u32) -> Option<DeclId> {
        let facts = self.facts;
        for _ in 0..256 {
            if scope == MODULE_SCOPE {
                return None;
            }
            let current = facts.scopes.get(scope as usize)?;
            let start = current.bindings.partition_point(|b| b.name < name);
            if let Some(binding) = current.bindings[start..]
                .iter()
                .take_while(|b| b.name == name)
                .find(|b| b.space & crate::facts::space::VALUE != 0)
            {
                return match binding.target {
                    BindingTarget::Decl(decl) => Some(decl),
                    BindingTarget::Import(..) => None,
                };
            }
            scope = current.parent;
        }
        None
    }

    fn expr(&mut self, id: ExprId, depth: u32) {
        if depth > MAX_DEPTH {
            self.cut_off();
            return;
        }
        let facts = self.facts;
        match facts.expr(id) {
            Expr::Ident { name, scope } => {
                self.tag(20);
                self.name(*name);
                // A local's value feeds inferred types (`const r = new A(); return r;`).
                if let Some(local) = self.local_binding(*scope, *name) {
                    let d = facts.decl(local);
                    if let Some(ty) = d.ty.get() {
                        self.ty(ty, depth + 1);
                    } else if let Some(init) = d.init.get() {
                        self.expr(init, depth + 1);
                    } else {
                        // A local function or class: its signature and inferred returns.
                        self.decl(local, depth + 1);
                    }
                } else {
                    self.wanted.push(*name);
                }
            }
            Expr::This { .. } => self.tag(21),
            Expr::Super { .. } => self.tag(22),
            Expr::Member { object, name } => {
                self.tag(23);
                self.expr(*object, depth + 1);
                self.name(*name);
            }
            Expr::Element { object } => {
                self.tag(24);
                self.expr(*object, depth + 1);
            }
            expr @ (Expr::Call { callee, .. } | Expr::New { callee, .. }) => {
                let (args, type_args) = expr.operands();
                self.tag(25);
                self.expr(*callee, depth + 1);
                for arg in args {
                    self.expr(*arg, depth + 1);
                }
                for ty in type_args {
                    self.ty(*ty, depth + 1);
                }
            }
            Expr::Decl(decl) | Expr::DeclValue(decl) => {
                self.tag(26);
                self.decl(*decl, depth + 1);
            }
            Expr::Array(elements) => {
                self.tag(27);
                for element in elements {
                    self.expr(*element, depth + 1);
                }
            }
            Expr::Await(inner) | Expr::Iterated(inner) => {
                self.tag(28);
                self.expr(*inner, depth + 1);
            }
            Expr::Assert { expr, ty } => {
                self.tag(29);
                self.expr(*expr, depth + 1);
                self.ty(*ty, depth + 1);
            }
            Expr::Either(a, b) => {
                self.tag(30);
                self.expr(*a, depth + 1);
                self.expr(*b, depth + 1);
            }
            Expr::Literal(prim) => {
                self.tag(31);
                self.tag(*prim as u8);
            }
            Expr::Unknown => self.tag(32),
        }
    }

    fn ty(&mut self, id: TypeId, depth: u32) {
        if depth > MAX_DEPTH {
            self.cut_off();
            return;
        }
        let facts = self.facts;
        match facts.ty(id) {
            reference @ TypeExpr::Ref { .. } => {
                let (_, path, args) = reference.reference_parts().unwrap_or_default();
                self.tag(40);
                if let Some(first) = path.first() {
                    self.wanted.push(*first);
                }
                for segment in path {
                    self.name(*segment);
                }
                for arg in args {
                    self.ty(*arg, depth + 1);
                }
            }
            TypeExpr::Decl(decl) => {
                self.tag(41);
                self.decl(*decl, depth + 1);
            }
            TypeExpr::Union(parts) | TypeExpr::Intersection(parts) | TypeExpr::Tuple(parts) => {
                self.tag(42);
                for part in parts {
                    self.ty(*part, depth + 1);
                }
            }
            TypeExpr::Array(inner) => {
                self.tag(43);
                self.ty(*inner, depth + 1);
            }
            TypeExpr::Query(expr) => {
                self.tag(44);
                self.expr(*expr, depth + 1);
            }
            TypeExpr::Indexed { object, key } => {
                self.tag(45);
                self.ty(*object, depth + 1);
                if let Some(key) = key {
                    self.name(*key);
                }
            }
            TypeExpr::Prim(prim) => {
                self.tag(46);
                self.tag(*prim as u8);
            }
            TypeExpr::This { .. } => self.tag(47),
            TypeExpr::Opaque => self.tag(48),
            TypeExpr::Mentions(parts) => {
                self.tag(49);
                for part in parts {
                    self.ty(*part, depth + 1);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::interface_hash;
    use crate::extract::Extractor;

    fn hash(source: &str) -> u64 {
        let facts = Extractor::new()
            .expect("grammar")
            .extract("a.ts", source.as_bytes(), 0);
        interface_hash(&facts)
    }

    #[test]
    fn body_changes_keep_the_interface_and_signature_changes_do_not() {
        let base = hash(
            "import { x } from './x';\nexport function f(a: number): string {\n  return String(a);\n}\n",
        );
        // A new local, a new call and a moved line inside a body with a declared return type.
        assert_eq!(
            base,
            hash(
                "import { x } from './x';\n\n\nexport function f(a: number): string {\n  const local = x(a);\n  log(local);\n  return String(a);\n}\n"
            )
        );
        // The signature, the exports, the imports: each changes it.
        assert_ne!(
            base,
            hash("import { x } from './x';\nexport function f(a: string): string { return a; }\n")
        );
        assert_ne!(
            base,
            hash("import { x } from './x';\nfunction f(a: number): string { return ''; }\n")
        );
        assert_ne!(
            base,
            hash("import { y } from './x';\nexport function f(a: number): string { return ''; }\n")
        );
    }

    #[test]
    fn module_declarations_count_only_when_an_export_reaches_them() {
        let base = hash("export function f() { return make(); }\nfunction make() { return 1; }\n");
        // A new helper no export uses: importers see nothing new.
        assert_eq!(
            base,
            hash(
                "export function f() { return make(); }\nfunction make() { return 1; }\nfunction probe() { f(); }\n"
            )
        );
        // The helper an export's inferred type comes from: they do.
        assert_ne!(
            base,
            hash("export function f() { return make(); }\nfunction make() { return 'one'; }\n")
        );
        // Through a type reference, and through `export { name }`.
        let typed = hash("type Id = string;\nexport function g(id: Id) {}\n");
        assert_ne!(
            typed,
            hash("type Id = number;\nexport function g(id: Id) {}\n")
        );
        let named = hash("function h(a: number) {}\nexport { h };\n");
        assert_ne!(named, hash("function h(a: string) {}\nexport { h };\n"));
        // A script's declarations are globals: every one is its interface.
        assert_ne!(
            hash("function a() {}\n"),
            hash("function a() {}\nfunction b() {}\n")
        );
    }

    #[test]
    fn an_inferred_return_type_is_part_of_the_interface() {
        let a = hash("export function make() { return new A(); }\nclass A {}\nclass B {}\n");
        let b = hash("export function make() { return new B(); }\nclass A {}\nclass B {}\n");
        assert_ne!(a, b);
        let local_a = hash(
            "export function make() { const r = new A(); return r; }\nclass A {}\nclass B {}\n",
        );
        let local_b = hash(
            "export function make() { const r = new B(); return r; }\nclass A {}\nclass B {}\n",
        );
        assert_ne!(local_a, local_b);
    }
}
