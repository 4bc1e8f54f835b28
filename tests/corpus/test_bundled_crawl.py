"""Each fixture site in the bundled crawl produced the events it exists for.

Reads corpus/crawl/ (the committed, zstd-compressed traces and manifest) and,
for every recorded site, looks only at the renderer process that loaded the
site's URL, so that nothing the browser did on its own can satisfy a check.
The expectation table below is the contract between a site's PURPOSE and
its trace.
"""
import functools
import os
import re
import unittest

import tracekit
from sitechecks import (MAIN, at_least, custom, holding, longest, nested, none_of,
                        values_include)


def _first_ts(view, name):
    stamps = [e["ts"] for e in view.named(name) if "ts" in e]
    return min(stamps) if stamps else None


def _composited_frames(view):
    draws = len(view.named("DrawFrame"))
    mains = len(view.named("BeginMainThreadFrame", MAIN))
    return draws >= 60 and mains * 4 <= draws, "%d DrawFrame, %d BeginMainThreadFrame" % (
        draws, mains)


def _nothing_failed_to_composite(view):
    failed = [e for e in view.named("Animation") if _composite_failed(e)]
    return not failed, "%d of %d Animation events with compositeFailed" % (
        len(failed), len(view.named("Animation")))


def _unsupported_properties(view):
    props = {p for e in view.named("Animation")
             for p in (tracekit.arg(e, "data", "unsupportedProperties") or [])}
    return {"width", "left", "margin-left"} <= props, "seen %s" % sorted(props)


def _lazy_after_scroll(view):
    first_scroll = _first_ts(view, "ScrollLayer")
    lazy = [e for e in view.named("ResourceSendRequest")
            if "lazy=" in (tracekit.arg(e, "data", "url") or "")]
    late = [e for e in lazy if first_scroll is not None and e["ts"] > first_scroll]
    return len(late) >= 8, "%d of %d lazy requests after the first scroll" % (len(late), len(lazy))


def _heap_grew(view):
    used = [tracekit.arg(e, "data", "jsHeapSizeUsed") for e in view.named("UpdateCounters", MAIN)]
    used = [u for u in used if isinstance(u, int) and u > 0]
    if not used:
        return False, "no jsHeapSizeUsed"
    return max(used) >= 30e6 and max(used) >= 5 * min(used), "jsHeapSizeUsed %.1f -> %.1f MB" % (
        min(used) / 1e6, max(used) / 1e6)


def _one_url_few_requests(view):
    sends = [e for e in view.named("ResourceSendRequest")
             if (tracekit.arg(e, "data", "url") or "").endswith("/_assets/medium.png?mc")]
    return 1 <= len(sends) <= 2, "%d requests for an image used 26 times" % len(sends)


def _shaped_after_scroll(view):
    first_scroll = _first_ts(view, "ScrollLayer")
    shaped = [e for e in view.named("InlineNode::ShapeTextIncludingFirstLine", MAIN)
              if first_scroll is not None and e["ts"] > first_scroll]
    return len(shaped) >= 100, "%d text shapes after the first scroll" % len(shaped)


def _worker_threads(view):
    threads = {(e["pid"], e["tid"]) for events in view.by_name.values() for e in events
               if view.trace.thread(e).startswith("DedicatedWorker")}
    return len(threads) >= 2, "%d DedicatedWorker threads" % len(threads)


def _document_parsed_in_chunks(view):
    doc = [e for e in view.named("ParseHTML", MAIN)
           if tracekit.arg(e, "beginData", "url") == view.url]
    parsed = sum(e.get("args", {}).get("parsed_bytes", 0) for e in doc)
    return len(doc) >= 2 and parsed >= 140000, "%d ParseHTML, %d bytes parsed" % (len(doc), parsed)


def _failed_status(code):
    return lambda e: tracekit.arg(e, "data", "statusCode") == code


def _did_fail(e):
    return tracekit.arg(e, "data", "didFail") is True


def _composite_failed(e):
    return bool(tracekit.arg(e, "data", "compositeFailed"))


def _forced_by_script(e):
    return bool(tracekit.arg(e, "beginData", "stackTrace"))


def _srcdoc(e):
    return tracekit.arg(e, "data", "url") == "about:srcdoc"


EXPECTATIONS = {
    "anim-composited": [
        values_include("Animation", ("data", "displayName"), ["spin", "fade", "slide"]),
        custom("no Animation reports compositeFailed", _nothing_failed_to_composite),
        custom("compositor frames without main-thread frames", _composited_frames),
    ],
    "anim-noncomposited": [
        at_least("Animation", 3, where=_composite_failed, what="Animation with compositeFailed >= 3"),
        custom("unsupportedProperties name width, left and margin-left", _unsupported_properties),
        at_least("Layout", 60, MAIN),
        at_least("BeginMainThreadFrame", 60, MAIN),
    ],
    "css-transitions": [
        values_include("Animation", ("data", "displayName"), ["transform", "width"]),
        values_include("Animation", ("data", "name"), ["tc-slide"]),
        at_least("Animation", 1, where=_composite_failed, what="a width transition fails to composite"),
    ],
    "raf-loop": [
        at_least("FireAnimationFrame", 60, MAIN),
        at_least("BeginMainThreadFrame", 60, MAIN),
        at_least("Layout", 60, MAIN),
    ],
    "layout-thrash": [
        holding("Blink.ForcedStyleAndLayout.UpdateTime", "Layout", 100),
        nested("Layout", "Blink.ForcedStyleAndLayout.UpdateTime", 100),
        at_least("Document::UpdateStyleAndLayout", 100, MAIN),
    ],
    "forced-style": [
        nested("UpdateLayoutTree", "FunctionCall", 20),
        at_least("UpdateLayoutTree", 20, MAIN, where=_forced_by_script,
                 what="UpdateLayoutTree with a script stackTrace >= 20"),
        at_least("ScheduleStyleInvalidationTracking", 10, MAIN),
        at_least("StyleInvalidatorInvalidationTracking", 100, MAIN),
    ],
    "css-linked": [
        values_include("ParseAuthorStyleSheet", ("data", "styleSheetUrl"),
                       ["/base.css", "/layout.css", "/print.css", "/late.css"], suffix=True),
    ],
    "css-import": [
        values_include("ParseAuthorStyleSheet", ("data", "styleSheetUrl"),
                       ["/main.css", "/reset.css", "/theme.css", "/colors.css"], suffix=True),
    ],
    "css-inline": [
        none_of("ParseAuthorStyleSheet"),
        at_least("StyleResolver::ResolveStyle", 300, MAIN),
        at_least("StyleInvalidatorInvalidationTracking", 100, MAIN),
    ],
    "img-formats": [
        values_include("Decode Image", ("imageType",), ["png", "jpg", "gif"]),
        at_least("PaintImage", 8, MAIN),
        values_include("ResourceReceiveResponse", ("data", "mimeType"),
                       ["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"]),
    ],
    "img-lazy": [
        custom("lazy images requested only after script scrolled", _lazy_after_scroll),
        values_include("PaintImage", ("data", "loadingAttribute"), ["lazy"]),
    ],
    "img-decoding-async": [
        at_least("Decode Image", 3),
        values_include("Decode Image", ("imageType",), ["jpg", "png", "webp"]),
    ],
    "img-unsized": [
        at_least("LayoutImageUnsized", 4, MAIN),
    ],
    "canvas-drawimage": [
        at_least("Decode Image", 1, MAIN),
        at_least("FireAnimationFrame", 60, MAIN),
    ],
    "image-bitmap": [
        values_include("Decode Image", ("imageType",), ["jpg", "png", "webp"]),
        at_least("UpdateCounters", 1, "DedicatedWorker", what="a DedicatedWorker thread"),
    ],
    "web-fonts": [
        values_include("ResourceReceiveResponse", ("data", "mimeType"), ["font/ttf"]),
        at_least("RemoteFontLoaded", 2, MAIN),
        at_least("InlineNode::ShapeTextIncludingFirstLine", 10, MAIN),
    ],
    "iframe-same-origin": [
        values_include("CommitLoad", ("data", "url"),
                       ["/iframe-same-origin/", "/child.html?n=1", "/outer.html", "/child.html?n=2"],
                       suffix=True),
        values_include("ParseHTML", ("beginData", "url"), ["/child.html?n=1", "/outer.html"],
                       suffix=True),
    ],
    "iframe-srcdoc": [
        at_least("CommitLoad", 3, where=_srcdoc, what="3 about:srcdoc documents committed"),
        values_include("ParseHTML", ("beginData", "url"), ["about:srcdoc"]),
    ],
    "workers": [
        custom("a classic and a module worker thread", _worker_threads),
        longest("ThreadControllerImpl::RunTask", 50, thread="DedicatedWorker"),
    ],
    "intersection-observer": [
        at_least("IntersectionObserverController::computeIntersections", 50, MAIN),
        nested("HitTest", "IntersectionObserverController::computeIntersections", 3),
    ],
    "content-visibility": [
        at_least("IntersectionObserverController::computeIntersections", 20, MAIN),
        at_least("ScrollLayer", 10, MAIN),
        custom("text shaped as sections scroll into view", _shaped_after_scroll),
    ],
    "user-timing": [
        at_least("tc:step-start", 10, MAIN, where=lambda e: e.get("cat") == "blink.user_timing"),
        values_include("tc:step-start", ("data", "detail"), ['{"step":0}', '{"step":9}']),
        at_least("tc:step", 10, MAIN, where=lambda e: e.get("ph") == "b",
                 what="10 tc:step measures (async begin)"),
        at_least("tc:total", 1, MAIN),
        at_least("tc:boot", 1, MAIN),
    ],
    "long-tasks": [
        longest("ThreadControllerImpl::RunTask", 50, count=4),
        longest("ThreadControllerImpl::RunTask", 250),
    ],
    "heap-growth": [
        custom("the JS heap grows past 30 MB and fivefold", _heap_grew),
        at_least("MinorGC", 3, MAIN),
    ],
    "scroll-script": [
        values_include("ScrollLayer", ("data", "nodeName"), ["#document", "DIV id='box'"]),
        nested("ScrollLayer", "FunctionCall", 3),
        nested("HitTest", "FunctionCall", 10),
    ],
    "memory-cache": [
        at_least("ResourceMarkAsCached", 3, MAIN),
        custom("one URL used 26 times is requested at most twice", _one_url_few_requests),
    ],
    "failed-requests": [
        at_least("ResourceReceiveResponse", 4, where=_failed_status(404), what="4 responses with 404"),
        at_least("ResourceFinish", 4, where=_did_fail, what="4 ResourceFinish with didFail"),
    ],
    "layout-shift-lcp": [
        at_least("largestContentfulPaint::Candidate", 2),
        at_least("LayoutShift", 1),
    ],
    "timers-xhr": [
        at_least("TimerInstall", 5, MAIN),
        at_least("TimerFire", 10, MAIN),
        at_least("XHRReadyStateChange", 3, MAIN),
        at_least("XHRLoad", 1, MAIN),
        values_include("EventDispatch", ("data", "type"), ["click", "readystatechange"]),
    ],
    "parse-sync-scripts": [
        values_include("EvaluateScript", ("data", "url"),
                       ["/head.js", "/first.js", "/second.js", "/third.js"], suffix=True),
        nested("EvaluateScript", "ParseHTML", 2),
        at_least("HTMLDocumentParser::PumpTokenizerIfPossible", 3, MAIN),
    ],
    "parse-async-defer": [
        values_include("EvaluateScript", ("data", "url"), ["/async.js", "/defer.js", "/inserted.js"],
                       suffix=True),
        at_least("v8.compileModule", 3, MAIN),
        at_least("v8.evaluateModule", 2, MAIN),
    ],
    "parse-document-write": [
        nested("ParseHTML", "ParseHTML", 10),
        values_include("EvaluateScript", ("data", "url"), ["/written.js"], suffix=True),
        at_least("HTMLDocumentParser::PumpTokenizer", 10, MAIN),
    ],
    "parse-big-html": [
        custom("the 150 KB document is parsed in several ParseHTML chunks",
               _document_parsed_in_chunks),
    ],
}

FAILURE_FIXTURES = {"root-404", "hung-page"}


@functools.lru_cache(maxsize=None)
def crawl_results():
    """Read every recorded trace of the bundled crawl once per process (the
    discover run shares it with test_manual_coverage; callers only read it).

    Returns (checks, site_names, metadata): per site the (description, ok,
    detail) of each expectation, the event names seen in the site's own
    renderer, and the trace's metadata fields the manifest tests compare.
    """
    checks, site_names, metadata = {}, {}, {}
    for row in tracekit.read_manifest(tracekit.CRAWL):
        if row["status"] != "recorded":
            continue
        trace = tracekit.Trace.load(os.path.join(tracekit.CRAWL, row["trace"]))
        view = tracekit.SiteView(trace, row["url"])
        site = row["site"]
        checks.setdefault(site, []).extend(
            (c.description, *c.run(view)) for c in EXPECTATIONS.get(site, []))
        site_names.setdefault(site, set()).update(view.by_name)
        metadata.setdefault(site, []).append({
            "pids": len(view.pids),
            "user_agent": trace.metadata.get("user-agent", ""),
            "command_line": trace.metadata.get("command_line", ""),
        })
    return checks, site_names, metadata


def crawl_available():
    return os.path.isfile(os.path.join(tracekit.CRAWL, "manifest.tsv"))


@unittest.skipUnless(crawl_available(), "no bundled crawl at corpus/crawl")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is needed to read corpus/crawl")
class BundledCrawl(unittest.TestCase):
    def test_every_fixture_site_has_an_expectation(self):
        sites = set(tracekit.site_names()) - FAILURE_FIXTURES
        self.assertEqual(sorted(sites - set(EXPECTATIONS)), [], "sites without expectations")
        self.assertEqual(sorted(set(EXPECTATIONS) - sites), [], "expectations without a site")

    def test_every_recorded_trace_has_the_site_renderer(self):
        _, _, metadata = crawl_results()
        self.assertEqual(sorted(metadata), sorted(EXPECTATIONS))
        for site, traces in metadata.items():
            for meta in traces:
                self.assertGreaterEqual(meta["pids"], 1, site)

    def test_each_site_produced_the_events_it_exists_for(self):
        checks, _, _ = crawl_results()
        for site in sorted(EXPECTATIONS):
            for description, ok, detail in checks.get(site, []):
                with self.subTest(site=site, check=description):
                    self.assertTrue(ok, detail)

    def test_traces_match_the_manifest_settings(self):
        """Each trace's own metadata agrees with its manifest row."""
        _, _, metadata = crawl_results()
        rows = {r["site"]: r for r in tracekit.read_manifest(tracekit.CRAWL)
                if r["status"] == "recorded"}
        for site, traces in metadata.items():
            row = rows[site]
            major = re.search(r"Chromium (\d+)\.", row["chrome_version"]).group(1)
            for meta in traces:
                with self.subTest(site=site):
                    self.assertIn("HeadlessChrome/%s." % major, meta["user_agent"])
                    self.assertIn("--trace-startup=%s " % row["categories"],
                                  meta["command_line"] + " ")
                    self.assertIn("--trace-startup-duration=%s" % row["duration_s"],
                                  meta["command_line"])
                    self.assertIn("--trace-startup-format=json", meta["command_line"])


if __name__ == "__main__":
    unittest.main()
