'use strict';
// Reads the facts about trace_engine that the Chrome trace event manual states,
// so the schema can be checked against them.
//
// The manual is plain text without headings. Each entry opens with a summary
// line, reaches a line "Spec", and (except the last, which is cut short) ends
// with the value under its "references" line. An entry may carry:
//   - a JSON example event (lines from "{" to "}" at column 0);
//   - "undeclared args", a blank line, then "a, b, c" or "a, b and N more";
//   - "DevTools has no entry for this event in its trace model".
// An entry without an example never states its own name; manual_names.json
// supplies it and checkName tests it against the manual.

const fs = require('fs');
const path = require('path');

const DEFAULT_MANUAL = path.resolve(__dirname, '../../../../shared/seeds/chrome-trace-event-manual.txt');
const NAMES = path.join(__dirname, '..', 'manual_names.json');
const NO_ENTRY = 'DevTools has no entry for this event in its trace model';
const NEVER_RECORDED = 'A DevTools Performance recording does not contain this event.';
const ONLY_WITH = /A DevTools Performance recording contains this event only with .*, which records (\S+)\./;
const SEE_ALSO = 'See also ';
// The manual shortens long arrays in its examples with a string like this.
const TRUNCATION = /^\.\.\. \[\d+ more items?\]$/;

// Line indexes where each entry starts: line 0, then the line after each
// "references" value that precedes the next "Spec".
function entryStarts(lines) {
  const starts = [];
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === 'references') next = i + 3; // "references", blank, value
    if (lines[i] === 'Spec') {
      starts.push(starts.length === 0 ? 0 : next);
    }
  }
  return starts;
}

function parseExample(lines) {
  const open = lines.indexOf('{');
  const close = lines.indexOf('}', open);
  return JSON.parse(lines.slice(open, close + 1).join('\n'));
}

// What the lines above "Spec" say about a DevTools Performance recording:
// never, only with an option (naming the category it records), or nothing,
// which the manual uses for events a default recording has.
function recordingClaim(header) {
  const line = (re) => (header.split('\n').find((l) => re.test(l)) || null);
  if (header.includes(NEVER_RECORDED)) {
    return { recording: 'never', recordingRequires: null,
      recordingSentence: line(/does not contain this event/) };
  }
  const m = ONLY_WITH.exec(header);
  if (m) return { recording: 'optional', recordingRequires: m[1], recordingSentence: m[0] };
  return { recording: 'default', recordingRequires: null, recordingSentence: null };
}

// "a, b and 3 more" -> { paths: [a, b], more: 3 }
function parseUndeclared(line) {
  const m = /^(.*?)(?: and (\d+) more)?$/.exec(line);
  return { paths: m[1].split(', '), more: m[2] ? Number(m[2]) : 0 };
}

function parseEntry(lines, line) {
  const body = lines.slice(line.start, line.end);
  const entry = { line: line.start + 1, text: body.join('\n') };
  entry.summary = body.find((l) => l !== '');
  entry.example = body.includes('{') ? parseExample(body) : null;
  const u = body.indexOf('undeclared args');
  entry.undeclared = u < 0 ? null : parseUndeclared(body[u + 2]);
  entry.devtoolsKnown = !entry.text.includes(NO_ENTRY);
  Object.assign(entry, recordingClaim(body.slice(0, body.indexOf('Spec')).join('\n')));
  const c = body.indexOf('categories');
  entry.categories = entry.example ? entry.example.cat.split(',')
    : c < 0 ? [] : body[c + 2].split(', ');
  entry.seeAlso = body.filter((l) => l.startsWith(SEE_ALSO))
    .flatMap((l) => l.slice(SEE_ALSO.length).split(' · '));
  return entry;
}

const order = (a, b) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en');

// manual_names.json names the entries that have no example, keyed by their
// summary line; the text alone cannot (one never mentions its own name). Each
// name is checked against what the manual does say: some "See also" links to
// it, no entry with an example has it, the entry does not link to itself, and
// it keeps the alphabetical order of its section (case aside).
function checkName(entries, i, vocabulary, taken) {
  const e = entries[i];
  const prev = entries[i - 1]?.name;
  const next = entries[i + 1]?.name;
  const problems = [];
  if (!vocabulary.has(e.name)) problems.push('no "See also" links to it');
  if (taken.has(e.name)) problems.push('an entry with an example has it');
  if (e.seeAlso.includes(e.name)) problems.push('the entry links to itself');
  if (prev && order(prev, e.name) >= 0) problems.push(`it does not sort after ${prev}`);
  if (next && (!prev || order(prev, next) < 0) && order(e.name, next) >= 0) problems.push(`it does not sort before ${next}`);
  if (problems.length) throw new Error(`manual line ${e.line}: ${e.name}: ${problems.join('; ')}`);
}

// Returns entries in manual order: { line, name, nameFrom, example,
// undeclared: {paths, more} | null, devtoolsKnown, recording ('default' |
// 'optional' | 'never'), recordingRequires (a category or null),
// recordingSentence (the manual's sentence saying so, or null), categories
// (the example's, else the entry's "categories" section, else []) }.
function parseManual(file = DEFAULT_MANUAL, namesFile = NAMES) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const starts = entryStarts(lines);
  const entries = starts.map((start, k) =>
    parseEntry(lines, { start, end: k + 1 < starts.length ? starts[k + 1] : lines.length }));
  const names = JSON.parse(fs.readFileSync(namesFile, 'utf8'));
  const unused = new Set(Object.keys(names));
  for (const e of entries) {
    if (e.example) {
      e.name = e.example.name;
    } else if (Object.hasOwn(names, e.summary)) {
      e.name = names[e.summary];
      unused.delete(e.summary);
    } else {
      throw new Error(`manual line ${e.line}: no example and no name in manual_names.json`);
    }
  }
  if (unused.size) throw new Error(`manual_names.json: no entry says ${[...unused].join(' / ')}`);
  const taken = new Set(entries.filter((e) => e.example).map((e) => e.name));
  const vocabulary = new Set(entries.flatMap((e) => e.seeAlso));
  entries.forEach((e, i) => { if (!e.example) checkName(entries, i, vocabulary, taken); });
  return entries.map((e) => ({
    line: e.line,
    name: e.name,
    nameFrom: e.example ? 'example' : 'manual_names.json',
    example: e.example,
    undeclared: e.undeclared,
    devtoolsKnown: e.devtoolsKnown,
    recording: e.recording,
    recordingRequires: e.recordingRequires,
    recordingSentence: e.recordingSentence,
    categories: e.categories,
  }));
}

// A copy of an example event without the truncation markers.
function withoutTruncation(value) {
  if (Array.isArray(value)) {
    return value.filter((v) => !(typeof v === 'string' && TRUNCATION.test(v))).map(withoutTruncation);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutTruncation(v)]));
  }
  return value;
}

// Leaf paths of an example event's args in census notation, without the
// manual's truncation markers; an empty object or array is a leaf itself.
// Returns a sorted array.
function leafPaths(event) {
  const out = new Set();
  const visit = (value, p) => {
    if (Array.isArray(value)) {
      if (value.length === 0) out.add(`${p}[]`);
      for (const v of value) visit(v, `${p}[]`);
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.length === 0) out.add(p);
      for (const k of keys) visit(value[k], `${p}.${k}`);
    } else {
      out.add(p);
    }
  };
  if (event.args !== undefined) visit(withoutTruncation(event.args), 'args');
  out.delete('args'); // an empty args object declares and shows nothing
  return [...out].sort();
}

module.exports = { parseManual, leafPaths, withoutTruncation };
