'use strict';
// The manual parser on a miniature manual with each feature the real one uses.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { parseManual, leafPaths, withoutTruncation } = require('../lib/manual');

const fixture = (name) => path.join(__dirname, 'fixtures', name);
const entries = () => parseManual(fixture('manual.txt'), fixture('manual_names.json'));

test('entries, names, notes and lists are read in manual order', () => {
  const [alpha, beta, gamma] = entries();
  assert.deepEqual([alpha.name, beta.name, gamma.name], ['Alpha', 'Beta', 'Gamma']);
  assert.deepEqual([alpha.nameFrom, beta.nameFrom], ['example', 'manual_names.json']);
  assert.deepEqual([alpha.devtoolsKnown, beta.devtoolsKnown, gamma.devtoolsKnown], [false, true, true]);
  assert.equal(alpha.undeclared, null);
  assert.deepEqual(beta.undeclared, { paths: ['args.data.x', 'args.data.y[].z'], more: 4 });
  assert.deepEqual(gamma.undeclared, { paths: ['args.frames[].line'], more: 0 });
  assert.deepEqual([alpha.recording, beta.recording, gamma.recording], ['default', 'default', 'optional']);
  assert.equal(gamma.recordingRequires, 'disabled-by-default-gamma');
  assert.deepEqual(alpha.categories, ['blink']);
  assert.deepEqual(beta.categories, []);
});

test('example paths drop truncation markers; empty objects are leaves', () => {
  const [alpha, , gamma] = entries();
  assert.deepEqual(leafPaths(alpha.example), ['args.data.empty', 'args.data.list[]']);
  assert.deepEqual(leafPaths(gamma.example), ['args.frames[].line', 'args.frames[].url']);
  assert.deepEqual(withoutTruncation(gamma.example).args.frames, [{ url: 'u', line: 1 }]);
});

test('a name for an entry without an example must fit what the manual says', () => {
  assert.throws(() => parseManual(fixture('manual.txt'), fixture('manual_names_wrong.json')),
    /line \d+: Gamma: an entry with an example has it; the entry links to itself/);
  assert.throws(() => parseManual(fixture('manual.txt'), fixture('manual_names_empty.json')),
    /no example and no name/);
  assert.throws(() => parseManual(fixture('manual.txt'), fixture('manual_names_extra.json')),
    /no entry says Chrome does a thing the manual lacks/);
});
