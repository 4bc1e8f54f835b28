#!/usr/bin/env node
// Writes data/devtools-schema.json as the line format the C census reads
// (data/devtools-schema.tsv): the C side then needs no JSON reader of its own
// beyond the trace parser. One record per line, tab-separated:
//   generator  <package>  <version>
//   recording_category  <category>
//   optional_category  <setting title>  <category>
//   all_categories_setting  <setting title>
//   event  <name>
//   declared  <name>  <path>
'use strict';
const fs = require('fs');
const path = require('path');

const src = process.argv[2] || path.join(__dirname, '..', '..', 'data', 'devtools-schema.json');
const schema = JSON.parse(fs.readFileSync(src, 'utf8'));
const out = ['# generated from data/devtools-schema.json by tools/schema/tsv.js; do not edit'];
const clean = (s) => {
  if (/[\t\n\r]/.test(s)) throw new Error(`tab or newline in ${JSON.stringify(s)}`);
  return s;
};
for (const [k, v] of Object.entries(schema.generator || {}).sort())
  out.push(['generator', clean(k), clean(String(v))].join('\t'));
for (const c of [...schema.recording_categories].sort())
  out.push(['recording_category', clean(c)].join('\t'));
// Categories a recording has only with a setting on: the setting's title and
// the category, one line each, for the groups a default recording leaves out.
for (const g of Object.keys(schema.recording_optional_categories).sort()) {
  const group = schema.recording_optional_categories[g];
  if (group.default_on) continue;
  for (const c of [...group.categories].sort())
    out.push(['optional_category', clean(group.title), clean(c)].join('\t'));
}
// The setting that records every category not disabled by default.
const all = schema.recording_all_categories;
if (!all.default_on) out.push(['all_categories_setting', clean(all.title)].join('\t'));
for (const name of Object.keys(schema.events).sort()) {
  out.push(['event', clean(name)].join('\t'));
  for (const p of [...schema.events[name].declared_args].sort())
    out.push(['declared', name, clean(p)].join('\t'));
}
process.stdout.write(out.join('\n') + '\n');
