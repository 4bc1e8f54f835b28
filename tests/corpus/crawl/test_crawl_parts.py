"""The crawling recorder's parts that need no browser: the URL list and its
site names, the manifest's rewrite and read-back, what a continued crawl
keeps, the progress line, category presets, the protobuf walk, the retry
rule, and the loopback web's answers."""
import hashlib
import http.client
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import tracekit  # noqa: E402

sys.path.insert(0, os.path.join(tracekit.CORPUS, "recorder"))
sys.path.insert(0, os.path.join(tracekit.CORPUS, "loopweb"))
import attempt  # noqa: E402
import categories  # noqa: E402
import crawlstate  # noqa: E402
import loopweb  # noqa: E402
import manifest  # noqa: E402
import progress  # noqa: E402
import protoscan  # noqa: E402
import urllist  # noqa: E402


def parse(text, path="list.txt"):
    return urllist.parse(text.split("\n"), path)


def sha8(url):
    return hashlib.sha1(url.encode()).hexdigest()[:8]


class UrlList(unittest.TestCase):
    def test_comments_blank_lines_names_and_line_numbers(self):
        sites, warnings = parse("# my crawl\n\nhttp://a.example/\n  # indented comment\n"
                                "https://b.example/x\tbee\r\n")
        self.assertEqual([(s.line, s.url, s.name) for s in sites],
                         [(3, "http://a.example/", "a.example"),
                          (5, "https://b.example/x", "bee")])
        self.assertEqual(warnings, [])

    def test_a_byte_order_mark_and_crlf_from_a_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "l.txt")
            with open(path, "wb") as f:
                f.write(b"\xef\xbb\xbfhttp://a.example/\r\nhttp://b.example/\r\n")
            sites, _ = urllist.read(path)
        self.assertEqual([s.name for s in sites], ["a.example", "b.example"])

    def test_a_bare_host_is_https_and_a_missing_path_is_slash(self):
        sites, _ = parse("example.com\nhttp://x.example")
        self.assertEqual([s.url for s in sites], ["https://example.com/", "http://x.example/"])

    def errors(self, text):
        with self.assertRaises(urllist.ListError) as cm:
            parse(text)
        return str(cm.exception)

    def test_bad_lines_are_named_with_file_and_line(self):
        self.assertEqual(self.errors("http://a.example/\nftp://b.example/"),
                         "list.txt:2: only http and https URLs can be recorded: "
                         "'ftp://b.example/'")
        self.assertIn("list.txt:1: more than one tab", self.errors("http://a/\tx\ty"))
        self.assertIn("list.txt:1: a URL holds no spaces", self.errors("http://a b/"))
        self.assertIn("list.txt:1: not a URL", self.errors("not_a_url!"))
        self.assertIn("list.txt:1: bad port", self.errors("http://a.example:99999/"))
        self.assertIn("list.txt:1: no host", self.errors("http:///path"))
        self.assertIn("list.txt:1: a name without a URL", self.errors("\tname"))
        self.assertEqual(self.errors("# only a comment\n"), "list.txt: no URLs in the list")

    def test_given_names_must_be_folder_names_and_unique(self):
        for bad in ("a/b", ".hidden", "README-site", "manifest.tsv", "x" * 101, "sp ace"):
            with self.subTest(name=bad):
                self.assertIn("list.txt:1: site name", self.errors("http://a/\t" + bad))
        self.assertIn("list.txt:2: site name 'Shop' is already used on line 1",
                      self.errors("http://a/\tshop\nhttp://b/\tShop"))

    def test_the_same_url_twice_is_recorded_once_with_a_warning(self):
        sites, warnings = parse("http://a.example/\nhttp://b.example/\nhttp://a.example/")
        self.assertEqual([s.line for s in sites], [1, 2])
        self.assertEqual(warnings, ["list.txt:3: http://a.example/ is already on line 1; "
                                    "it is recorded once"])

    def test_names_from_host_port_path_and_query(self):
        cases = {
            "http://Example.COM/": "example.com",
            "https://example.com:443/": "example.com",
            "http://example.com:8080/": "example.com_8080",
            "https://example.com/Blog/Post-1/": "example.com_blog_post-1",
            "https://example.com/search?q=a b&x=1".replace(" ", "%20"):
                "example.com_search_q_a_20b_x_1",
            "http://[::1]:8000/": "ipv6_1_8000",
            "http://bücher.example/": "xn--bcher-kva.example",
            "http://127.0.0.1:5/a/": "127.0.0.1_5_a",
        }
        for url, name in cases.items():
            with self.subTest(url=url):
                self.assertEqual(urllist.derive_name(url), name)

    def test_a_long_url_is_cut_and_keeps_a_hash_of_the_whole(self):
        url = "https://example.com/" + "a" * 300
        name = urllist.derive_name(url)
        self.assertEqual(len(name), 100)
        self.assertTrue(name.endswith("-" + sha8(url)))

    def test_colliding_names_all_get_their_urls_hash(self):
        a, b, c = "https://example.com/a-b", "https://example.com/a_b", "https://other.example/"
        sites, _ = parse("\n".join([a, b, c]))
        self.assertEqual([s.name for s in sites], ["example.com_a-b", "example.com_a_b",
                                                   "other.example"])
        a, b = "https://example.com/A", "https://example.com/a"  # one folder on macOS
        sites, _ = parse(a + "\n" + b)
        self.assertEqual([s.name for s in sites],
                         ["example.com_a-" + sha8(a), "example.com_a-" + sha8(b)])

    def test_a_derived_name_that_meets_a_given_one_takes_the_hash(self):
        sites, _ = parse("http://a.example/\tb.example\nhttp://b.example/")
        self.assertEqual([s.name for s in sites], ["b.example", "b.example-" + sha8(
            "http://b.example/")])

    def test_names_do_not_depend_on_line_order(self):
        lines = ["https://example.com/A", "https://example.com/a", "http://x.example/",
                 "http://y.example:81/p?q=1"]
        first = {s.url: s.name for s in parse("\n".join(lines))[0]}
        second = {s.url: s.name for s in parse("\n".join(reversed(lines)))[0]}
        self.assertEqual(first, second)


def _row(site, run=1, status="recorded", url=None, trace=None, nbytes=10):
    return manifest.row(site, url or "http://%s/" % site, status,
                        None if status == "recorded" else "HTTP 404 for x",
                        trace if status == "recorded" else None,
                        nbytes if status == "recorded" else None, "Chromium 1.2.3.4",
                        ["a", "b"], 5, run=run,
                        attempt_reasons=["recorded"] if status == "recorded" else ["HTTP 404"],
                        recorded_at="2026-12-03T17:00:00Z", seconds=3.04)


class ManifestRoundTrip(unittest.TestCase):
    def test_written_rows_read_back_the_same(self):
        rows = [_row("a", trace="a/trace.json.zst"),
                manifest.row("b", "http://b/", "failed", "no response\tfor\nb", None, None,
                             "Chromium 1.2.3.4", ["x"], 2, run=2,
                             attempt_reasons=["chromium exited | log: a|b", "no response"],
                             mode="cdp", fmt="json", recorded_at="2026-12-03T17:00:01Z",
                             seconds=12.345)]
        with tempfile.TemporaryDirectory() as out:
            manifest.write(out, rows)
            back = manifest.read(out)
            tsv = tracekit.read_manifest(out)
            with open(os.path.join(out, "manifest.json")) as f:
                js = json.load(f)
            self.assertEqual(sorted(os.listdir(out)), ["manifest.json", "manifest.tsv"])
        self.assertEqual(back, rows)
        self.assertEqual(js, rows)
        self.assertEqual(list(tsv[0])[:9], ["site", "url", "status", "reason", "trace", "bytes",
                                            "chrome_version", "categories", "duration_s"])
        self.assertEqual(tsv[1]["attempt_reasons"], "chromium exited / log: a/b | no response")
        self.assertEqual(rows[1]["attempts"], 2)
        self.assertEqual(tsv[1]["seconds"], "12.3")
        self.assertEqual(tsv[1]["reason"], "no response for b")

    def test_an_older_manifest_is_named_not_misread(self):
        with tempfile.TemporaryDirectory() as out:
            with open(os.path.join(out, "manifest.tsv"), "w") as f:
                f.write("site\turl\tstatus\n")
            with self.assertRaises(ValueError) as cm:
                manifest.read(out)
        self.assertIn("manifest.tsv has no column", str(cm.exception))


def _zstd_file(path, data):
    with open(path + ".raw", "wb") as f:
        f.write(data)
    subprocess.run(["zstd", "-q", "-f", "-3", path + ".raw", "-o", path], check=True)
    os.remove(path + ".raw")
    return os.path.getsize(path)


@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is not installed")
class WhatAContinuedCrawlKeeps(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name
        self.items = [crawlstate.Item(n, name, "http://%s/" % name, 1)
                      for n, name in enumerate(["a", "b", "c", "d", "e"])]

    def tearDown(self):
        self.tmp.cleanup()

    def trace(self, site, data=b'{"traceEvents": []}' * 1000):
        os.makedirs(os.path.join(self.out, site), exist_ok=True)
        rel = os.path.join(site, "trace.json.zst")
        return rel, _zstd_file(os.path.join(self.out, rel), data)

    def test_whole_traces_and_failed_rows_are_kept_the_rest_recorded(self):
        rel_a, size_a = self.trace("a")
        rel_b, size_b = self.trace("b")
        with open(os.path.join(self.out, rel_b), "r+b") as f:  # cut short: a damaged frame
            f.truncate(size_b - 5)
        rel_c, size_c = self.trace("c")
        old = [_row("a", trace=rel_a, nbytes=size_a), _row("b", trace=rel_b, nbytes=size_b),
               _row("c", trace=rel_c, nbytes=size_c, url="http://elsewhere/"),
               _row("d", status="failed"), _row("gone", status="failed")]
        p = crawlstate.plan(self.items, old, self.out, retry_failed=False)
        self.assertEqual(sorted(p.kept), [("a", 1), ("d", 1)])
        self.assertEqual([i.name for i in p.todo], ["b", "c", "e"])
        self.assertEqual(p.notes, [
            "b: b/trace.json.zst is missing or damaged: recorded again",
            "c: listed as http://c/ now, recorded from http://elsewhere/: recorded again",
            "1 site(s) of the earlier manifest are not in this list and leave the manifest "
            "(their folders stay): gone"])
        p = crawlstate.plan(self.items, old, self.out, retry_failed=True)
        self.assertEqual([i.name for i in p.todo], ["b", "c", "d", "e"])

    def test_a_size_that_differs_from_the_row_is_damage(self):
        rel, size = self.trace("a")
        self.assertTrue(crawlstate.trace_intact(self.out, _row("a", trace=rel, nbytes=size)))
        self.assertFalse(crawlstate.trace_intact(self.out, _row("a", trace=rel, nbytes=size + 1)))
        os.remove(os.path.join(self.out, rel))
        self.assertFalse(crawlstate.trace_intact(self.out, _row("a", trace=rel, nbytes=size)))

    def test_fixture_sites_match_by_path_as_their_port_changes(self):
        item = crawlstate.Item(0, "a", "http://127.0.0.1:4000/a/", 1, fixture=True)
        self.assertTrue(item.same_target("http://127.0.0.1:5123/a/"))
        self.assertFalse(item.same_target("http://127.0.0.1:4000/b/"))
        self.assertFalse(crawlstate.Item(0, "a", "http://h:1/a/", 1).same_target("http://h:2/a/"))

    def test_settings_that_differ_are_named_with_their_option(self):
        old = {"mode": "startup", "format": "json", "categories": ["a", "b"], "duration_s": 5,
               "repeat": 1}
        new = dict(old, categories=["a"], duration_s=2)
        self.assertEqual(crawlstate.settings_differences(old, new),
                         ["--categories: a,b then, a now", "--duration: 5 then, 2 now"])
        self.assertEqual(crawlstate.settings_differences(old, dict(old)), [])

    def test_trace_names(self):
        self.assertEqual(crawlstate.trace_name(1, 1, "json"), "trace.json.zst")
        self.assertEqual(crawlstate.trace_name(7, 3, "json"), "trace-007.json.zst")
        self.assertEqual(crawlstate.trace_name(1, 1, "proto"), "trace.pftrace.zst")


class ProgressLine(unittest.TestCase):
    def test_rate_and_eta_follow_from_the_counts(self):
        # 12 traces in 240 s is 180 an hour; 30 left at 180/h is 10 minutes.
        self.assertEqual(progress.line(done=40, failed=3, total=70, finished_now=12,
                                       elapsed_s=240.0),
                         "done 40 of 70 (3 failed), 180 traces/h, ETA 10 min")
        # 1 in 10 s is 360/h; 2999 left take 8.33 h.
        self.assertEqual(progress.line(1, 0, 3000, 1, 10.0),
                         "done 1 of 3000 (0 failed), 360 traces/h, ETA 8 h 20 min")

    def test_nothing_finished_yet_is_na_with_its_reason(self):
        self.assertEqual(progress.line(5, 1, 10, 0, 30.0),
                         "done 5 of 10 (1 failed), rate n/a (no trace finished yet in this "
                         "run), ETA n/a (no trace finished yet in this run)")

    def test_all_done(self):
        self.assertTrue(progress.line(10, 0, 10, 4, 20.0).endswith("ETA none, all done"))


class CategoryPresets(unittest.TestCase):
    def test_presets_and_lists(self):
        self.assertEqual(categories.resolve("a, b,,c"), ["a", "b", "c"])
        self.assertIn("disabled-by-default-devtools.screenshot", categories.resolve("devtools"))
        self.assertEqual(categories.resolve("all"), ["*", "disabled-by-default-*"])
        with self.assertRaises(ValueError):
            categories.resolve(" , ")

    def test_the_default_is_the_list_every_earlier_crawl_used(self):
        from test_manifest import REQUIRED_CATEGORIES
        self.assertEqual(set(categories.resolve(categories.DEFAULT)), REQUIRED_CATEGORIES)
        self.assertEqual(len(categories.resolve(categories.DEFAULT)), len(REQUIRED_CATEGORIES))


def _varint(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def _field(number, payload):
    if isinstance(payload, int):
        return _varint(number << 3) + _varint(payload)
    if isinstance(payload, float):
        return _varint(number << 3 | 1) + struct.pack("<d", payload)
    if isinstance(payload, str):
        payload = payload.encode()
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _packet(*fields):
    return _field(1, b"".join(fields))


class ProtobufWalk(unittest.TestCase):
    """Against packets built here field by field, with Perfetto's field numbers."""

    def trace(self):
        interned = _field(12, _field(2, _field(1, 5) + _field(2, "ResourceSendRequest"))
                          + _field(3, _field(1, 9) + _field(2, "data")))
        send = _field(11, _field(10, 5) + _field(4, _field(1, 9)
                      + _field(11, _field(10, "url") + _field(6, "http://h/"))
                      + _field(11, _field(10, "requestId") + _field(6, "R1"))
                      + _field(11, _field(10, "priority") + _field(4, (1 << 64) - 3))))
        nested = _field(11, _field(23, "ResourceReceiveResponse") + _field(4, _field(10, "data")
                        + _field(8, _field(1, 1) + _field(2, "statusCode") + _field(3, _field(5, 404))
                                 + _field(2, "ratio") + _field(3, _field(6, 0.5)))))
        # On track 88, which a descriptor further on gives to process 99.
        legacy = _field(11, _field(11, 88) + _field(23, "ResourceFinish") + _field(4, _field(
            10, "data") + _field(9, '{"requestId": "R1", "didFail": false}')))
        other = _field(11, _field(23, "Paint"))
        # Sequence 7's events go to its default track 77, a thread of process 4242.
        track77 = _field(60, _field(1, 77) + _field(4, _field(1, 4242) + _field(2, 4243)))
        defaults = _field(59, _field(11, _field(11, 77)))
        return b"".join([
            _packet(_field(10, 7), _field(13, 1), track77, defaults, interned, send),
            _packet(_field(10, 7), nested), _packet(_field(10, 8), legacy),
            _packet(_field(10, 8), other),
            _packet(_field(10, 9), _field(60, _field(1, 88) + _field(3, _field(1, 99)))),
            # A new sequence 7 that clears its state: iid 5 means nothing any more.
            _packet(_field(10, 7), _field(13, 1), _field(11, _field(10, 5)))])

    def test_events_with_interned_nested_and_legacy_arguments(self):
        found = protoscan.events(self.trace(), {"ResourceSendRequest", "ResourceReceiveResponse",
                                                "ResourceFinish"})
        self.assertEqual(found, [
            {"name": "ResourceSendRequest", "pid": 4242,
             "args": {"data": {"url": "http://h/", "requestId": "R1", "priority": -3}}},
            {"name": "ResourceReceiveResponse", "pid": 4242,
             "args": {"data": {"statusCode": 404, "ratio": 0.5}}},
            {"name": "ResourceFinish", "pid": 99,
             "args": {"data": {"requestId": "R1", "didFail": False}}}])

    def test_a_whole_file_and_a_cut_one(self):
        buf = self.trace()
        self.assertTrue(protoscan.complete(buf))
        for cut in (1, 7, len(buf) // 2, len(buf) - 1):
            with self.subTest(cut=cut):
                self.assertFalse(protoscan.complete(buf[:cut]))
        self.assertFalse(protoscan.complete(b""))
        self.assertFalse(protoscan.complete(b'{"traceEvents": []}'))


class RetryRule(unittest.TestCase):
    def test_client_errors_are_final_but_timeouts_and_throttling(self):
        self.assertFalse(attempt.retryable("HTTP 404 for http://a/"))
        self.assertFalse(attempt.retryable("HTTP 410 for http://a/"))
        self.assertTrue(attempt.retryable("HTTP 429 for http://a/"))
        self.assertTrue(attempt.retryable("HTTP 408 for http://a/"))
        self.assertTrue(attempt.retryable("HTTP 503 for http://a/"))
        self.assertTrue(attempt.retryable("no response for http://a/ within the 2 s trace"))


def _open(port, host, path="/", timeout=5):
    """(connection, response) of a GET for HOST's PATH; the caller closes it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": "%s:%d" % (host, port)})
        return conn, conn.getresponse()
    except BaseException:
        conn.close()
        raise


def _get(port, host, path="/", timeout=5):
    """(status, headers, body) of a GET for HOST's PATH."""
    conn, resp = _open(port, host, path, timeout)
    try:
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


class LoopbackWeb(unittest.TestCase):
    def test_a_generated_web_has_every_kind_and_is_the_same_every_time(self):
        web = loopweb.generate(20)
        self.assertEqual(web, loopweb.generate(20))
        kinds = [k for _, k in web]
        for kind in loopweb.KINDS:
            self.assertIn(kind, kinds)
        self.assertEqual(kinds.count("ok"), 20 - (len(loopweb.KINDS) - 1))
        big = [k for _, k in loopweb.generate(300)]
        # Three hundreds of MIX's shares per hundred.
        self.assertEqual({k: big.count(k) for k in loopweb.KINDS},
                         {"ok": 258, "slow": 9, "notfound": 6, "hang": 6, "redirect": 9,
                          "crash": 3, "endless": 6, "refused": 3})

    def test_every_kind_answers_as_it_says(self):
        with loopweb.LoopWeb([(1, "ok")]) as web:
            p = web.port
            self.assertEqual(_get(p, "001-ok.localhost")[::2], (200, loopweb.page(1).encode()))
            self.assertEqual(json.loads(_get(p, "001-ok.localhost", "/data.json")[2]), {"site": 1})
            self.assertEqual(_get(p, "002-notfound.localhost")[0], 404)
            status, headers, _ = _get(p, "003-redirect.localhost")
            self.assertEqual((status, headers["Location"]),
                             (302, "http://003-landing.localhost:%d/" % p))
            self.assertEqual(_get(p, "003-landing.localhost")[0], 200)
            started = time.monotonic()
            self.assertEqual(_get(p, "004-slow.localhost")[0], 200)
            self.assertGreaterEqual(time.monotonic() - started, loopweb.SLOW_S)
            with self.assertRaises(socket.timeout):
                _get(p, "005-hang.localhost", timeout=1.5)
            conn, resp = _open(p, "006-endless.localhost")
            try:
                first = resp.read1(100)
                time.sleep(3 * loopweb.ENDLESS_TICK_S)
                self.assertEqual(resp.status, 200)
                self.assertTrue(resp.read1(1000), "the body keeps coming")
            finally:
                conn.close()
            self.assertIn(b"<!doctype html>", first)
            self.assertIn(b"kept.push", _get(p, "007-crash.localhost")[2])
            self.assertEqual(web.url(8, "refused"), "http://008-refused.localhost:1/")
            with self.assertRaises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", loopweb.REFUSED_PORT), timeout=2)
            self.assertEqual(web.hits[:2], [("001-ok.localhost", "/"),
                                            ("001-ok.localhost", "/data.json")])
            stopping = time.monotonic()
        self.assertLess(time.monotonic() - stopping, 5, "a hung request must not hold the stop")


if __name__ == "__main__":
    unittest.main()
