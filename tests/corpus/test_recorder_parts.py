"""The recorder's parts that need no browser: the site server, the page-load
verdict, stopping a process group, waiting for a startup trace, and the
manifest writer."""
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import tracekit

sys.path.insert(0, os.path.join(tracekit.CORPUS, "recorder"))
import attempt  # noqa: E402
import browser  # noqa: E402
import manifest  # noqa: E402
import pageload  # noqa: E402
import startup  # noqa: E402
from siteserver import SiteServer  # noqa: E402


def get(base_url, path, timeout=5):
    host, port = base_url[len("http://"):].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.getheader("Content-Type"), resp.read()
    finally:
        conn.close()


class SiteServerRules(unittest.TestCase):
    def test_serves_files_with_their_type(self):
        with SiteServer(tracekit.SITES) as srv:
            status, ctype, body = get(srv.base_url, "/_assets/photo.webp")
        with open(os.path.join(tracekit.SITES, "_assets", "photo.webp"), "rb") as f:
            self.assertEqual(body, f.read())
        self.assertEqual((status, ctype), (200, "image/webp"))

    def test_a_folder_without_index_is_404_not_a_listing(self):
        with SiteServer(tracekit.SITES) as srv:
            status, _, body = get(srv.base_url, "/root-404/")
        self.assertEqual(status, 404)
        self.assertNotIn(b"PURPOSE", body)

    def test_a_hang_folder_never_answers_and_the_server_still_stops(self):
        with SiteServer(tracekit.SITES) as srv:
            with self.assertRaises(socket.timeout):
                get(srv.base_url, "/hung-page/", timeout=1.5)
            with self.assertRaises(socket.timeout):
                get(srv.base_url, "/failed-requests/slow/data.json", timeout=1.5)
            status, _, _ = get(srv.base_url, "/failed-requests/")
            self.assertEqual(status, 200)
            stopping = time.monotonic()
        self.assertLess(time.monotonic() - stopping, 5)


def _event(name, **data):
    return {"name": name, "ph": "I", "args": {"data": data}}


class PageLoadVerdict(unittest.TestCase):
    URL = "http://127.0.0.1:8000/site/"

    def trace(self, status=None, did_fail=False):
        events = [_event("ResourceSendRequest", url=self.URL, resourceType="Document",
                         requestId="R1"),
                  _event("ResourceSendRequest", url=self.URL + "a.png", resourceType="Image",
                         requestId="R2"),
                  _event("ResourceReceiveResponse", requestId="R2", statusCode=404)]
        if status is not None:
            events.append(_event("ResourceReceiveResponse", requestId="R1", statusCode=status))
            events.append(_event("ResourceFinish", requestId="R1", didFail=did_fail))
        return events

    def test_a_loaded_page_is_recorded_even_if_a_subresource_failed(self):
        self.assertIsNone(pageload.page_failure(self.trace(200), self.URL, 5))

    def test_an_http_error_on_the_document_fails_the_site(self):
        self.assertEqual(pageload.page_failure(self.trace(404), self.URL, 5),
                         "HTTP 404 for " + self.URL)

    def test_no_response_fails_the_site(self):
        reason = pageload.page_failure([], self.URL, 5)
        self.assertEqual(reason, "no response for %s within the 5 s trace" % self.URL)
        self.assertIn("no response", pageload.page_failure(self.trace(None), self.URL, 5))

    def test_a_failed_document_load_fails_the_site(self):
        self.assertIn("failed", pageload.page_failure(self.trace(200, True), self.URL, 5))

    def test_chromes_error_page_in_the_pages_place_fails_the_site(self):
        error_page = _event("CommitLoad", url="chrome-error://chromewebdata/", isMainFrame=True)
        self.assertEqual(pageload.page_failure([error_page], self.URL, 5),
                         "Chrome could not load %s and showed its error page (no connection, "
                         "a name that does not resolve, or the like)" % self.URL)

    def test_the_pages_renderer_is_that_of_the_last_main_frame_commit_of_a_web_page(self):
        def commit(pid, url, main=True):
            return dict(_event("CommitLoad", url=url, isMainFrame=main), pid=pid)
        events = [commit(10, "chrome://omnibox-popup.top-chrome/"), commit(11, self.URL),
                  commit(12, self.URL + "frame.html", main=False),
                  commit(13, "chrome://omnibox-popup.top-chrome/x"),
                  commit(14, "https://other.example/"), commit(15, "about:blank", main=False)]
        self.assertEqual(pageload.page_pid(events), 14)
        self.assertEqual(pageload.page_pid(events[:4]), 11)
        self.assertIsNone(pageload.page_pid(events[:1]))


class StoppingAProcessGroup(unittest.TestCase):
    def test_the_leader_and_its_children_are_gone(self):
        proc = subprocess.Popen(["sh", "-c", "trap '' TERM; sleep 60 & sleep 60 & wait"],
                                start_new_session=True)
        time.sleep(0.3)
        children = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
        self.assertGreaterEqual(len(children), 3)
        browser.stop(proc)
        with self.assertRaises(ProcessLookupError):
            os.killpg(proc.pid, 0)


FAKE_BROWSER = """#!/bin/sh
# Stands in for chromium: finds --trace-startup-file=, then does what FAKE_MODE says.
for a in "$@"; do case "$a" in --trace-startup-file=*) out="${a#*=}";; esac; done
case "$FAKE_MODE" in
  trace) printf '{"traceEvents": [{"name": "x", "ph": "I", "ts": 1}]}' > "$out"; sleep 60 ;;
  partial) printf '{"traceEvents": [{"name": "x"' > "$out"; sleep 60 ;;
  silent) sleep 60 ;;
  crash) exit 3 ;;
esac
"""


class RecordingWithAStandInBrowser(unittest.TestCase):
    """startup.record's waiting and verdicts, with a shell script as the browser."""

    def record(self, mode, limit=20):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "fake-chromium")
            with open(fake, "w") as f:
                f.write(FAKE_BROWSER)
            os.chmod(fake, 0o755)
            os.environ["FAKE_MODE"] = mode
            job = attempt.Job(chromium=fake, categories=["cat"], duration_s=1, fmt="json",
                              time_limit_s=limit, chrome_flags=[])
            scratch = browser.new_scratch(tmp)
            try:
                started = time.monotonic()
                result = startup.record(job, "http://127.0.0.1:1/x/", scratch, threading.Event())
            finally:
                del os.environ["FAKE_MODE"]
                browser.finish([], scratch)
            return result, time.monotonic() - started

    def test_a_complete_trace_is_returned_and_the_browser_ended(self):
        (events, reason, crashed), took = self.record("trace")
        self.assertIsNone(reason)
        self.assertFalse(crashed, "the stand-in commits no page, so none can be gone")
        self.assertEqual(events[0]["name"], "x")
        self.assertLess(took, 15, "the sleeping browser must have been ended, not waited for")

    def test_a_browser_that_exits_without_a_trace_fails_the_site(self):
        (events, reason, _), _ = self.record("crash")
        self.assertIsNone(events)
        self.assertIn("chromium exited (status 3) before writing a trace", reason)

    def test_an_incomplete_trace_runs_into_the_time_limit(self):
        (events, reason, _), took = self.record("partial", limit=4)
        self.assertIsNone(events)
        self.assertEqual(reason, "no complete trace within 4 s (time limit)")
        self.assertLess(took, 15)

    def test_no_trace_at_all_runs_into_the_time_limit(self):
        (events, reason, _), _ = self.record("silent", limit=3)
        self.assertIsNone(events)
        self.assertEqual(reason, "no complete trace within 3 s (time limit)")


class ManifestWriter(unittest.TestCase):
    def test_tsv_and_json_agree_and_failed_rows_have_empty_trace_cells(self):
        rows = [manifest.row("a", "http://h/a/", "recorded", None, "a/trace.json.zst", 123,
                             "Chromium 1.2.3.4", ["x", "y"], 5),
                manifest.row("b", "http://h/b/", "failed", "HTTP 404\tfor\nb", None, None,
                             "Chromium 1.2.3.4", ["x", "y"], 5)]
        with tempfile.TemporaryDirectory() as out:
            manifest.write(out, rows)
            tsv = tracekit.read_manifest(out)
            with open(os.path.join(out, "manifest.json")) as f:
                js = json.load(f)
        self.assertEqual(list(tsv[0]), manifest.COLUMNS)
        self.assertEqual(tsv[0]["bytes"], "123")
        self.assertEqual(tsv[0]["categories"], "x,y")
        self.assertEqual((tsv[1]["trace"], tsv[1]["bytes"]), ("", ""))
        self.assertEqual(tsv[1]["reason"], "HTTP 404 for b")
        self.assertEqual(js[1]["reason"], "HTTP 404 for b")
        self.assertEqual(js[1]["bytes"], None)
        self.assertEqual(js[0]["categories"], ["x", "y"])


if __name__ == "__main__":
    unittest.main()
