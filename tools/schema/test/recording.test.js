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
    FromOption: { categories: ['opt.on'], default_on: true, setting: 'on-setting', title: 'On by default' },
    Negated: { categories: ['opt.negated'], default_on: true, setting: 'disable-setting', title: 'Disable negated' },
    FromSetting: { categories: ['opt.setting'], default_on: true, setting: 'direct-setting', title: 'Read directly' },
    Off: { categories: ['opt.off', 'toplevel'], default_on: false, setting: 'off-setting', title: 'Off (slow)' },
  });
  assert.deepEqual(r.all, { setting: 'show-all', title: 'Show everything', default_on: false });
});

test('a setting a recording depends on must have a title the pane shows', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tc-frontend-'));
  try {
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const meta = path.join(dir, FILES.meta);
    fs.writeFileSync(meta, fs.readFileSync(meta, 'utf8').replace("  offSetting: 'Off (slow)',\n", ''));
    assert.throws(() => recordingCategories(dir), /setting off-setting has no title/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
      const settings = optional.filter((g) => !g.default_on && g.categories.includes(e.recordingRequires));
      assert.ok(settings.length > 0, where);
      // The manual names the settings by the titles the Settings pane shows.
      for (const g of settings) assert.ok(e.recordingSentence.includes(g.title), where);
    } else {
      assert.equal(inDefault(e.categories), e.recording === 'default', where);
    }
    if (e.recording === 'never') {
      // What the manual's Traps call "Show all events ticked in settings": a
      // category that is not disabled by default, recorded only under '*'.
      assert.equal(schema.recording_all_categories.title, 'Show all events');
      assert.ok(e.categories.some((c) => !c.startsWith('disabled-by-default-')), where);
    }
    counts[e.recording]++;
  }
  assert.ok(counts.default > 0 && counts.never > 0 && counts.optional > 0);
  t.diagnostic(`agree: ${counts.default} recorded by default, ${counts.never} never, ${counts.optional} only with an option`);
});
