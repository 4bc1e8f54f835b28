'use strict';
// DevTools' recording categories: the extraction on a miniature front end, and
// the committed list against what the manual says each event's recording is.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { recordingCategories, FILES } = require('../lib/recording');
const { parseManual } = require('../lib/manual');

const FIXTURE = path.join(__dirname, 'fixtures', 'frontend');
const schema = require(path.join(__dirname, '..', '..', '..', 'data', 'devtools-schema.json'));

test('default settings decide which optional groups a recording has', () => {
  const r = recordingCategories(FIXTURE);
  assert.deepEqual(r.categories,
    ['navigation', 'opt.negated', 'opt.on', 'opt.setting', 'rail', 'toplevel']);
  assert.equal(r.exclusive, true);
  assert.deepEqual(r.optional, {
    FromOption: { categories: ['opt.on'], default_on: true, setting: 'on-setting' },
    Negated: { categories: ['opt.negated'], default_on: true, setting: 'disable-setting' },
    FromSetting: { categories: ['opt.setting'], default_on: true, setting: 'direct-setting' },
    Off: { categories: ['opt.off', 'toplevel'], default_on: false, setting: 'off-setting' },
  });
});

test('a recording condition of unknown shape fails instead of guessing', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tc-frontend-'));
  try {
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const controller = path.join(dir, FILES.controller);
    fs.writeFileSync(controller,
      fs.readFileSync(controller, 'utf8').replace('options.enableOff', 'isOffEnabled()'));
    assert.throws(() => recordingCategories(dir), /unknown recording condition/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the committed categories agree with every recording claim in the manual', (t) => {
  const recorded = new Set(schema.recording_categories);
  const optional = Object.values(schema.recording_optional_categories);
  const inDefault = (cats) => cats.some((c) => recorded.has(c));
  const counts = { default: 0, never: 0, optional: 0 };
  for (const e of parseManual().filter((x) => x.categories.length > 0)) {
    const where = `${e.name} [${e.categories}]`;
    if (e.recording === 'optional') {
      assert.ok(!inDefault(e.categories), where);
      assert.ok(e.categories.includes(e.recordingRequires), where);
      assert.ok(optional.some((g) => !g.default_on && g.categories.includes(e.recordingRequires)), where);
    } else {
      assert.equal(inDefault(e.categories), e.recording === 'default', where);
    }
    counts[e.recording]++;
  }
  assert.ok(counts.default > 0 && counts.never > 0 && counts.optional > 0);
  t.diagnostic(`agree: ${counts.default} recorded by default, ${counts.never} never, ${counts.optional} only with an option`);
});
