#!/usr/bin/env node
'use strict';
// Prints data/devtools-schema.json: what DevTools' trace model declares about
// each event, and what a default Performance-panel recording captures.
// Usage: node tools/schema/generate.js > data/devtools-schema.json
// (after `npm ci` in tools/schema; the versions are pinned in package.json).

const path = require('path');
const { extractSchema } = require('./lib/trace_schema');
const { recordingCategories, FILES } = require('./lib/recording');
const { stableJson } = require('./lib/json_out');

const FORMAT = 1;
const TRACE_EVENTS = 'models/trace/types/TraceEvents.d.ts';
const modules = path.join(__dirname, 'node_modules');
const pkgDir = (name) => path.join(modules, name);
const version = (name) => require(path.join(pkgDir(name), 'package.json')).version;

function main() {
  const engine = '@paulirish/trace_engine';
  const frontend = 'chrome-devtools-frontend';
  const events = {};
  for (const [name, e] of extractSchema(path.join(pkgDir(engine), TRACE_EVENTS))) {
    events[name] = { declared_args: [...e.declared].sort(), interfaces: [...e.interfaces].sort() };
  }
  const rec = recordingCategories(pkgDir(frontend));
  process.stdout.write(stableJson({
    format: FORMAT,
    generator: {
      'chrome-devtools-frontend': version(frontend),
      trace_engine: version(engine),
      typescript: version('typescript'),
    },
    events_source: `${engine} ${version(engine)}: ${TRACE_EVENTS}`,
    events,
    recording_categories: rec.categories,
    recording_excludes_other_categories: rec.exclusive,
    recording_optional_categories: rec.optional,
    recording_all_categories: rec.all,
    recording_categories_source: `${frontend} ${version(frontend)}: ${FILES.controller} ` +
      `#categoriesForRecording under the default settings of ${FILES.meta}, as ${FILES.panel} ` +
      `passes them; DefaultCategories and OptionalCategories from ${FILES.events}`,
  }));
}

main();
