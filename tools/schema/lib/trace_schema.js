'use strict';
// Every event name a trace_engine declaration file knows, with the argument
// paths its own interfaces declare.
//
// Names come from two places: the values of the `Name` enum, and the literal
// type of the `name` property of each interface in the file (`name: 'ParseHTML'`,
// `name: Name.PARSE_HTML`, `name: Name.A | Name.B`, `typeof MarkerName[number]`).
// The checker resolves those name types, because an enum member or a `typeof`
// only has a string value through its declaration. The `args` type, on the other
// hand, is read as written (see args_paths.js).
//
// Only an interface that writes `name` itself maps to an event: one that merely
// inherits it (`AnimationFrameAsyncStart`, or a synthetic pair typed by its
// source event's name) adds nothing of its own. An interface that inherits
// `args` uses the inherited declaration, as TypeScript does. Several interfaces
// with one name declare the union of their paths.

const ts = require('typescript');
const { argsPaths, propertyName } = require('./args_paths');

const NAME_ENUM = 'Name';

function loadSource(file) {
  // One file and the standard lib (a `typeof Tuple[number]` name needs it), no
  // imports: imported types stay unresolved, which the opaque rule allows.
  const program = ts.createProgram([file], { noResolve: true, types: [], target: ts.ScriptTarget.ES2022 });
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`cannot read ${file}`);
  return { checker: program.getTypeChecker(), source };
}

function enumNames(source) {
  const names = [];
  for (const statement of source.statements) {
    if (!ts.isEnumDeclaration(statement) || statement.name.text !== NAME_ENUM) continue;
    for (const member of statement.members) {
      if (!member.initializer || !ts.isStringLiteral(member.initializer)) {
        throw new Error(`${NAME_ENUM}.${member.name.getText(source)} has no string value`);
      }
      names.push(member.initializer.text);
    }
  }
  return names;
}

// The string values of a name type, or null when any part is not a literal.
function literalNames(type) {
  const parts = type.isUnion() ? type.types : [type];
  const names = [];
  for (const part of parts) {
    if (!part.isStringLiteral()) return null;
    names.push(part.value);
  }
  return names;
}

function interfaceArgs(checker, type) {
  const paths = new Set();
  const args = checker.getPropertyOfType(type, 'args');
  for (const decl of args?.declarations ?? []) {
    if (ts.isPropertySignature(decl) && decl.type) {
      for (const p of argsPaths(decl.type)) paths.add(p);
    }
  }
  return paths;
}

// Returns a Map, owned by the caller: name -> { declared: Set of paths,
// interfaces: Set of interface names }. Every known name is a key; those without
// an interface of their own map to empty sets.
function extractSchema(file) {
  const { checker, source } = loadSource(file);
  const events = new Map();
  const entry = (name) => {
    if (!events.has(name)) events.set(name, { declared: new Set(), interfaces: new Set() });
    return events.get(name);
  };
  for (const name of enumNames(source)) entry(name);

  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const ownName = statement.members.find(
      (m) => ts.isPropertySignature(m) && m.type && propertyName(m.name) === 'name');
    if (!ownName) continue;
    const names = literalNames(checker.getTypeFromTypeNode(ownName.type));
    if (!names) continue;
    const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(statement.name));
    const declared = interfaceArgs(checker, type);
    for (const name of names) {
      const e = entry(name);
      e.interfaces.add(statement.name.text);
      for (const p of declared) e.declared.add(p);
    }
  }
  return events;
}

module.exports = { extractSchema };
