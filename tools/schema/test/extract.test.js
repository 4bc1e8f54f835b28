'use strict';
// One test per rule of issue 4, each on a synthetic declaration file.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { extractSchema } = require('../lib/trace_schema');

const cache = new Map();
const fixture = (name) => {
  if (!cache.has(name)) cache.set(name, extractSchema(path.join(__dirname, 'fixtures', `${name}.d.ts`)));
  return cache.get(name);
};
const declared = (events, name) => [...events.get(name).declared].sort();

test('a named interface or alias is opaque: its holder is declared, its children are not', () => {
  const events = fixture('opaque');
  assert.deepEqual(declared(events, 'Opaque'), [
    'args.data',
    'args.data.initiator',
    'args.data.initiator.stack',
    'args.data.initiator.url',
    'args.data.timing',
  ]);
  // Nothing reached through Args, ArgsData, CallFrame or the Timing alias.
  for (const hidden of ['args.sampleTraceId', 'args.data.frame', 'args.data.timing.sendStart',
    'args.data.initiator.stack.url']) {
    assert.ok(!events.get('Opaque').declared.has(hidden), hidden);
  }
  assert.deepEqual(declared(events, 'OnlyNamed'), []);
});

test('optional fields and the objects holding them are declared', () => {
  assert.deepEqual(declared(fixture('optional'), 'Optional'), [
    'args.beginData',
    'args.beginData.frame',
    'args.beginData.startLine',
    'args.endData',
    'args.endData.endLine',
  ]);
});

test('arrays: T[], Array<T>, readonly forms and tuples are followed, element types opaque', () => {
  assert.deepEqual(declared(fixture('arrays'), 'Arrays'), [
    'args.data',
    'args.data.bracket',
    'args.data.bracket[]',
    'args.data.bracket[].classes',
    'args.data.bracket[].classes[]',
    'args.data.bracket[].id',
    'args.data.frames',
    'args.data.frames[]',
    'args.data.namedTuple',
    'args.data.namedTuple[]',
    'args.data.namedTuple[].w',
    'args.data.nested',
    'args.data.nested[]',
    'args.data.nested[][]',
    'args.data.readonlyGeneric',
    'args.data.readonlyGeneric[]',
    'args.data.readonlyGeneric[].y',
    'args.data.readonlyList',
    'args.data.readonlyList[]',
    'args.data.suffix',
    'args.data.suffix[]',
    'args.data.suffix[].x',
    'args.data.tuple',
    'args.data.tuple[]',
    'args.data.tuple[].z',
  ]);
});

test('every member of a union or intersection is followed', () => {
  assert.deepEqual(declared(fixture('unions'), 'Unions'), [
    'args.both',
    'args.both.c',
    'args.new',
    'args.new.b',
    'args.old',
    'args.old.a',
  ]);
});

test('names come from the Name enum and literal name types; an enum-only name declares nothing', () => {
  const events = fixture('names');
  assert.deepEqual([...events.keys()].sort(), [
    'EnumOnly', 'LiteralOnly', 'MarkLoad', 'ParseHTML', 'Receive', 'Send', 'firstPaint', 'process_name',
  ]);
  assert.deepEqual(declared(events, 'EnumOnly'), []);
  assert.deepEqual([...events.get('EnumOnly').interfaces], []);
  assert.deepEqual(declared(events, 'LiteralOnly'), ['args.x']);
});

test('an enum member maps to its string value, a union of names to each name', () => {
  const events = fixture('names');
  // ParseHTMLEnd inherits `name` without writing it, so its endData is not ParseHTML's.
  assert.deepEqual(declared(events, 'ParseHTML'), ['args.beginData', 'args.beginData.url']);
  assert.deepEqual([...events.get('ParseHTML').interfaces], ['ParseHTML']);
  assert.deepEqual(declared(events, 'Receive'), ['args.data', 'args.data.bytes']);
  // Two interfaces with one name declare the union of their paths.
  assert.deepEqual(declared(events, 'Send'), ['args.data', 'args.data.bytes', 'args.data.url']);
  assert.deepEqual([...events.get('Send').interfaces].sort(), ['Send', 'Transfer']);
});

test('a name typed through typeof Tuple[number] is known; inherited args are the base declaration', () => {
  const events = fixture('names');
  for (const name of ['MarkLoad', 'firstPaint']) {
    assert.deepEqual([...events.get(name).interfaces], ['Marker']);
    assert.deepEqual(declared(events, name), []); // Event's args is the opaque Args
  }
  assert.deepEqual(declared(events, 'process_name'), ['args.name']);
});

test('interfaces whose name is not a literal declare no event', () => {
  const events = fixture('names');
  for (const e of events.values()) {
    assert.ok(!e.interfaces.has('Generic') && !e.interfaces.has('Untyped'));
    assert.ok(!e.declared.has('args.pairData') && !e.declared.has('args.notAnEvent'));
  }
});

test('spelling is exact, quoted and numeric keys included', () => {
  const events = fixture('spelling');
  assert.deepEqual(declared(events, 'ParseAuthorStyleSheet'), [
    'args.data',
    'args.data.42',
    'args.data.double',
    'args.data.quoted-key',
    'args.data.stylesheetUrl',
  ]);
  assert.ok(!events.get('ParseAuthorStyleSheet').declared.has('args.data.styleSheetUrl'));
});
