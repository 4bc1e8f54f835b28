"""Trace category presets, by name, beside explicit lists.

Each preset is the list a tool people record with asks Chrome for, copied
from that tool's source, so that a crawl can be recorded as its users
record. '-*' (leave out everything not named) is dropped where a list has
it: Chrome enables only the named categories whenever any is named.
"""

DISABLED = "disabled-by-default-"

PRESETS = {
    # The recorder's own list since issue 3: what the census and metrics read.
    "tracecensus": [
        "devtools.timeline", DISABLED + "devtools.timeline", DISABLED + "devtools.timeline.frame",
        DISABLED + "devtools.timeline.stack", DISABLED + "devtools.timeline.invalidationTracking",
        "blink", "blink.user_timing", "blink.animations", "cc", "benchmark", "rail", "loading",
        "v8.execute", "toplevel"],
    # The DevTools Performance panel with its default settings (JS samples and
    # screenshots on): devtools-frontend front_end/panels/timeline/TimelineController.ts,
    # startRecording().
    "devtools": [
        "blink.console", "loading", "blink.user_timing", "devtools.timeline",
        DISABLED + "devtools.target-rundown", DISABLED + "devtools.timeline.frame",
        DISABLED + "devtools.timeline.stack", DISABLED + "devtools.timeline",
        DISABLED + "devtools.v8-source-rundown-sources", DISABLED + "devtools.v8-source-rundown",
        DISABLED + "layout_shift.debug", DISABLED + "v8.inspector",
        DISABLED + "v8.cpu_profiler.hires", DISABLED + "lighthouse", "v8.execute", "v8", "cppgc",
        "navigation", "rail", DISABLED + "v8.cpu_profiler", DISABLED + "devtools.screenshot"],
    # Puppeteer's page.tracing.start() without categories: puppeteer-core
    # 24.43.1, lib/esm/puppeteer/cdp/Tracing.js.
    "puppeteer": [
        "devtools.timeline", "v8.execute", DISABLED + "devtools.timeline",
        DISABLED + "devtools.timeline.frame", "toplevel", "blink.console", "blink.user_timing",
        "latencyInfo", DISABLED + "devtools.timeline.stack", DISABLED + "v8.cpu_profiler"],
    # Lighthouse's trace gatherer: lighthouse core/gather/gatherers/trace.js,
    # getDefaultTraceCategories().
    "lighthouse": [
        DISABLED + "lighthouse", "loading", "v8", "v8.execute", "blink.user_timing",
        "blink.console", "devtools.timeline", DISABLED + "devtools.timeline",
        DISABLED + "devtools.screenshot", DISABLED + "devtools.timeline.stack",
        DISABLED + "devtools.timeline.frame", "latencyInfo",
        DISABLED + "devtools.timeline.invalidationTracking", DISABLED + "v8.cpu_profiler"],
    # Everything Chrome can record: every category, the disabled-by-default ones
    # too. Traces grow many times larger and Chrome runs slower while tracing.
    "all": ["*", DISABLED + "*"],
}
DEFAULT = "tracecensus"


def resolve(text):
    """The category list for a preset name or a comma-separated list.

    Raises ValueError for an empty list.
    """
    if text in PRESETS:
        return list(PRESETS[text])
    cats = [c.strip() for c in text.split(",") if c.strip()]
    if not cats:
        raise ValueError("no categories in %r" % text)
    return cats


def help_text():
    return "; ".join("%s (%d)" % (name, len(cats)) for name, cats in PRESETS.items())
