#!/usr/bin/env node
'use strict';
// Prints what the Chrome trace event manual says about each of its entries, for
// the C census tests (format in README.md):
//   node tools/schema/manual_expectations.js > tests/schema/manual_expectations.json
//   node tools/schema/manual_expectations.js --examples > tests/schema/manual_examples.json
// The second form prints the manual's example events as one trace file, with
// the manual's "... [N more items]" truncation markers removed.

const { parseManual, withoutTruncation } = require('./lib/manual');
const { stableJson } = require('./lib/json_out');

const SOURCE = 'shared/seeds/chrome-trace-event-manual.txt';

function expectations(entries) {
  return {
    source: SOURCE,
    entries: entries.map((e) => ({
      categories: e.categories,
      devtools_known: e.devtoolsKnown,
      has_example: e.example !== null,
      line: e.line,
      name: e.name,
      name_from: e.nameFrom,
      recording: e.recording,
      recording_requires: e.recordingRequires,
      recording_sentence: e.recordingSentence,
      undeclared_args: e.undeclared ? e.undeclared.paths : [],
      undeclared_complete: !e.undeclared || e.undeclared.more === 0,
      undeclared_listed: e.undeclared !== null,
      undeclared_more: e.undeclared ? e.undeclared.more : 0,
    })),
  };
}

function examples(entries) {
  return { traceEvents: entries.filter((e) => e.example).map((e) => withoutTruncation(e.example)) };
}

const entries = parseManual();
const wantExamples = process.argv.includes('--examples');
process.stdout.write(stableJson(wantExamples ? examples(entries) : expectations(entries)));
