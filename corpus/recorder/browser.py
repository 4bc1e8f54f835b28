"""Record one startup trace of one URL with headless Chromium, no CDP client.

Chromium is started in its own session (so its zygotes, GPU process and
renderers share one process group) with startup tracing on. Headless Chromium
does not exit when the trace is done, so we watch the trace file: once it has
stopped growing and parses as a complete JSON trace, the whole process group
is ended, SIGTERM first and SIGKILL for whatever is left.
"""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

# The recipe from issue 3. --trace-startup-format=json matters: without it
# Chromium writes binary Perfetto protobuf, whatever the file is called. The
# background-networking flags keep Chromium from dialling out, which these
# machines refuse many connections at a time.
RECIPE_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]

POLL_S = 0.25
SETTLE_S = 1.5  # the file must keep its size this long before we parse it
STOP_GRACE_S = 5.0


def chrome_version(chromium):
    """`chromium --version` as one line, e.g. "Chromium 156.0.8078.108 built on ..."."""
    out = subprocess.run([chromium, "--version"], capture_output=True, text=True,
                         timeout=60).stdout
    return " ".join(out.split())


def _load_complete(path):
    """The parsed trace, or None while the file is not (yet) a whole JSON trace."""
    try:
        with open(path, "rb") as f:
            trace = json.load(f)
    except (OSError, ValueError):
        return None
    if isinstance(trace, dict) and isinstance(trace.get("traceEvents"), list):
        return trace
    if isinstance(trace, list):
        return trace
    return None


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _gone(proc, pgid, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None and not _group_alive(pgid):
            return True
        time.sleep(0.1)
    return False


def _stop(proc):
    """End Chromium's process group: the browser, its zygotes and children."""
    pgid = proc.pid  # start_new_session made the browser its group's leader
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        if _gone(proc, pgid, STOP_GRACE_S):
            break
    proc.wait()


def _log_tail(log_path, limit=160):
    try:
        with open(log_path, errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
    except OSError:
        return ""
    return lines[-1][-limit:] if lines else ""


def record(chromium, url, categories, duration_s, trace_path, time_limit_s, extra_flags=()):
    """Trace `url` for `duration_s` seconds into `trace_path` (plain JSON).

    Returns (trace, None) with the parsed trace on success, or (None, reason)
    when no complete trace appeared within `time_limit_s` seconds.
    """
    profile = tempfile.mkdtemp(prefix="tc-profile-")
    log_path = os.path.join(profile, "chromium.log")
    cmd = [chromium, *RECIPE_FLAGS, *extra_flags, "--user-data-dir=" + profile,
           "--trace-startup=" + ",".join(categories), "--trace-startup-format=json",
           "--trace-startup-file=" + trace_path,
           "--trace-startup-duration=%d" % duration_s, url]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        return _wait_for_trace(proc, trace_path, time_limit_s, log_path)
    finally:
        _stop(proc)
        shutil.rmtree(profile, ignore_errors=True)


def _wait_for_trace(proc, trace_path, time_limit_s, log_path):
    deadline = time.monotonic() + time_limit_s
    last_size, stable_since, parsed_size = -1, time.monotonic(), -1
    while time.monotonic() < deadline:
        time.sleep(POLL_S)
        exited = proc.poll()
        size = os.path.getsize(trace_path) if os.path.exists(trace_path) else -1
        if size != last_size:
            last_size, stable_since = size, time.monotonic()
            continue
        settled = time.monotonic() - stable_since >= SETTLE_S
        if size > 0 and settled and size != parsed_size:
            trace = _load_complete(trace_path)
            if trace is not None:
                return trace, None
            parsed_size = size
        if exited is not None and settled:
            if size <= 0:
                return None, "chromium exited (status %d) before writing a trace: %s" % (
                    exited, _log_tail(log_path))
            return None, "chromium exited (status %d) leaving an incomplete trace" % exited
    return None, "no complete trace within %d s (time limit)" % time_limit_s
