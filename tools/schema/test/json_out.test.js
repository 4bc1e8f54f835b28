'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { stableJson } = require('../lib/json_out');

test('keys sort by code unit, integer-like ones included; arrays keep their order', () => {
  const text = stableJson({ b: [2, 1], 10: true, A: {}, 2: [], a: null });
  assert.equal(text, '{\n  "10": true,\n  "2": [],\n  "A": {},\n  "a": null,\n  "b": [\n    2,\n    1\n  ]\n}\n');
  assert.deepEqual(JSON.parse(text), { b: [2, 1], 10: true, A: {}, 2: [], a: null });
});
