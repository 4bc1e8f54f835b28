"""The metrics of the ground-truth crawl are what the sites' code sets.

corpus/truth/crawl holds one trace per site of corpus/truth/sites, recorded
by corpus/record with the recipe's default flags (as a user records them).
tracecensus runs on it here and every site's figures are checked against
groundtruth.py's set values and tolerances. test_recorder.py and
crawl/test_crawl_chromium.py apply the same check to fresh recordings
(check_recording). Needs TRACECENSUS (the binary) and zstd.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import groundtruth
import tracekit

BINARY = os.environ.get("TRACECENSUS")
TRUTH = os.path.join(tracekit.CORPUS, "truth")
CRAWL = os.path.join(TRUTH, "crawl")


def census(crawl, out):
    """Runs tracecensus on CRAWL (with its manifest) into OUT; returns metrics.json."""
    proc = subprocess.run([BINARY, "census", "--manifest", os.path.join(crawl, "manifest.tsv"),
                           "-o", out, crawl], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise AssertionError("tracecensus failed: " + proc.stderr[-2000:])
    with open(os.path.join(out, "metrics.json"), encoding="utf-8") as f:
        return json.load(f)


def crawl_misses(crawl):
    """Per site of CRAWL that misses its set figures, what it misses (no
    entry when the site has them all)."""
    rows = {r["site"]: r for r in tracekit.read_manifest(crawl)}
    with tempfile.TemporaryDirectory() as out:
        metrics = census(crawl, out)
    traces = {t["site"]: t for t in metrics["traces"]}
    misses = {}
    for site in sorted(groundtruth.SITES):
        row = rows.get(site)
        if not row or row["status"] != "recorded" or site not in traces:
            misses[site] = ["not recorded: %s" % (row or {}).get("reason")]
            continue
        events = tracekit.Trace.load(os.path.join(crawl, row["trace"])).events
        # The committed crawl predates the manifest's mode column: startup tracing.
        bad = groundtruth.check(traces[site], site, row["url"], events,
                                row.get("mode") or "startup")
        if bad:
            misses[site] = bad
    return misses


def check_crawl(case, crawl, misses=None):
    """Every recorded site of CRAWL against its set figures, as subtests
    (MISSES: crawl_misses(CRAWL) when not given)."""
    sites = sorted(r["site"] for r in tracekit.read_manifest(crawl))
    case.assertEqual(sites, sorted(groundtruth.SITES))
    if misses is None:
        misses = crawl_misses(crawl)
    for site in sites:
        with case.subTest(site=site):
            case.assertEqual(misses.get(site, []), [])


def check_recording(case, record, how, startup_windows=False):
    """Every ground-truth site recorded fresh by RECORD(out, sites) (all of
    them when SITES is empty) against its set figures, as subtests.

    A fresh recording now and then misses a set figure of one site, for
    reasons of Chromium's and the machine's, not tracecensus's. Those found
    are fixed in the site or its check (iframe-cross-site: the CDP window
    ended with the idle page's last task, before the iframe's, until the
    page got a late task; the iframe's first paint, a 55 to 67 ms task
    just after its load, is now left out of its set tasks), and what is
    left is a busy loop stretched past its tolerance on a shared machine
    (262 ms of a set 250 in a CI run on 2026-12-06, while Chrome's omnibox
    renderer started beside it). Such a crawl is kept for diagnosis (in
    TC_KEPT_DIR, the build dir under meson; else a temp dir), said on
    stderr, and the sites that missed are recorded once more, alone;
    their second recording must have every figure. While RECORD runs, CI's
    background builds are stopped (tracekit.background_paused; with
    STARTUP_WINDOWS, for a startup-traced recording, only in its browsers'
    trace windows)."""
    with tempfile.TemporaryDirectory(prefix="tc-truth-") as tmp:
        out = os.path.join(tmp, "crawl")
        with tracekit.background_paused(startup_windows):
            record(out, ())
        misses = crawl_misses(out)
        if misses:
            kept = tempfile.mkdtemp(prefix="tc-truth-missed-", dir=os.environ.get("TC_KEPT_DIR"))
            shutil.copytree(out, os.path.join(kept, "crawl"))
            sys.stderr.write("first %s recording missed %s; crawl kept in %s; recording those "
                             "sites again\n" % (how, json.dumps(misses), kept))
            again = os.path.join(tmp, "again")
            with tracekit.background_paused(startup_windows):
                record(again, sorted(misses))
            second = crawl_misses(again)
            misses = {site: second[site] for site in misses if site in second}
        check_crawl(case, out, misses)


@unittest.skipUnless(BINARY, "TRACECENSUS is not set: set it to the tracecensus binary")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is needed to read the crawl")
class GroundTruth(unittest.TestCase):
    def test_sites_and_table_agree(self):
        sites = sorted(n for n in os.listdir(os.path.join(TRUTH, "sites"))
                       if os.path.isdir(os.path.join(TRUTH, "sites", n)))
        self.assertEqual(sites, sorted(groundtruth.SITES))

    def test_recorded_with_the_recipes_default_flags(self):
        for row in tracekit.read_manifest(CRAWL):
            trace = tracekit.Trace.load(os.path.join(CRAWL, row["trace"]))
            with self.subTest(site=row["site"]):
                self.assertNotIn("--disable-features", trace.metadata.get("command_line", ""))

    def test_committed_crawl_has_the_set_figures(self):
        check_crawl(self, CRAWL)


def is_stopped(pid):
    return tracekit.stat_fields(pid)[0] == b"T"


def stopped(pid, want):
    """Whether PID's stopped state becomes WANT within 5 s: a signal is
    delivered when the process is next scheduled."""
    deadline = time.monotonic() + 5
    while is_stopped(pid) != want:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def ever_stopped(pid, seconds):
    """Whether PID is seen stopped within SECONDS, looked at every 10 ms."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if is_stopped(pid):
            return True
        time.sleep(0.01)
    return False


class BackgroundPause(unittest.TestCase):
    """tracekit.background_paused, which keeps CI's background builds off
    the CPU while a recording measures wall-clock figures."""

    def setUp(self):
        self.group = subprocess.Popen(["sleep", "60"], start_new_session=True)
        self.addCleanup(self.group.wait)
        self.addCleanup(self.group.kill)

    def test_the_group_is_stopped_inside_and_continued_after_even_on_error(self):
        os.environ["TC_PAUSE_PGID"] = str(self.group.pid)
        self.addCleanup(os.environ.pop, "TC_PAUSE_PGID")
        with self.assertRaises(RuntimeError):
            with tracekit.background_paused():
                self.assertTrue(stopped(self.group.pid, True))
                raise RuntimeError("the recording failed")
        self.assertTrue(stopped(self.group.pid, False))

    def test_with_startup_windows_the_group_is_stopped_only_in_a_window(self):
        os.environ["TC_PAUSE_PGID"] = str(self.group.pid)
        self.addCleanup(os.environ.pop, "TC_PAUSE_PGID")
        with tracekit.background_paused(startup_windows=True):
            self.assertFalse(ever_stopped(self.group.pid, 3 * tracekit.POLL_S), "no browser yet")
            # A stand-in browser: its trace window is its first 1 + 1 s.
            browser = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(10)",
                                        "--trace-startup-duration=1"])
            self.addCleanup(browser.wait)
            self.addCleanup(browser.kill)
            self.assertTrue(stopped(self.group.pid, True), "in the browser's window")
            time.sleep(2.5)
            self.assertTrue(stopped(self.group.pid, False), "after the browser's window")
            self.assertIsNone(browser.poll(), "the browser still runs")
            # Another test's browser, not this process's descendant: ignored.
            other = subprocess.run(
                ["sh", "-c", "%s -c 'import time; time.sleep(10)' --trace-startup-duration=1 "
                 ">/dev/null 2>&1 & echo $!" % sys.executable],
                capture_output=True, text=True, check=True)
            self.addCleanup(os.kill, int(other.stdout), signal.SIGKILL)
            self.assertFalse(ever_stopped(self.group.pid, 5 * tracekit.POLL_S),
                             "another process's browser")

    def test_without_the_variable_nothing_is_stopped(self):
        os.environ.pop("TC_PAUSE_PGID", None)
        with tracekit.background_paused():
            time.sleep(0.1)
            self.assertTrue(stopped(self.group.pid, False))


if __name__ == "__main__":
    unittest.main()
