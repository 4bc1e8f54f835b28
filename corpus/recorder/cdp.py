"""Record one URL over the DevTools protocol, with puppeteer-core as the client.

The recorder starts Chromium itself (the recipe's flags, a fresh profile,
--remote-debugging-port=0, about:blank), so that the browser's processes are
ended the same way in both modes; Chromium writes the port it chose into
the profile's DevToolsActivePort file, and cdp_record.mjs connects there,
as Lighthouse does with the Chrome it launches.
"""
import json
import os
import shutil
import time

import browser

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.join(HERE, "cdp_record.mjs")
PUPPETEER = os.path.join(HERE, "node_modules", "puppeteer-core", "package.json")
POLL_S = 0.1


def missing():
    """Why CDP mode cannot run here, or None."""
    if shutil.which("node") is None:
        return "--mode cdp needs Node.js (apt-get install nodejs)"
    if not os.path.isfile(PUPPETEER):
        return ("--mode cdp needs puppeteer-core: run `npm ci` in %s "
                "(scripts/test.sh does)" % os.path.relpath(HERE))
    return None


def _endpoint(proc, scratch, deadline, stopping):
    """ws://127.0.0.1:PORT/devtools/browser/ID once Chromium listens; (None, reason) otherwise."""
    port_file = os.path.join(scratch, "profile", "DevToolsActivePort")
    while time.monotonic() < deadline:
        try:
            with open(port_file, encoding="utf-8") as f:
                lines = f.read().split("\n")
            if len(lines) >= 2 and lines[0].isdigit() and lines[1].startswith("/devtools/"):
                return "ws://127.0.0.1:%s%s" % (lines[0], lines[1]), None
        except FileNotFoundError:
            pass
        if proc.poll() is not None:
            return None, "chromium exited (status %d) before it listened for DevTools: %s" % (
                proc.returncode, browser.log_tail(scratch, "chromium.log"))
        if stopping.wait(POLL_S):
            return None, browser.STOPPED
    return None, "chromium did not listen for DevTools within the time limit"


def _client(endpoint, url, job, scratch, deadline, stopping):
    """Run cdp_record.mjs; returns (result dict, None) or (None, reason)."""
    trace, result = os.path.join(scratch, "trace.json"), os.path.join(scratch, "cdp.json")
    proc = browser.launch(["node", CLIENT, endpoint, url, ",".join(job.categories),
                           str(job.duration_s), trace, result], scratch, "cdp.log")
    try:
        while proc.poll() is None:
            if time.monotonic() > deadline:
                return None, "no complete trace within %d s (time limit)" % job.time_limit_s
            if stopping.wait(POLL_S):
                return None, browser.STOPPED
        if proc.returncode != 0:
            return None, "the DevTools client failed (status %d): %s" % (
                proc.returncode, browser.log_tail(scratch, "cdp.log"))
        with open(result, encoding="utf-8") as f:
            return json.load(f), None
    finally:
        browser.stop(proc)


def record(job, url, scratch, stopping):
    """Trace URL over CDP for job.duration_s seconds into SCRATCH/trace.json.

    Returns (events, None, crashed) or (None, reason, False), reason being
    browser.STOPPED when STOPPING was set.
    """
    deadline = time.monotonic() + job.time_limit_s
    proc = browser.launch(
        browser.command(job.chromium, scratch, job.chrome_flags,
                        ["--remote-debugging-port=0", "about:blank"]), scratch, "chromium.log")
    try:
        endpoint, reason = _endpoint(proc, scratch, deadline, stopping)
        if reason:
            return None, reason, False
        result, reason = _client(endpoint, url, job, scratch, deadline, stopping)
        if reason:
            return None, reason, False
    finally:
        browser.stop(proc)
    with open(os.path.join(scratch, "trace.json"), "rb") as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return events, None, bool(result.get("crashed"))
