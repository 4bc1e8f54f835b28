#!/usr/bin/env python3
"""Recomputes every figure of metrics.json from the raw traces and compares.

    metrics_reference.py METRICS_JSON TRACE_DIR

An independent check of the kernels, written apart from them and on purpose
the slow, obvious way: busy time per bucket by intersecting every bucket with
every busy interval, lag quantiles by bisection on the distribution function
instead of a sweep, forward fill by searching back from each bucket end,
frame continuity by replaying the compositor's state at each draw, forced
layouts by testing each Layout against every script slice of its thread,
renderer roles by walking every frame's parents.

Where the trace has TracingStartedInBrowser or TracingStartedInPage the main
thread is taken from metrics.json, where the Lighthouse oracle checks it; in
a trace without them (a startup trace) the page is found here too, from the
rule in metrics.json's rules: the earliest web document committed in an
outermost main frame (CommitLoad, else FrameCommittedInBrowser, else
navigationStart). Everything after is recomputed from the trace file
(plain, gzip or zstd) named by the record's "trace", looked up under
TRACE_DIR by its path below the site folder, else by its base name.

Exit status 0 when every figure agrees (to 1e-6, the reports' rounding), 1
otherwise; each disagreement is printed.
"""
import bisect
import gzip
import json
import math
import os
import subprocess
import sys

TASKS = {'RunTask', 'ThreadControllerImpl::RunTask', 'ThreadControllerImpl::DoWork',
         'TaskQueueManager::ProcessTaskFromWorkQueue', 'MessageLoop::RunTask', 'toplevel'}
LONG_US = 50000.0
JUMP_US = 60e6
NEST_SLACK_US = 1000.0


def load(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    elif data[:4] == b'\x28\xb5\x2f\xfd':
        data = subprocess.run(['zstd', '-dcq', path], check=True, capture_output=True).stdout
    doc = json.loads(data)
    return [e for e in (doc if isinstance(doc, list) else doc['traceEvents']) if isinstance(e, dict)]


def min_samples(q):
    """A nearest-rank q-quantile needs 1/(1-q) samples (the median 2, p95 20)."""
    return 1 if q in (0, 1) else math.ceil(1 / (1 - q) - 1e-9)


def nearest_rank(values, q):
    v = sorted(values)
    if len(v) < min_samples(q):
        return None
    return v[min(len(v), max(1, math.ceil(q * len(v)))) - 1]


def round_half_up(x):
    return math.floor(x + 0.5)


def merge(spans):
    out = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def overlap(a0, a1, b0, b1):
    return max(0.0, min(a1, b1) - max(a0, b0))


WEB = ('http:', 'https:', 'file:')
BROWSER = ('chrome:', 'chrome-untrusted:', 'devtools:', 'chrome-extension:', 'chrome-search:')
SCRIPTS = {'FunctionCall', 'EvaluateScript', 'v8.evaluateModule'}
CLAMP_FLOOR_US = 60e6


def data_of(e):
    args = e.get('args')
    data = args.get('data') if isinstance(args, dict) else None
    return data if isinstance(data, dict) else {}


def flag(d, *keys):
    """The first of the boolean fields KEYS that is present, else None."""
    for k in keys:
        if isinstance(d.get(k), bool):
            return d[k]
    return None


def documents(events):
    """Every frame-document event as (kind, frame, url, parent, pid, ts, main)."""
    docs = []
    for e in events:
        name, d = e.get('name'), data_of(e)
        if name == 'CommitLoad' and d.get('frame'):
            docs.append(('commit', d['frame'], d.get('url') or None, d.get('parent') or None,
                         e.get('pid'), e['ts'], flag(d, 'isOutermostMainFrame', 'isMainFrame')))
        elif name in ('FrameCommittedInBrowser', 'ProcessReadyInBrowser') and d.get('frame') \
                and isinstance(d.get('processId'), (int, float)) and d['processId']:
            main = flag(d, 'isOutermostMainFrame', 'isMainFrame')
            docs.append(('browser' if name[0] == 'F' else 'ready', d['frame'],
                         (d.get('url') or None) if name[0] == 'F' else None, d.get('parent') or None,
                         int(d['processId']), e['ts'], (not d.get('parent')) if main is None else main))
        elif name == 'navigationStart' and isinstance(e.get('args'), dict) and e['args'].get('frame'):
            docs.append(('nav', e['args']['frame'], d.get('documentLoaderURL') or None, None,
                         e.get('pid'), e['ts'], flag(d, 'isOutermostMainFrame', 'isLoadingMainFrame')))
        elif name == 'TracingStartedInBrowser':
            for f in d.get('frames') or []:
                if isinstance(f, dict) and f.get('frame') and isinstance(f.get('processId'), (int, float)) \
                        and f['processId']:
                    docs.append(('started', f['frame'], f.get('url') or None, f.get('parent') or None,
                                 int(f['processId']), e['ts'], not f.get('parent')))
    return docs


def thread_names(events):
    return {(e.get('pid'), e.get('tid')): (e.get('args') or {}).get('name') for e in events
            if e.get('ph') == 'M' and e.get('name') == 'thread_name'}


def renderer_mains(events):
    """{pid: tid} of every renderer's main thread (lowest tid named CrRendererMain)."""
    mains = {}
    for (pid, tid), name in thread_names(events).items():
        if name == 'CrRendererMain' and (pid not in mains or tid < mains[pid]):
            mains[pid] = tid
    return mains


def startup_page(events, docs):
    """The page of a trace without TracingStarted events: (rule, frame, commit ts, main
    threads), or None."""
    for kind, rule in (('commit', 'commit_load'), ('browser', 'frame_committed_in_browser'),
                       ('nav', 'navigation_start')):
        cands = sorted((ts, pid, frame) for k, frame, url, _, pid, ts, main in docs
                       if k == kind and main is True and url and url.startswith(WEB))
        if cands:
            ts, pid, frame = cands[0]
            pids = {p for k, f, _, _, p, _, _ in docs if f == frame and k in ('commit', 'browser', 'ready')}
            mains = renderer_mains(events)
            return rule, frame, ts, sorted((p, mains[p]) for p in (pids or {pid}) if p in mains)
    return None


class Trace:
    def __init__(self, events, record):
        self.events = events
        self.threads = [(t['pid'], t['tid']) for t in record['main_thread']['threads']]
        self.pids = {p for p, _ in self.threads}
        self.frame = record['main_thread']['frame']
        stamps = [e['ts'] for e in events if e.get('ph') != 'M' and isinstance(e.get('ts'), (int, float))]
        self.span = max(stamps) - min(stamps) if stamps else 0
        self.last_ts = max(stamps) if stamps else 0
        self.max_task = max(self.span, CLAMP_FLOOR_US)

    def thread_end(self, pid, tid):
        return max(e['ts'] + max(e.get('dur', 0), 0) for e in self.events
                   if e.get('pid') == pid and e.get('tid') == tid and e.get('ph') != 'M' and 'ts' in e)

    def window(self, commit_ts=None):
        ts = [(e['ts'], e['ts'] + max(e.get('dur', 0), 0)) for e in self.events
              if (e.get('pid'), e.get('tid')) in self.threads and e.get('ph') != 'M' and 'ts' in e]
        ws, we = min(a for a, _ in ts), max(b for _, b in ts)
        if commit_ts is not None:
            ws = max(ws, commit_ts)
        return ws, min(we, self.last_ts + self.max_task)

    def tasks(self, threads=None):
        """Top-level tasks [(s, e, unbounded)], the raw task count, the busy spans
        and the number of tasks clipped to the longest a task may be."""
        threads = self.threads if threads is None else threads
        per_thread = {}
        for e in self.events:
            key = (e.get('pid'), e.get('tid'))
            if key not in threads or e.get('name') not in TASKS or e.get('ph') not in 'XBE':
                continue
            per_thread.setdefault(key, []).append(e)
        tops, raw, spans, clipped = [], 0, [], 0
        for key, evs in per_thread.items():
            end_of_thread = self.thread_end(*key)
            done, stack = [], []
            for e in evs:
                raw += e['ph'] != 'E'
                if e['ph'] == 'X':
                    if 'dur' in e:
                        done.append((e['ts'], e['ts'] + e['dur'], False))
                    else:
                        done.append((e['ts'], max(end_of_thread, e['ts']), True))
                elif e['ph'] == 'B':
                    stack.append(e)
                else:
                    for i in range(len(stack) - 1, -1, -1):
                        if stack[i]['name'] == e['name']:
                            done.append((stack[i]['ts'], e['ts'], False))
                            del stack[i]
                            break
            done += [(b['ts'], max(end_of_thread, b['ts']), True) for b in stack]
            spans += [(s, e if e > s and not u else s) for s, e, u in done if e >= s]
            done = [t for t in done if t[1] >= t[0]]
            clipped += sum(1 for s, e, _ in done if e - s > self.max_task)
            done = [(s, min(e, s + self.max_task), u) for s, e, u in done]
            done.sort(key=lambda t: (t[0], -t[1], t[2]))
            reach = -math.inf
            for s, e, u in done:
                if s < reach and e <= reach + NEST_SLACK_US:
                    continue
                reach = e
                tops.append((s, e, u))
        return sorted(tops, key=lambda t: (t[0], -t[1], t[2])), raw, spans, clipped


def jumps(task_spans, ws, we, trim):
    busy = merge(task_spans)
    gaps, prev = [], ws
    for s, e in busy:
        if s - prev > JUMP_US:
            gaps.append((prev, s))
        prev = max(prev, e)
    if busy and we - prev > JUMP_US:
        gaps.append((prev, we))
    if trim and gaps and gaps[0][0] <= ws:
        ws = gaps.pop(0)[1]
    if trim and gaps and gaps[-1][1] >= we:
        we = gaps.pop()[0]
    return gaps, ws, we


def meets(stretches, s, e):
    for a, b in stretches:
        if b > a and a < e and s < b:
            return True
        if b == a and s < a < e:
            return True
    return False


def lag_figures(tops, ws, we, invalid):
    """Quantiles by bisection on F(w) = P(wait <= w)."""
    busy = merge([(s, e) for s, e, _ in tops])
    lost = [list(x) for x in invalid]
    pieces = []
    for s, e in busy:
        a, b = max(s, ws), min(e, we)
        if b <= a:
            continue
        if meets(invalid, s, e):
            lost.append([a, b])
            continue
        pieces.append((e - b, e - a))  # waits run from e-b to e-a
    lost = merge(lost)
    valid = (we - ws) - sum(overlap(a, b, ws, we) for a, b in lost)
    busy_t = sum(hi - lo for lo, hi in pieces)

    def F(w):
        return (valid - busy_t + sum(min(max(w - lo, 0), hi - lo) for lo, hi in pieces)) / valid

    def quantile(q):
        if F(0) >= q:
            return 0.0
        lo, hi = 0.0, max(h for _, h in pieces)
        for _ in range(200):
            mid = (lo + hi) / 2
            if F(mid) >= q:
                hi = mid
            else:
                lo = mid
        return hi

    mean = sum((hi * hi - lo * lo) / 2 for lo, hi in pieces) / valid
    longs = merge([(s, e) for s, e, u in tops if not u and e - s >= LONG_US and not meets(invalid, s, e)])
    in_long = 0.0
    for s, e in longs:
        a, b = max(s, ws), min(e, we)
        if b > a:
            in_long += (b - a) - sum(overlap(x, y, a, b) for x, y in lost)
    return {
        'valid_ms': valid / 1e3,
        'p50_ms': quantile(0.5) / 1e3, 'p90_ms': quantile(0.9) / 1e3, 'p99_ms': quantile(0.99) / 1e3,
        'mean_ms': mean / 1e3, 'max_ms': max([h for _, h in pieces] or [0]) / 1e3,
        'long_task_share_pct': 100 * in_long / valid,
    }


def busy_figures(tops, ws, we, bucket_us, invalid):
    busy = merge([(s, e) for s, e, _ in tops])
    series, pcts, total, length = [], [], 0.0, 0.0
    n = math.ceil((we - ws) / bucket_us)
    for i in range(n):
        bs, be = ws + i * bucket_us, min(ws + (i + 1) * bucket_us, we)
        if meets(invalid, bs, be):
            series.append(None)
            continue
        b = sum(overlap(s, e, bs, be) for s, e in busy)
        series.append(round(100 * b / (be - bs), 6))
        total += b
        length += be - bs
        if i + 1 < n or be - bs >= bucket_us / 2 or not pcts:
            pcts.append(series[-1])
    return {'mean_pct': 100 * total / length, 'p50_pct': nearest_rank(pcts, 0.5),
            'p95_pct': nearest_rank(pcts, 0.95), 'max_pct': max(pcts), 'series_pct': series,
            'buckets': len(pcts)}


def long_figures(tops, ws, we, invalid):
    tasks = [(s, e) for s, e, u in tops if not u and e - s >= LONG_US and not meets(invalid, s, e)]
    tbt = sum(max(0.0, min(e, we) - max(s, ws) - LONG_US) for s, e in tasks) / 1e3
    durs = [(e - s) / 1e3 for s, e in tasks]
    out = {'count': len(tasks), 'tbt_ms': tbt, 'tasks': [{'start_us': s, 'dur_us': e - s} for s, e in tasks]}
    if durs:
        out.update(mean_ms=sum(durs) / len(durs), p50_ms=nearest_rank(durs, 0.5),
                   p95_ms=nearest_rank(durs, 0.95), max_ms=max(durs))
    return out


def frame_figures(t, ws, we, refresh_hz, invalid):
    trees = set()
    for e in t.events:
        if e.get('name') == 'SetLayerTreeId' and e.get('pid') in t.pids:
            data = e.get('args', {}).get('data', {})
            if 'layerTreeId' in data and (not data.get('frame') or not t.frame or data.get('frame') == t.frame):
                trees.add((e['pid'], data['layerTreeId']))
    if not trees:
        return {'na': 'layer_tree_not_found'}
    draws, changes = {}, {}
    for e in t.events:
        key = (e.get('pid'), e.get('args', {}).get('layerTreeId'))
        if key not in trees:
            continue
        if e.get('name') == 'DrawFrame' and e.get('ph') in ('I', 'i'):
            draws.setdefault(key, []).append(e['ts'])
        if e.get('name') == 'NeedsBeginFrameChanged' and 'needsBeginFrame' in e['args'].get('data', {}):
            changes.setdefault(key, []).append((e['ts'], int(bool(e['args']['data']['needsBeginFrame']))))
    intervals, ndraws, continuous = [], 0, 0
    for key, ts in draws.items():
        ts = sorted(x for x in ts if ws <= x <= we)
        ndraws += len(ts)
        ch = sorted(changes.get(key, []))

        def asking(at):
            before = [v for c, v in ch if c <= at]
            return before[-1] if before else (1 - ch[0][1] if ch else 0)

        for a, b in zip(ts, ts[1:]):
            if not ch or not asking(a) or any(v == 0 for c, v in ch if a < c < b):
                continue
            continuous += 1
            if not meets(invalid, a, b):
                intervals.append((b - a) / 1e3)
    if not ndraws:
        return {'na': 'no_frames'}
    if not continuous:
        return {'na': 'no_continuous_updates'}
    budget = 1000.0 / refresh_hz
    vsyncs = [round_half_up(i / budget) for i in intervals]
    by_vsyncs = [0] * 9
    for v in vsyncs:
        by_vsyncs[min(v, 8)] += 1
    return {'draws': ndraws, 'intervals': len(intervals), 'mean_ms': sum(intervals) / len(intervals),
            'p50_ms': nearest_rank(intervals, 0.5), 'p95_ms': nearest_rank(intervals, 0.95),
            'max_ms': max(intervals), 'over_budget': sum(i > 1.5 * budget for i in intervals),
            'missed_vsyncs': sum(max(0, v - 1) for v in vsyncs), 'by_vsyncs': by_vsyncs}


def slices(events, names):
    """(name, start, end) of the complete slices called NAMES, X with a dur or
    B/E pairs (an E closes the innermost open B of its name)."""
    out, stack = [], []
    for e in events:
        name = e.get('name')
        if name not in names:
            continue
        if e.get('ph') == 'X' and isinstance(e.get('dur'), (int, float)) and e['dur'] >= 0:
            out.append((name, e['ts'], e['ts'] + e['dur']))
        elif e.get('ph') == 'B':
            stack.append(e)
        elif e.get('ph') == 'E':
            for i in range(len(stack) - 1, -1, -1):
                if stack[i]['name'] == name:
                    if e['ts'] >= stack[i]['ts']:
                        out.append((name, stack[i]['ts'], e['ts']))
                    del stack[i]
                    break
    return out


def layout_figures(t, ws, we):
    """Layouts of the main threads starting in the window, and those starting
    inside a script slice of their own thread."""
    layouts, forced, forced_ms = 0, 0, 0.0
    for pid, tid in t.threads:
        mine = slices([e for e in t.events if e.get('pid') == pid and e.get('tid') == tid],
                      SCRIPTS | {'Layout'})
        scripts = [(a, b) for name, a, b in mine if name in SCRIPTS]
        for name, a, b in mine:
            if name != 'Layout' or not ws <= a <= we:
                continue
            layouts += 1
            if any(x <= a <= y for x, y in scripts):
                forced += 1
                forced_ms += min(b - a, t.max_task) / 1e3
    if not layouts:
        return {'na': 'no_layout_events'}
    return {'layouts': layouts, 'forced': forced, 'forced_ms': forced_ms}


def renderer_roles(t, docs):
    """{pid: (role, url)} for every renderer but the page's."""
    parent, sub_in_main = {}, set()
    for _, frame, _, par, pid, ts, main in sorted(docs, key=lambda d: (d[1], d[5], d[4], d[2] or '')):
        if par and frame not in parent:
            parent[frame] = par
        if main is False and pid in t.pids:
            sub_in_main.add(frame)

    def of_page(frame):
        for _ in range(64):
            if frame is None:
                return False
            if frame == t.frame or frame in sub_in_main:
                return True
            frame = parent.get(frame)
        return False

    roles = {}
    for pid in renderer_mains(t.events):
        if pid in t.pids:
            continue
        mine = sorted((d for d in docs if d[4] == pid), key=lambda d: (d[5], d[1]))
        frames = [d for d in mine if d[6] is False and d[1] != t.frame and of_page(d[1])]
        tops = [d for d in mine if d[6] is True and d[2]]
        if frames:
            roles[pid] = ('iframe', frames[0][2])
        elif tops and all(d[2].startswith(BROWSER) for d in tops):
            roles[pid] = ('browser_ui', tops[0][2])
        else:
            roles[pid] = ('other', next((d[2] for d in mine if d[2]), None))
    return roles


def renderer_figures(t, docs, ws, we, invalid, main_url):
    out = {}
    roles = renderer_roles(t, docs)
    for pid, tid in renderer_mains(t.events).items():
        role, url = ('page', main_url) if pid in t.pids else roles[pid]
        tops, raw, _, _ = t.tasks([(pid, tid)])
        tops = in_window(tops, ws, we)
        fig = {'role': role, 'url': url}
        if raw:
            lf = long_figures(tops, ws, we, invalid)
            fig.update(tasks=sum(1 for s, e, _ in tops if not meets(invalid, s, e)),
                       long_tasks=lf['count'], tbt_ms=lf['tbt_ms'],
                       long_task_max_ms=lf.get('max_ms'), long_task_list=lf['tasks'])
        else:
            fig['na'] = 'no_task_events'
        out[pid] = fig
    return out


def in_window(tops, ws, we):
    tops = [x for x in tops if (x[0] < we and x[1] > ws) if x[1] > x[0]] + \
           [x for x in tops if x[1] == x[0] and ws <= x[0] < we]
    return sorted(tops, key=lambda x: (x[0], -x[1], x[2]))


def heap_figures(t, ws, we, bucket_us):
    samples = sorted((e['ts'], e['args']['data']['jsHeapSizeUsed']) for e in t.events
                     if e.get('name') == 'UpdateCounters' and e.get('pid') in t.pids and e['ts'] <= we
                     and isinstance(e.get('args', {}).get('data', {}).get('jsHeapSizeUsed'), (int, float)))
    if not samples:
        return {'na': 'no_heap_samples'}
    inside = [v for ts, v in samples if ts >= ws]
    before = [v for ts, v in samples if ts < ws]
    start = before[-1] if before else inside[0]
    series = []
    n = math.ceil((we - ws) / bucket_us)
    for i in range(n):
        be = min(ws + (i + 1) * bucket_us, we)
        upto = [v for ts, v in samples if ts <= be]
        series.append(upto[-1] if upto else None)
    return {'samples': len(inside), 'start_bytes': start, 'end_bytes': samples[-1][1],
            'growth_bytes': samples[-1][1] - start, 'max_bytes': max([start] + inside),
            'series_bytes': series}


def user_timing_figures(t, ws, we):
    opened, measures, unclosed = {}, {}, {}
    for e in t.events:
        if 'blink.user_timing' not in e.get('cat', '') or e.get('pid') not in t.pids:
            continue
        ident = e.get('id', (e.get('id2') or {}).get('local', (e.get('id2') or {}).get('global', '')))
        key = (e['pid'], e['name'], str(ident))
        if e.get('ph') in ('b', 'S'):
            opened.setdefault(key, []).append(e['ts'])
        elif e.get('ph') in ('e', 'F') and opened.get(key):
            b = opened[key].pop()
            if ws <= b <= we and e['ts'] >= b:
                measures.setdefault(e['name'], []).append((e['ts'] - b) / 1e3)
    for (pid, name, _), begins in opened.items():
        n = sum(ws <= b <= we for b in begins)
        if n:
            unclosed[name] = unclosed.get(name, 0) + n
    out = {'measures': [{'name': n, 'count': len(v), 'mean_ms': sum(v) / len(v),
                         'p50_ms': nearest_rank(v, 0.5), 'p95_ms': nearest_rank(v, 0.95), 'max_ms': max(v)}
                        for n, v in sorted(measures.items())],
           'unclosed': unclosed}
    if not measures:
        out['na'] = 'no_user_timing'
    return out


class Checker:
    def __init__(self, site):
        self.site, self.bad = site, []

    def num(self, what, got, want):
        if want is None or got is None:
            if want != got:
                self.bad.append('%s: %r, reference %r' % (what, got, want))
        elif abs(got - want) > 2e-6 + 1e-12 * abs(want):
            self.bad.append('%s: %r, reference %r' % (what, got, want))

    def obj(self, what, got, want):
        for k, v in want.items():
            if isinstance(v, list):
                if len(got[k]) != len(v):
                    self.bad.append('%s.%s: %d items, reference %d' % (what, k, len(got[k]), len(v)))
                    continue
                for i, (g, w) in enumerate(zip(got[k], v)):
                    if isinstance(w, dict):
                        self.obj('%s.%s[%d]' % (what, k, i), g, w)
                    else:
                        self.num('%s.%s[%d]' % (what, k, i), g, w)
            elif isinstance(v, str):
                if got.get(k) != v:
                    self.bad.append('%s.%s: %r, reference %r' % (what, k, got.get(k), v))
            else:
                self.num('%s.%s' % (what, k), got[k], v)


GROUPS = ('main_thread', 'window', 'busy', 'long_tasks', 'lag', 'frames', 'heap', 'user_timing')


def check_unreadable(c, record, path):
    """A trace tracecensus could not read must be n/a throughout and fail to
    load here too."""
    for g in GROUPS:
        if record[g]['na'] != 'trace_unreadable':
            c.bad.append('%s.na %r, want trace_unreadable' % (g, record[g]['na']))
    try:
        load(path)
    except (OSError, ValueError, KeyError, TypeError, EOFError) as e:
        return c, 'unreadable (%s), reference: %s' % (record['error'], type(e).__name__)
    c.bad.append('unreadable (%s), but the reference reads it' % record['error'])
    return c, ''


def main_url(docs, frame):
    """The main frame's earliest web document, else its earliest committed one,
    else any URL an event gives it."""
    mine = sorted((d for d in docs if d[1] == frame and d[2]), key=lambda d: (d[5], d[4]))
    web = [d for d in mine if d[2].startswith(WEB)]
    committed = [d for d in mine if d[0] in ('commit', 'browser')]
    return (web or committed or mine or [(None, None, None)])[0][2]


def check_page(c, record, t, docs):
    """For a startup trace, the page itself; returns the commit that starts
    the window (None for a TracingStarted trace)."""
    rule = record['main_thread']['rule']
    if rule not in ('commit_load', 'frame_committed_in_browser', 'navigation_start'):
        return None
    page = startup_page(t.events, docs)
    if page is None:
        c.bad.append('main_thread.rule %r, but the reference finds no web document' % rule)
        return None
    want_rule, frame, ts, threads = page
    if (rule, record['main_thread']['frame'], t.threads) != (want_rule, frame, [tuple(x) for x in threads]):
        c.bad.append('main thread %r %r %r, reference %r %r %r' % (
            rule, record['main_thread']['frame'], t.threads, want_rule, frame, threads))
    if record['window']['rule'] != 'page_commit':
        c.bad.append('window.rule %r, reference page_commit' % record['window']['rule'])
    return ts


def check(record, path, refresh_hz):
    c = Checker(record['site'])
    if record.get('error') is not None:
        return check_unreadable(c, record, path)
    if record['main_thread']['na'] or record['window']['na']:
        return c, 'n/a (%s)' % (record['main_thread']['na'] or record['window']['na'])
    t = Trace(load(path), record)
    docs = documents(t.events)
    commit = check_page(c, record, t, docs)
    url = main_url(docs, t.frame) if t.frame else None
    if record['main_thread']['url'] != url:
        c.bad.append('main_thread.url %r, reference %r' % (record['main_thread']['url'], url))
    ws, we = t.window(commit)
    tops, raw, spans, clipped = t.tasks()
    gaps, ws, we = jumps(spans, ws, we, record['window']['rule'] != 'marks')
    c.num('window.start_us', record['window']['start_us'], ws)
    c.num('window.end_us', record['window']['end_us'], we)
    c.num('clamps.trace_span_ms', record['clamps']['trace_span_ms'], t.span / 1e3)
    c.num('clamps.tasks_clipped', record['clamps']['tasks_clipped'], clipped)
    events = sum(1 for e in t.events if e.get('ph') != 'M' and isinstance(e.get('ts'), (int, float)))
    bucket_us = record['clamps']['bucket_ms_requested'] * 1e3
    need = math.ceil((we - ws) / bucket_us)
    if need > 4096 + 2 * events:
        bucket_us *= math.ceil(need / (4096 + 2 * events))
    c.num('busy.bucket_ms', record['busy']['bucket_ms'], bucket_us / 1e3)
    invalid = [(max(a, ws), min(b, we)) for a, b in gaps]
    c.num('validity.clock_jump_ms', record['validity']['clock_jump_ms'],
          sum(overlap(a, b, ws, we) for a, b in gaps) / 1e3)
    tops = in_window(tops, ws, we)
    if raw == 0:
        for g in ('busy', 'long_tasks', 'lag'):
            if record[g]['na'] != 'no_task_events':
                c.bad.append('%s.na %r, reference no_task_events' % (g, record[g]['na']))
    else:
        c.obj('busy', record['busy'], busy_figures(tops, ws, we, bucket_us, invalid))
        c.obj('long_tasks', record['long_tasks'], long_figures(tops, ws, we, invalid))
        c.obj('lag', record['lag'], lag_figures(tops, ws, we, invalid))
    frames = frame_figures(t, ws, we, refresh_hz, invalid)
    if 'na' in frames:
        c.obj('frames', record['frames'], {'na': frames['na']})
    else:
        c.obj('frames', record['frames'], frames)
    heap = heap_figures(t, ws, we, bucket_us)
    c.obj('heap', record['heap'], heap)
    ut = user_timing_figures(t, ws, we)
    got_unclosed = {u['name']: u['count'] for u in record['user_timing']['unclosed'] if not u['name'].endswith(':start')}
    if got_unclosed != ut.pop('unclosed'):
        c.bad.append('user_timing.unclosed: %r' % got_unclosed)
    c.obj('user_timing', record['user_timing'], ut)
    c.obj('layout', record['layout'], layout_figures(t, ws, we))
    want = renderer_figures(t, docs, ws, we, invalid, url)
    got = {r['pid']: r for r in record['renderers']}
    if sorted(got) != sorted(want):
        c.bad.append('renderers %r, reference %r' % (sorted(got), sorted(want)))
    for pid in sorted(set(got) & set(want)):
        c.obj('renderer %d' % pid, got[pid], want[pid])
    iframes = [w for w in want.values() if w['role'] == 'iframe']
    c.obj('iframes', record['iframes'], {
        'renderers': len(iframes), 'long_tasks': sum(w.get('long_tasks', 0) for w in iframes),
        'tbt_ms': sum(w.get('tbt_ms', 0) for w in iframes)})
    return c, 'window %.0f ms, %d top-level tasks, %d renderers' % (
        (we - ws) / 1e3, len(tops), len(want))


def main():
    doc = json.load(open(sys.argv[1]))
    budgets = [t['frames']['budget_ms'] for t in doc['traces'] if t['frames']['budget_ms']]
    refresh_hz = 1000.0 / budgets[0] if budgets else 60
    bad = 0
    for record in doc['traces']:
        # A crawl's traces are SITE/trace.json.zst: the site folder tells them apart.
        path = os.path.join(sys.argv[2], record['site'], os.path.basename(record['trace']))
        if not os.path.isfile(path):
            path = os.path.join(sys.argv[2], os.path.basename(record['trace']))
        c, note = check(record, path, refresh_hz)
        if c.bad:
            bad += 1
            print('FAIL %s: %s' % (record['site'], '; '.join(c.bad[:8])))
        else:
            print('ok   %s: %s' % (record['site'], note))
    print('%d of %d traces agree with the reference' % (len(doc['traces']) - bad, len(doc['traces'])))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
