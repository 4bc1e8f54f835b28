'use strict';
// Declared argument paths of one `args` type, read from the syntax alone.
//
// The rule (issue 4) is about what trace_engine's authors wrote literally inside
// an event's own `args` declaration, not about what the type checker could
// resolve: a named interface or alias is opaque, so only the property holding it
// is declared. That is why this walks the type *node* and never asks the checker.
//
// Paths use the census notation: `args.beginData.frame`, arrays as `[]`
// (`args.data.stackTrace[].url`, `args.data.invalidationList[].classes[]`).
// Intermediate objects and array positions are declared as well as leaves, so a
// reader can test any path the census writes.

const ts = require('typescript');

// Generic containers the rule looks through; every other reference is opaque.
const ARRAY_TYPES = new Set(['Array', 'ReadonlyArray']);

// The text of a property name as written, or null for a computed one.
function propertyName(name) {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) {
    return name.text;
  }
  return null;
}

function walk(node, prefix, out) {
  if (!node) return;
  if (ts.isParenthesizedTypeNode(node) || ts.isOptionalTypeNode(node) || ts.isRestTypeNode(node)) {
    walk(node.type, prefix, out);
  } else if (ts.isTypeOperatorNode(node)) {
    walk(node.type, prefix, out); // `readonly T[]`
  } else if (ts.isNamedTupleMember(node)) {
    walk(node.type, prefix, out);
  } else if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) {
    for (const t of node.types) walk(t, prefix, out);
  } else if (ts.isTypeLiteralNode(node)) {
    for (const member of node.members) {
      if (!ts.isPropertySignature(member)) continue;
      const name = propertyName(member.name);
      if (name === null) continue;
      const path = `${prefix}.${name}`;
      out.add(path);
      walk(member.type, path, out);
    }
  } else if (ts.isArrayTypeNode(node)) {
    out.add(`${prefix}[]`);
    walk(node.elementType, `${prefix}[]`, out);
  } else if (ts.isTupleTypeNode(node)) {
    out.add(`${prefix}[]`);
    for (const element of node.elements) walk(element, `${prefix}[]`, out);
  } else if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) &&
             ARRAY_TYPES.has(node.typeName.text) && node.typeArguments?.length === 1) {
    out.add(`${prefix}[]`);
    walk(node.typeArguments[0], `${prefix}[]`, out);
  }
  // Anything else (named references, keywords, literals, mapped or indexed
  // types) declares nothing below `prefix`.
}

// Paths declared by the type node of an `args` property, rooted at "args".
// Returns a Set owned by the caller; "args" itself is not included.
function argsPaths(typeNode) {
  const out = new Set();
  walk(typeNode, 'args', out);
  return out;
}

module.exports = { argsPaths, propertyName };
