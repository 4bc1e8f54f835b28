// An independent oracle for the long-task kernels: Lighthouse's own trace
// code (lighthouse/core/lib/tracehouse) run on every trace of a folder.
//
//   npm ci --prefix tests/kernels
//   node tests/kernels/lighthouse_oracle.mjs [folder]   (default ../shared/traces/third-party)
//
// Prints one JSON document: {lighthouse, traces: [...]}, traces sorted by file name. Per trace:
//   site         file name before "__trace" / ".trace" / ".json" (e.g. "artifacts__lr")
//   main_frame   {frame, pid}: TraceProcessor.findMainFrameIds
//   main_threads [{pid, tid}]: TraceProcessor.findMainFramePidTids, one per renderer the main
//                frame committed in (several after a cross-process navigation)
//   long_tasks   [{start_us, dur_us, name, unbounded}]: MainThreadTasks.getMainThreadTasks on
//                those threads' events, tasks with no parent and duration >= 50 ms, in start
//                order. This is the tree Lighthouse's long-tasks audit reads; Lighthouse stretches
//                a parent by up to 1 ms when a child overruns it, so dur_us can exceed the
//                event's own dur.
//   blocking_time_ms  sum of max(0, dur - 50 ms) over long_tasks that are bounded
//   lh_tbt_ms    Lighthouse's own TBT formula (calculateSumOfBlockingTime) over
//                getMainThreadTopLevelEvents for the whole trace (timespan mode: no FCP/TTI
//                clipping). Unlike long_tasks it reads only complete (X) events of the four
//                schedulable task names, nested or not.
//   error        set instead of the above when Lighthouse cannot find the main thread
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

import {TraceProcessor} from 'lighthouse/core/lib/tracehouse/trace-processor.js';
import {MainThreadTasks} from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const lhVersion = require('lighthouse/package.json').version;
const LONG_TASK_MS = 50;

function siteOf(file) {
  let s = file.replace(/\.(gz|zst)$/, '').replace(/\.json$/, '').replace(/\.trace$/, '');
  return s.replace(/__trace$/, '');
}

function loadTrace(file) {
  let buf = fs.readFileSync(file);
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
  const json = JSON.parse(buf.toString('utf8'));
  return Array.isArray(json) ? {traceEvents: json} : json;
}

// Microseconds back from Lighthouse's milliseconds, without float noise.
const us = ms => Math.round(ms * 1e6) / 1e3;

function analyse(trace) {
  // The same steps as TraceProcessor.processTrace up to mainThreadEvents, without the
  // navigation time origin it also insists on (several traces have no navigationStart).
  const keyEvents = TraceProcessor.filteredTraceSort(trace.traceEvents, e =>
    e.cat.includes('blink.user_timing') || e.cat.includes('loading') ||
    e.cat.includes('devtools.timeline') || e.cat === '__metadata');
  const mainFrame = TraceProcessor.findMainFrameIds(keyEvents);
  const pidToTid = TraceProcessor.findMainFramePidTids(mainFrame, keyEvents);
  const mainThreadEvents = TraceProcessor.filteredTraceSort(trace.traceEvents,
    e => pidToTid.has(e.pid) && e.tid === pidToTid.get(e.pid));
  const traceEnd = TraceProcessor.computeTraceEnd(trace.traceEvents, {ts: 0}).timestamp;

  // traceStartTs 0 keeps task times absolute (ms since the trace clock's zero).
  const tasks = MainThreadTasks.getMainThreadTasks(mainThreadEvents, [], traceEnd, 0);
  const longTasks = tasks
    .filter(t => !t.parent && t.duration >= LONG_TASK_MS)
    .map(t => ({start_us: us(t.startTime), dur_us: us(t.duration), name: t.event.name,
      unbounded: t.unbounded}));
  const blocking = longTasks.filter(t => !t.unbounded)
    .reduce((sum, t) => sum + Math.max(0, t.dur_us / 1000 - LONG_TASK_MS), 0);

  const topLevel = TraceProcessor.getMainThreadTopLevelEvents(
    {mainThreadEvents, timeOriginEvt: {ts: 0}}, -Infinity, Infinity);
  const traceStart = trace.traceEvents.reduce((min, e) => (e.ts > 0 && e.ts < min ? e.ts : min),
    Infinity);
  const lhTbt = Lantern.Metrics.TBTUtils.calculateSumOfBlockingTime(
    topLevel, traceStart / 1000, traceEnd / 1000);

  return {
    main_frame: {frame: mainFrame.frameId, pid: mainFrame.startingPid},
    main_threads: [...pidToTid].sort((a, b) => a[0] - b[0]).map(([pid, tid]) => ({pid, tid})),
    long_tasks: longTasks,
    blocking_time_ms: Math.round(blocking * 1e6) / 1e6,
    lh_tbt_ms: Math.round(lhTbt * 1e6) / 1e6,
  };
}

const dir = path.resolve(process.argv[2] ?? path.join(here, '../../../shared/traces/third-party'));
const files = fs.readdirSync(dir).filter(f => /\.json(\.gz)?$/.test(f)).sort();
const traces = [];
for (const file of files) {
  const entry = {site: siteOf(file), file};
  try {
    Object.assign(entry, analyse(loadTrace(path.join(dir, file))));
  } catch (err) {
    entry.error = String(err.message ?? err);
  }
  traces.push(entry);
}
process.stdout.write(JSON.stringify({lighthouse: lhVersion, traces}, null, 1) + '\n');
