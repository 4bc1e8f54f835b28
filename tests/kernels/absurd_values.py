#!/usr/bin/env python3
"""Memory and output bounded by the input's size, never by its values.

    absurd_values.py TRACECENSUS WORK_DIR

Writes a 2 MB startup-style trace (a page renderer with 5,000 RunTasks and
their children) and copies of it where one main-thread RunTask has dur 1e13,
1e15 or 1e300 microseconds, or one task sits at ts 1e15, and runs `tracecensus
census -T 1` on each. Every run must exit 0 (the trace is read cleanly) with
peak RSS (run.json's peak_rss_kib) within RSS_SLACK_KIB of the plain trace's
and metrics.json within twice its size, and the report must say what it
clamped: tasks_clipped 1 for an absurd dur, the bucket raised for an absurd
ts. Exit status 0 when every case holds, 1 otherwise.
"""
import json
import os
import subprocess
import sys

RSS_SLACK_KIB = 4 * 1024
TASKS = 5000


def trace(dur=None, ts=None):
    """The trace as text; DUR replaces the dur of task 4000, TS its ts."""
    ev = [{"name": "thread_name", "ph": "M", "pid": 2, "tid": 2, "ts": 0,
           "cat": "__metadata", "args": {"name": "CrRendererMain"}},
          {"name": "CommitLoad", "ph": "X", "pid": 2, "tid": 2, "ts": 1000, "dur": 10,
           "cat": "devtools.timeline",
           "args": {"data": {"frame": "F", "url": "https://example.com/",
                             "isOutermostMainFrame": True, "isMainFrame": True}}}]
    for i in range(TASKS):
        start = 2000 + i * 1000
        task = {"name": "RunTask", "ph": "X", "pid": 2, "tid": 2, "ts": start, "dur": 400,
                "cat": "disabled-by-default-devtools.timeline",
                "args": {"src_file": "../../third_party/blink/renderer/core/x.cc",
                         "src_func": "PostTask"}}
        if i == TASKS // 2:
            if dur is not None:
                task["dur"] = dur
            if ts is not None:
                task["ts"] = ts
        ev.append(task)
        ev.append({"name": "FunctionCall", "ph": "X", "pid": 2, "tid": 2, "ts": start + 10,
                   "dur": 300, "cat": "devtools.timeline",
                   "args": {"data": {"functionName": "f%d" % i, "url": "https://example.com/a.js"}}})
    return json.dumps({"traceEvents": ev})


def run(binary, work, name, text):
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "trace.json")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(work, name + ".out")
    p = subprocess.run([binary, "census", "-T", "1", "-o", out, path], capture_output=True,
                       text=True, timeout=300)
    with open(os.path.join(out, "run.json")) as f:
        rss = json.load(f)["peak_rss_kib"]
    with open(os.path.join(out, "metrics.json")) as f:
        metrics = json.load(f)["traces"][0]
    return p.returncode, p.stderr, rss, os.path.getsize(os.path.join(out, "metrics.json")), \
        metrics, os.path.getsize(path)


def main():
    binary, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    rc, err, base_rss, base_size, base, nbytes = run(binary, work, "plain", trace())
    print("plain: %.1f MB of JSON, peak RSS %d KiB, metrics.json %d bytes"
          % (nbytes / 1e6, base_rss, base_size))
    bad = rc != 0 or base["clamps"]["tasks_clipped"] != 0
    cases = [("dur-1e13", trace(dur=1e13), "dur"), ("dur-1e15", trace(dur=1e15), "dur"),
             ("dur-1e300", trace(dur=1e300), "dur"), ("ts-1e15", trace(ts=1e15), "ts")]
    for name, text, kind in cases:
        rc, err, rss, size, m, _ = run(binary, work, name, text)
        clamps = m["clamps"]
        said = clamps["tasks_clipped"] == 1 if kind == "dur" else clamps["bucket_raised"]
        ok = (rc == 0 and rss <= base_rss + RSS_SLACK_KIB and size <= 2 * base_size and said
              and m["window"]["na"] is None)
        print("%s %s: exit %d, peak RSS %d KiB (%+d), metrics.json %d bytes, clamps %s%s"
              % ("ok  " if ok else "FAIL", name, rc, rss, rss - base_rss, size, clamps,
                 "" if rc == 0 else ": " + err[-500:]))
        bad |= not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
