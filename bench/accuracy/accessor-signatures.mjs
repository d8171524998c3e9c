// Member IMPLEMENTS edges whose interface member is an accessor signature, from the checker.
//
//   node accessor-signatures.mjs ROOT TSCONFIG > accessor-edges.jsonl
//
// The edge oracle of ../shared/oracle-edges scores a class member against the method and
// property signatures of the interfaces its class implements, and does not know interface
// accessor signatures (`interface I { get size(): number }`, TypeScript 4.3+) as nodes at all, so
// tsgraph's edges to them are counted as wrong there. This script asks the same checker
// (the oracle's pinned TypeScript, `$TYPESCRIPT` or the call oracle's copy in corpus/.oracle)
// for exactly those edges, with the edge oracle's rule otherwise: the class's own and inherited
// `implements` targets and their `extends` chains, the class property of the same name, the
// class (or parameter property) that declares it as the source. IDs are the oracle's:
// `path/from/ROOT.ts:Outer.Class.member`, as lines of the oracle's own file (`level: member`).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [rootArg, configArg] = process.argv.slice(2);
if (!rootArg || !configArg) {
  console.error('usage: node accessor-signatures.mjs ROOT TSCONFIG');
  process.exit(64);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ts = require(process.env.TYPESCRIPT || path.join(here, 'corpus/.oracle/node_modules/typescript'));

// TypeScript names files with `/` on every platform.
const root = path.resolve(rootArg).split(path.sep).join('/') + '/';
const parsed = ts.getParsedCommandLineOfConfigFile(path.resolve(rootArg, configArg), { noEmit: true }, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
});
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();

const isProjectFile = (sf) =>
  !sf.isDeclarationFile && sf.fileName.startsWith(root) && !sf.fileName.includes('/node_modules/');

// `Outer.Inner.Name` for a declaration inside namespaces; null inside anything else.
function qualifiedName(decl) {
  if (!decl.name || !ts.isIdentifier(decl.name)) return null;
  const segments = [decl.name.text];
  for (let p = decl.parent; p && !ts.isSourceFile(p); p = p.parent) {
    if (ts.isModuleBlock(p)) continue;
    if (ts.isModuleDeclaration(p) && ts.isIdentifier(p.name)) segments.unshift(p.name.text);
    else return null;
  }
  return segments.join('.');
}
function idOf(decl, member) {
  const owner = qualifiedName(decl);
  if (owner === null) return null;
  return `${decl.getSourceFile().fileName.slice(root.length)}:${owner}.${member}`;
}

const declaredType = (decl) => checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(decl.name));
const declarationsOf = (type, wanted) =>
  ((type && (type.target || type).symbol && (type.target || type).symbol.declarations) || []).filter(wanted);

// The interfaces a class implements: its own and its base classes' `implements` clauses, then
// each interface's `extends` chain.
function implementedInterfaces(cls) {
  const found = new Set();
  const pending = [];
  for (let c = cls, hops = 0; c && hops < 64; hops++) {
    for (const node of ts.getEffectiveImplementsTypeNodes(c) || []) {
      pending.push(...declarationsOf(checker.getTypeAtLocation(node), ts.isInterfaceDeclaration));
    }
    const bases = c.name ? checker.getBaseTypes(declaredType(c)) : [];
    c = bases.flatMap((t) => declarationsOf(t, ts.isClassDeclaration))[0];
  }
  while (pending.length) {
    const iface = pending.pop();
    if (found.has(iface) || !iface.name) continue;
    found.add(iface);
    for (const base of checker.getBaseTypes(declaredType(iface))) {
      pending.push(...declarationsOf(base, ts.isInterfaceDeclaration));
    }
  }
  return [...found];
}

const isAccessorSignature = (m) => ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m);
const declaringClass = (d) =>
  ts.isParameter(d) ? d.parent && d.parent.parent : d.parent && ts.isClassLike(d.parent) ? d.parent : null;

const edges = new Set();
function visitClass(cls) {
  if (!cls.name) return;
  const properties = new Map(checker.getPropertiesOfType(declaredType(cls)).map((p) => [p.name, p]));
  for (const iface of implementedInterfaces(cls)) {
    if (!isProjectFile(iface.getSourceFile())) continue;
    for (const member of iface.members.filter(isAccessorSignature)) {
      if (!member.name || !ts.isIdentifier(member.name)) continue;
      const name = member.name.text;
      const property = properties.get(name);
      const impl = property && (property.declarations || []).find((d) => declaringClass(d));
      if (!impl) continue;
      const source = idOf(declaringClass(impl), name);
      const target = idOf(iface, name);
      if (source && target && source !== target) edges.add(JSON.stringify({ type: 'edge', kind: 'IMPLEMENTS', source, target, level: 'member', via: ['accessor-signature'] }));
    }
  }
}
for (const sf of program.getSourceFiles()) {
  if (!isProjectFile(sf)) continue;
  const visit = (n) => {
    if (ts.isClassDeclaration(n)) visitClass(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
for (const edge of [...edges].sort()) console.log(edge);
