#!/usr/bin/env python3
"""Compares tracecensus's long tasks with Lighthouse's (lighthouse_oracle.mjs).

    compare_oracle.py ORACLE_JSON METRICS_JSON

Per site, Lighthouse's main thread(s) must be tracecensus's
(traces[].main_thread.threads[].pid/tid), its bounded top-level tasks of at
least 50 ms must be tracecensus's (traces[].long_tasks.tasks[].start_us and
.dur_us, exactly), and its blocking time tracecensus's
(traces[].long_tasks.tbt_ms, to a nanosecond). Differences the tools are
expected to have are named and allowed:

  no-task-events  Lighthouse finds no task and reports nothing; tracecensus
                  says n/a (no_task_events), not 0.
  window-clip     tracecensus's window cut the task (clipped: true); its
                  blocking time counts only the part inside the window.
  parent-stretch  Lighthouse stretched a task by under 1 ms to hold a child
                  that overran it; tracecensus keeps the event's own dur.
  lh-no-main      Lighthouse found no main frame; tracecensus used another
                  rule (its main_thread.rule says which) or said n/a.

Anything else is a failure. Exit status 0 when everything agrees or is
explained, 1 otherwise.
"""
import json
import sys

TOL_MS = 1e-6


def by_site(traces):
    return {t['site']: t for t in traces}


def compare(lh, tc):
    """(failures, explanations) for one site."""
    fails, notes = [], []
    if 'error' in lh:
        notes.append('lh-no-main: %s; tracecensus rule %s, na %s' % (
            lh['error'], tc['main_thread']['rule'], tc['main_thread']['na']))
        return fails, notes
    ours = [(t['pid'], t['tid']) for t in tc['main_thread']['threads']]
    theirs = [(t['pid'], t['tid']) for t in lh['main_threads']]
    if ours != theirs:
        fails.append('main thread %s, Lighthouse %s' % (ours, theirs))
        return fails, notes
    lt = tc['long_tasks']
    lh_tasks = [t for t in lh['long_tasks'] if not t['unbounded']]
    if lt['na']:
        if lt['na'] == 'no_task_events' and not lh['long_tasks']:
            notes.append('no-task-events')
        else:
            fails.append('tracecensus n/a (%s), Lighthouse %d long tasks' % (lt['na'], len(lh_tasks)))
        return fails, notes
    ours = {t['start_us']: t for t in lt['tasks']}
    theirs = {t['start_us']: t for t in lh_tasks}
    expected_tbt = lh['blocking_time_ms']
    for start in sorted(set(ours) | set(theirs)):
        a, b = ours.get(start), theirs.get(start)
        if a and b and a['dur_us'] == b['dur_us']:
            if a['clipped']:
                notes.append('window-clip at %r' % start)
                expected_tbt = None
            continue
        if a and b and a['dur_us'] < b['dur_us'] <= a['dur_us'] + 1000:
            notes.append('parent-stretch at %r: %r vs %r us' % (start, a['dur_us'], b['dur_us']))
            expected_tbt = None
            continue
        fails.append('task at %r: tracecensus %s, Lighthouse %s' % (
            start, a and a['dur_us'], b and b['dur_us']))
    if expected_tbt is not None and abs(lt['tbt_ms'] - expected_tbt) > TOL_MS:
        fails.append('tbt %r ms, Lighthouse %r ms' % (lt['tbt_ms'], expected_tbt))
    return fails, notes


def main():
    lh = by_site(json.load(open(sys.argv[1]))['traces'])
    tc = by_site(json.load(open(sys.argv[2]))['traces'])
    bad = 0
    for site in sorted(lh):
        if site not in tc:
            print('FAIL %s: not in metrics.json' % site)
            bad += 1
            continue
        fails, notes = compare(lh[site], tc[site])
        n = len(tc[site]['long_tasks']['tasks'])
        tbt = tc[site]['long_tasks']['tbt_ms']
        if fails:
            bad += 1
            print('FAIL %s: %s' % (site, '; '.join(fails)))
        else:
            print('ok   %s: %d long tasks, tbt %s ms%s' % (
                site, n, tbt, ' (' + '; '.join(notes) + ')' if notes else ''))
    print('%d of %d traces agree with Lighthouse %s' % (
        len(lh) - bad, len(lh), json.load(open(sys.argv[1]))['lighthouse']))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
