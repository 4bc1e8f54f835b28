// Loads a census of the bundled crawl into DuckDB (@duckdb/node-api, pinned
// in package.json) the way an analyst would, and checks the loaded figures
// against census.json as Node's own JSON parser reads it:
//   census.csv   read_csv_auto with default options: one row per event,
//                the counts, and the categories_list and
//                undeclared_args_list cells parsed as JSON lists;
//   census.json  read_json_auto: phase_counts unnested to rows per phase
//                letter. `phases` keeps its letter keys (a documented
//                contract), and DuckDB's structs cannot hold two keys that
//                differ only in case (B and b): with default options it
//                refuses the file, so the reader is told to take such
//                objects as MAPs (field_appearance_threshold, README).
//
// usage: node data_tools_test.mjs TRACECENSUS OUTDIR   (run in the repository root)
// Exit 77 (skipped) when @duckdb/node-api is not installed (npm ci in
// tests/report), unless TC_REQUIRE_ORACLES=1.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [binary, outroot] = process.argv.slice(2);
if (!binary || !outroot) {
  console.error('usage: node data_tools_test.mjs TRACECENSUS OUTDIR');
  process.exit(2);
}
const entry = new URL('./node_modules/@duckdb/node-api/lib/index.js', import.meta.url);
if (!existsSync(entry)) {
  const require_all = process.env.TC_REQUIRE_ORACLES === '1';
  console.error('data_tools_test: @duckdb/node-api is not installed (npm ci in tests/report)' +
    (require_all ? ' (TC_REQUIRE_ORACLES=1: failing)' : '; skipped'));
  process.exit(require_all ? 1 : 77);
}
const { DuckDBInstance } = await import(entry);

const failures = [];
function same(got, want, what) {
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) failures.push(what);
  console.log(ok ? `ok   ${what}` : `FAIL ${what}: got ${JSON.stringify(got).slice(0, 300)}, want ${JSON.stringify(want).slice(0, 300)}`);
}

const out = resolve(join(outroot, 'data-tools'));
execFileSync(resolve(binary), ['census', '-T', '2', '-q', '--manifest', 'corpus/crawl/manifest.tsv', '-o', out,
  'corpus/crawl'], { stdio: 'inherit' });
const census = JSON.parse(readFileSync(join(out, 'census.json'), 'utf8'));
const byName = new Map(census.events.map((e) => [e.name, e]));

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();
const lit = (p) => `'${p.replaceAll("'", "''")}'`;

// census.csv, default options.
const csv = await rows(`SELECT name, records, sites, categories_list, undeclared_args_list
  FROM read_csv_auto(${lit(join(out, 'census.csv'))}) ORDER BY name`);
same(csv.length, census.events.length, `census.csv: ${csv.length} rows, one per event of census.json`);
let counts = 0, cats = 0, undeclared = 0;
for (const r of csv) {
  const e = byName.get(r.name);
  if (!e) continue;
  counts += Number(r.records) === e.records && Number(r.sites) === e.sites;
  cats += JSON.stringify(JSON.parse(r.categories_list)) === JSON.stringify(e.categories.map((c) => c.name));
  undeclared += JSON.stringify(JSON.parse(r.undeclared_args_list)) === JSON.stringify(e.undeclared_args);
}
same(counts, census.events.length, 'census.csv: records and sites of every event as in census.json');
same(cats, census.events.length, 'census.csv: categories_list of every event is its categories, in order');
same(undeclared, census.events.length, 'census.csv: undeclared_args_list of every event is its undeclared_args');
const withUndeclared = census.events.filter((e) => e.undeclared_args?.length).length;
same(withUndeclared > 0, true, `census.json has ${withUndeclared} events with undeclared args to compare`);
// The same lists read by DuckDB's own JSON functions.
const sqlCats = await rows(`SELECT sum(json_array_length(categories_list::JSON))::BIGINT AS n
  FROM read_csv_auto(${lit(join(out, 'census.csv'))})`);
same(Number(sqlCats[0].n), census.events.reduce((s, e) => s + e.categories.length, 0),
  'census.csv: categories counted by DuckDB\'s json_array_length');

// census.json: phase_counts as rows.
const json = lit(join(out, 'census.json'));
let refused = '';
try {
  await rows(`SELECT count(*) FROM read_json_auto(${json})`);
} catch (e) {
  refused = e.message;
}
const letters = new Set(census.events.flatMap((e) => Object.keys(e.phases)));
const caseTwins = [...letters].filter((k) => k !== k.toLowerCase() && letters.has(k.toLowerCase()));
same(/Duplicate name "[A-Za-z]" in struct/.test(refused), caseTwins.length > 0,
  `census.json: default options refuse it exactly when phases has keys differing only in case (${caseTwins})`);
const phases = await rows(`SELECT ev.name AS name, pc.ph AS ph, pc.records AS records
  FROM (SELECT unnest(events) AS ev FROM read_json_auto(${json}, field_appearance_threshold = 0.5)),
       LATERAL (SELECT unnest(ev.phase_counts) AS pc) ORDER BY name, ph`);
const want = [];
for (const e of census.events) for (const [ph, n] of Object.entries(e.phases)) want.push([e.name, ph, n]);
const got = phases.map((r) => [r.name, r.ph, Number(r.records)]);
const key = (a) => a.join('\u0000');
same(got.map(key).sort(), want.map(key).sort(), `census.json: ${got.length} (event, phase) rows from phase_counts equal phases`);
const total = await rows(`SELECT records FROM read_json_auto(${json}, field_appearance_threshold = 0.5)`);
same(Number(total[0].records), census.records, 'census.json: the corpus record count');

if (failures.length) {
  console.error(`data_tools_test: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log(`${csv.length} events checked in DuckDB`);
