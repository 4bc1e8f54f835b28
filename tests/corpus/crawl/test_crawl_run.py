"""corpus/record --urls end to end with a stand-in browser (crawlkit.FAKE_CHROMIUM):
the order, the retries, continuing after SIGKILL, SIGTERM, a full disk, the
lock and the settings check, quickly and without Chromium.

The stand-in behaves by the URL's host: '-ok' loads, '-notfound' answers
404, '-hang' never answers, '-crashbrowser' exits before writing a trace.
"""
import fcntl
import json
import os
import re
import signal
import sys
import tempfile
import time
import unittest

import crawlkit
from crawlkit import tracekit

sys.path.insert(0, os.path.join(tracekit.CORPUS, "recorder"))
import attempt  # noqa: E402
import crawl  # noqa: E402
import crawlstate  # noqa: E402


@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is not installed")
class StandInCrawl(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        crawlkit.become_subreaper()

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="tc-crawl-run-")
        self.dir = self.tmp.name
        self.scratch = os.path.join(self.dir, "tmp")
        os.mkdir(self.scratch)
        self.out = os.path.join(self.dir, "crawl")
        self.fake = crawlkit.fake_chromium(self.dir)
        self.list = os.path.join(self.dir, "sites.txt")

    def tearDown(self):
        for pid in crawlkit.crawl_processes(self.scratch):
            os.kill(pid, signal.SIGKILL)
        crawlkit.reap()
        self.tmp.cleanup()

    def write_list(self, kinds):
        urls = ["http://%02d-%s.example/" % (n, k) for n, k in enumerate(kinds, 1)]
        with open(self.list, "w") as f:
            f.write("# stand-in sites\n" + "\n".join(urls) + "\n")
        return urls

    def args(self, *more):
        return ["--urls", self.list, "-o", self.out, "--chromium", self.fake, "--duration", "1",
                "--zstd-level", "3", "--min-free", "1", *more]

    def assert_nothing_left(self):
        self.assertEqual(crawlkit.crawl_processes(self.scratch), [])
        self.assertEqual(os.listdir(self.scratch), [])
        self.assertFalse(os.listdir(os.path.join(self.out, ".record-live")))

    def test_list_order_retries_reasons_and_progress(self):
        kinds = ["ok", "hang", "ok", "notfound", "crashbrowser", "ok", "ok", "ok"]
        urls = self.write_list(kinds)
        before = time.time()
        code, err, wall = crawlkit.run_recorder(self.args("--jobs", "3", "--retries", "1"),
                                                self.scratch)
        after = time.time()
        self.assertEqual(code, 1, "\n".join(err))
        rows = tracekit.read_manifest(self.out)
        names = ["%02d-%s.example" % (n, k) for n, k in enumerate(kinds, 1)]
        self.assertEqual([r["site"] for r in rows], names)
        self.assertEqual([r["url"] for r in rows], urls)
        by = {r["site"]: r for r in rows}
        self.assertEqual((by["02-hang.example"]["attempts"], by["02-hang.example"]["reason"]),
                         ("2", "no response for %s within the 1 s trace" % urls[1]))
        self.assertEqual(by["02-hang.example"]["attempt_reasons"],
                         " | ".join(["no response for %s within the 1 s trace" % urls[1]] * 2))
        self.assertEqual((by["04-notfound.example"]["attempts"],
                          by["04-notfound.example"]["reason"]), ("1", "HTTP 404 for " + urls[3]))
        crash = by["05-crashbrowser.example"]
        self.assertEqual(crash["attempts"], "2")
        self.assertTrue(crash["reason"].startswith("chromium exited (status 3) before writing"),
                        crash["reason"])
        for row in rows:
            with self.subTest(site=row["site"]):
                folder = os.path.join(self.out, row["site"])
                self.assertEqual((row["mode"], row["format"], row["run"]), ("startup", "json", "1"))
                self.assertEqual(row["chrome_version"], "Chromium 999.0.0.1 stand-in")
                self.assertTrue(before - 1 <= crawlkit.utc(row["recorded_at"]) <= after)
                self.assertGreaterEqual(float(row["seconds"]), 0.0)
                self.assertLessEqual(float(row["seconds"]), wall)
                if row["status"] == "recorded":
                    self.assertEqual((row["attempts"], row["attempt_reasons"]), ("1", "recorded"))
                    self.assertEqual(os.listdir(folder), ["trace.json.zst"])
                    self.assertEqual(os.path.getsize(os.path.join(self.out, row["trace"])),
                                     int(row["bytes"]))
                    trace = tracekit.read_json_trace(os.path.join(self.out, row["trace"]))
                    self.assertEqual(trace["metadata"]["url"], row["url"])
                else:
                    self.assertEqual(os.listdir(folder), [])
        crawlkit.check_progress(self, err, len(kinds), rows, wall)
        crawlkit.check_summary(self, err, len(kinds), rows, wall)
        self.assert_nothing_left()
        self.assertEqual(crawlkit.zombie_children(), [])

    def test_killed_with_sigkill_the_same_command_finishes_the_crawl(self):
        kinds = ["ok"] * 5 + ["notfound"] + ["ok"] * 4
        self.write_list(kinds)
        args = self.args("--jobs", "2")
        os.environ["FAKE_DELAY"] = "1.0"
        try:
            first = crawlkit.recorder(args, self.scratch)
            reached = crawlkit.wait_for_rows(self.out, 3, first, 60)
            # Into the next attempts: each stand-in browser has started its
            # renderer (an attempt takes 2.5 s at least), so some are left.
            time.sleep(0.7)
            self.assertTrue(crawlkit.browsers(self.scratch))
            err = crawlkit.kill_recorder(first, self.scratch)
            self.assertTrue(reached, err)
        finally:
            del os.environ["FAKE_DELAY"]
        kept = {r["site"]: r for r in tracekit.read_manifest(self.out)}
        self.assertTrue(3 <= len(kept) < len(kinds), kept)
        # The browsers died with the recorder (parent-death signal); what
        # they started, and their scratch folders, are left for the next run,
        # the processes adopted by this test (a subreaper).
        leftovers = crawlkit.crawl_processes(self.scratch)
        self.assertTrue(leftovers)
        adopted = crawlkit.adopted(self.scratch)
        self.assertTrue(os.listdir(self.scratch))
        code, err, wall = crawlkit.run_recorder(args, self.scratch)
        self.assertEqual(code, 1, "\n".join(err))
        # The stand-in browsers died with the recorder; their renderers are
        # what the next run finds and ends, in the one scratch root it removes.
        self.assertIn("corpus/record: ended %d browser process(es) and removed 1 scratch "
                      "folder(s) an earlier run left" % len(leftovers), err)
        rows = tracekit.read_manifest(self.out)
        self.assertEqual(len(rows), len(kinds))
        self.assertEqual(len({r["site"] for r in rows}), len(kinds))
        for site, old in kept.items():
            new = [r for r in rows if r["site"] == site][0]
            self.assertEqual(new, old, "a finished trace is kept as it was")
        self.assertEqual(sum(r["status"] == "failed" for r in rows), 1)
        crawlkit.check_progress(self, err, len(kinds), rows, wall)
        crawlkit.check_summary(self, err, len(kinds), rows, wall)
        self.assertEqual(int(crawlkit.SUMMARY_RE.match(err[-1]).group(4)),
                         len(kinds) - len(kept))
        self.assert_nothing_left()
        # The next run killed the leftovers, which are this test's to reap;
        # it left no zombie of its own.
        self.assertLessEqual(set(crawlkit.zombie_children()), adopted)

    def test_sigterm_writes_the_manifest_and_dies_of_it(self):
        self.write_list(["ok"] * 8)
        os.environ["FAKE_DELAY"] = "1.0"
        try:
            proc = crawlkit.recorder(self.args("--jobs", "1"), self.scratch)
            reached = crawlkit.wait_for_rows(self.out, 1, proc, 60)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=60)
        finally:
            del os.environ["FAKE_DELAY"]
        self.assertTrue(reached, err)
        self.assertEqual(proc.returncode, -signal.SIGTERM, err)
        rows = tracekit.read_manifest(self.out)
        self.assertTrue(1 <= len(rows) < 8)
        self.assertIn("stopped by SIGTERM: %d of 8 trace(s) done" % len(rows), err)
        self.assertIn("Run the same command again to continue.", err)
        self.assert_nothing_left()

    def test_a_full_disk_stops_the_crawl_with_a_clear_message(self):
        self.write_list(["ok", "ok"])
        args = self.args()
        args[args.index("--min-free") + 1] = str(10 ** 9)
        code, err, _ = crawlkit.run_recorder(args, self.scratch)
        self.assertEqual(code, 2)
        text = "\n".join(err)
        self.assertRegex(text, r"the crawl stopped: \d+ MB free for the crawl folder %s, under "
                               r"--min-free 1000000000 MB" % re.escape(self.out))
        self.assertIn("Free some space and run the same command again to continue.", text)
        self.assertEqual(tracekit.read_manifest(self.out), [])
        self.assert_nothing_left()

    def test_no_space_for_the_manifest_stops_the_crawl(self):
        self.write_list(["ok"])
        self.assertEqual(crawlkit.run_recorder(self.args(), self.scratch)[0], 0)
        # The kernel's own ENOSPC: the manifest's temporary file is /dev/full.
        os.symlink("/dev/full", os.path.join(self.out, ".manifest.json.tmp"))
        code, err, _ = crawlkit.run_recorder(self.args(), self.scratch)
        self.assertEqual(code, 2)
        self.assertIn("the manifest in %s cannot be written: No space left on device" % self.out,
                      "\n".join(err))
        self.assertEqual(len(tracekit.read_manifest(self.out)), 1, "the old manifest stays")

    def test_the_manifest_writer_turns_enospc_into_diskfull(self):
        items = [crawlstate.Item(0, "a", "http://a/", 1)]
        with tempfile.TemporaryDirectory() as out:
            os.symlink("/dev/full", os.path.join(out, ".manifest.json.tmp"))
            with self.assertRaises(attempt.DiskFull):
                crawl.write_manifest(out, items, {})
            self.assertEqual(os.listdir(out), [], "the temporary file is removed")

    def test_other_settings_or_a_second_recorder_are_refused(self):
        self.write_list(["ok"])
        self.assertEqual(crawlkit.run_recorder(self.args(), self.scratch)[0], 0)
        args = self.args()
        args[args.index("--duration") + 1] = "2"
        code, err, _ = crawlkit.run_recorder(args + ["--format", "proto"], self.scratch)
        self.assertEqual(code, 2)
        self.assertIn("%s was recorded with other settings (--format: json then, proto now; "
                      "--duration: 1 then, 2 now)" % self.out, err[-1])
        with open(os.path.join(self.out, ".record.lock"), "r+") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            code, err, _ = crawlkit.run_recorder(self.args(), self.scratch)
        self.assertEqual(code, 2)
        self.assertIn("another corpus/record (pid", err[-1])
        with open(os.path.join(self.out, ".record.json")) as f:
            self.assertEqual(json.load(f)["duration_s"], 1)

    def test_a_folder_that_holds_no_crawl_is_not_touched(self):
        self.write_list(["ok"])
        os.mkdir(self.out)
        with open(os.path.join(self.out, "notes.txt"), "w") as f:
            f.write("mine\n")
        for extra in ([], ["--force"]):
            code, err, _ = crawlkit.run_recorder(self.args(*extra), self.scratch)
            self.assertEqual(code, 2)
            self.assertIn("is not empty and holds no crawl", err[-1])
        self.assertEqual(os.listdir(self.out), ["notes.txt"])

    def test_failed_rows_are_kept_unless_retry_failed_asks(self):
        self.write_list(["ok", "notfound"])
        self.assertEqual(crawlkit.run_recorder(self.args(), self.scratch)[0], 1)
        first = tracekit.read_manifest(self.out)
        code, err, _ = crawlkit.run_recorder(self.args(), self.scratch)
        self.assertEqual(code, 1)
        self.assertIn("2 kept from an earlier run, 0 to record", "\n".join(err))
        self.assertEqual(tracekit.read_manifest(self.out), first)
        time.sleep(1)  # recorded_at has whole seconds
        code, err, _ = crawlkit.run_recorder(self.args("--retry-failed"), self.scratch)
        self.assertEqual(code, 1)
        self.assertIn("1 kept from an earlier run, 1 to record", "\n".join(err))
        again = tracekit.read_manifest(self.out)
        self.assertEqual(again[0], first[0])
        self.assertEqual(again[1]["status"], "failed")
        self.assertGreater(crawlkit.utc(again[1]["recorded_at"]),
                           crawlkit.utc(first[1]["recorded_at"]))

    def test_repeats_are_rows_of_their_site_in_list_order(self):
        self.write_list(["ok", "notfound"])
        code, err, _ = crawlkit.run_recorder(self.args("--repeat", "2", "--jobs", "2"),
                                             self.scratch)
        self.assertEqual(code, 1, "\n".join(err))
        rows = tracekit.read_manifest(self.out)
        self.assertEqual([(r["site"], r["run"], r["trace"]) for r in rows], [
            ("01-ok.example", "1", "01-ok.example/trace-001.json.zst"),
            ("01-ok.example", "2", "01-ok.example/trace-002.json.zst"),
            ("02-notfound.example", "1", ""), ("02-notfound.example", "2", "")])
        self.assertEqual(sorted(os.listdir(os.path.join(self.out, "01-ok.example"))),
                         ["trace-001.json.zst", "trace-002.json.zst"])


if __name__ == "__main__":
    unittest.main()
