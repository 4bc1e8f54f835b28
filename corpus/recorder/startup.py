"""Record one URL with Chrome's startup tracing: no DevTools client at all.

Chromium traces from its own start for the set duration, then writes the
trace file, JSON with --trace-startup-format=json or, without it, Chrome's
default protobuf (Perfetto) format, whatever the file is called. Headless
Chromium does not exit when the trace is written, so the file is watched:
once it has kept its size for SETTLE_S and is whole (JSON that parses,
protobuf packets up to the last byte), the trace is done.
"""
import json
import os
import time

import browser
import pageload
import protoscan

POLL_S = 0.25
# How long the file must keep its size before it is read. A JSON trace that
# parses is whole (its closing brackets come last); a protobuf one ends on
# some packet's end while it is being written too, so it must rest longer.
SETTLE_S = {"json": 0.5, "proto": 1.5}


def _load_json(path):
    """The parsed trace, or None while the file is not (yet) a whole JSON trace."""
    try:
        with open(path, "rb") as f:
            trace = json.load(f)
    except (OSError, ValueError):
        return None
    if isinstance(trace, dict) and isinstance(trace.get("traceEvents"), list):
        return trace["traceEvents"]
    if isinstance(trace, list):
        return trace
    return None


def _load_proto(path):
    """The verdict's events, or None while the file is not (yet) a whole protobuf trace."""
    try:
        with open(path, "rb") as f:
            buf = f.read()
    except OSError:
        return None
    if not protoscan.complete(buf):
        return None
    return protoscan.events(buf, pageload.EVENT_NAMES)


def trace_file(scratch, fmt):
    return os.path.join(scratch, "trace.json" if fmt == "json" else "trace.pftrace")


def record(job, url, scratch, stopping):
    """Trace URL for job.duration_s seconds into SCRATCH.

    Returns (events, None, crashed) with the trace's events (all of them for
    JSON, the verdict's for protobuf) and whether the page's renderer had
    died by the time the trace was written; (None, reason, False) when no
    whole trace appeared within job.time_limit_s, or (None, browser.STOPPED,
    False) when STOPPING was set.
    """
    path = trace_file(scratch, job.fmt)
    tail = ["--trace-startup=" + ",".join(job.categories)]
    if job.fmt == "json":
        tail.append("--trace-startup-format=json")
    tail += ["--trace-startup-file=" + path, "--trace-startup-duration=%d" % job.duration_s, url]
    proc = browser.launch(browser.command(job.chromium, scratch, job.chrome_flags, tail),
                          scratch, "chromium.log")
    try:
        return _wait(proc, path, job, scratch, stopping)
    finally:
        browser.stop(proc)


def _wait(proc, path, job, scratch, stopping):
    load = _load_json if job.fmt == "json" else _load_proto
    deadline = time.monotonic() + job.time_limit_s
    last_size, stable_since, parsed_size = -1, time.monotonic(), -1
    while time.monotonic() < deadline:
        if stopping.wait(POLL_S):
            return None, browser.STOPPED, False
        exited = proc.poll()
        size = os.path.getsize(path) if os.path.exists(path) else -1
        if size != last_size:
            last_size, stable_since = size, time.monotonic()
            continue
        settled = time.monotonic() - stable_since >= SETTLE_S[job.fmt]
        if size > 0 and settled and size != parsed_size:
            events = load(path)
            if events is not None:
                return events, None, _crashed(events, scratch)
            parsed_size = size
        if exited is not None and settled:
            if size <= 0:
                return None, "chromium exited (status %d) before writing a trace: %s" % (
                    exited, browser.log_tail(scratch, "chromium.log")), False
            return None, "chromium exited (status %d) leaving an incomplete trace" % (
                exited), False
    return None, "no complete trace within %d s (time limit)" % job.time_limit_s, False


def _crashed(events, scratch):
    """Whether the page's renderer is gone while the browser still runs.

    Startup tracing leaves no event of a renderer's death in the categories
    users record (the browser's RenderProcessHostImpl::ProcessDied is in
    'content'), so the process itself is asked: a page that loaded keeps its
    renderer for as long as the browser shows it. Trace pids are the
    system's; the pid must still be a process naming this attempt's profile.
    """
    pid = pageload.page_pid(events)
    return pid is not None and pid not in browser.marked_pids(scratch)
