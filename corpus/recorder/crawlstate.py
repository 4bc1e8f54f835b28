"""What a crawl folder already holds, and what is left to record.

Running the same command again continues a crawl. The crawl's settings are
kept in OUT/.record.json when it starts: a continued crawl must ask for the
same traces (mode, format, categories, duration, repeat), or its traces
would not be one crawl. The manifest then says which traces are done:
- a recorded row is kept when its trace is still there, complete and
  readable (the size the row gives, and `zstd -t` passes); otherwise the
  trace is recorded again;
- a failed row is kept (it counts in S with its reason) unless
  --retry-failed asks to try it again;
- a trace with no row (the crawl stopped while recording it) is recorded.
Names starting with '.' are not read as sites by tracecensus, so the
settings file, the lock and the list of running browsers live in OUT.
"""
import json
import os
import subprocess
import urllib.parse

SETTINGS = ".record.json"
# What makes traces of one crawl comparable; other options may change between runs.
SETTING_KEYS = ("mode", "format", "categories", "duration_s", "repeat")


class Item:
    """One trace to record: site NAME at URL, repetition RUN, ORDER in the manifest."""

    def __init__(self, order, name, url, run, fixture=False):
        self.order, self.name, self.url, self.run, self.fixture = order, name, url, run, fixture

    @property
    def key(self):
        return (self.name, self.run)

    def same_target(self, url):
        """Whether a manifest row's URL is this item's.

        Fixture sites are served on a new port every run, so only their path counts.
        """
        if self.fixture:
            return urllib.parse.urlsplit(url).path == urllib.parse.urlsplit(self.url).path
        return url == self.url

    def __repr__(self):
        return "Item(%s run %d)" % (self.name, self.run)


def trace_name(run, repeat, fmt):
    ext = "json" if fmt == "json" else "pftrace"
    return "trace.%s.zst" % ext if repeat == 1 else "trace-%03d.%s.zst" % (run, ext)


def read_settings(out):
    """The settings OUT was started with, or None when it has none."""
    try:
        with open(os.path.join(out, SETTINGS), encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def write_settings(out, settings):
    path = os.path.join(out, SETTINGS)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({k: settings[k] for k in SETTING_KEYS}, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def settings_differences(old, new):
    """['--duration: 5 then, 2 now', ...] for every setting that differs."""
    flags = {"mode": "--mode", "format": "--format", "categories": "--categories",
             "duration_s": "--duration", "repeat": "--repeat"}
    diffs = []
    for k in SETTING_KEYS:
        if old.get(k) != new[k]:
            then = old.get(k)
            if isinstance(then, list):
                then = ",".join(then)
            now = ",".join(new[k]) if isinstance(new[k], list) else new[k]
            diffs.append("%s: %s then, %s now" % (flags[k], then, now))
    return diffs


def trace_intact(out, row):
    """Whether a recorded row's trace is complete: its size, and zstd's own check."""
    if not row["trace"] or row["bytes"] is None:
        return False
    path = os.path.join(out, row["trace"])
    try:
        if os.path.getsize(path) != row["bytes"]:
            return False
    except OSError:
        return False
    return subprocess.run(["zstd", "-t", "-q", "--long=31", path], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


class Plan:
    """kept: {item key: row} carried over; todo: items to record, in order; notes: lines to print."""

    def __init__(self):
        self.kept, self.todo, self.notes = {}, [], []


def plan(items, old_rows, out, retry_failed, intact=trace_intact):
    """Which of ITEMS (in manifest order) OLD_ROWS already hold."""
    p = Plan()
    old = {(r["site"], r["run"]): r for r in old_rows}
    wanted = {i.key for i in items}
    for item in items:
        r = old.get(item.key)
        if r is None:
            p.todo.append(item)
        elif not item.same_target(r["url"]):
            p.notes.append("%s: listed as %s now, recorded from %s: recorded again" % (
                item.name, item.url, r["url"]))
            p.todo.append(item)
        elif r["status"] == "recorded" and intact(out, r):
            p.kept[item.key] = r
        elif r["status"] == "recorded":
            p.notes.append("%s: %s is missing or damaged: recorded again" % (item.name, r["trace"]))
            p.todo.append(item)
        elif retry_failed:
            p.todo.append(item)
        else:
            p.kept[item.key] = r
    gone = sorted({r["site"] for r in old_rows if (r["site"], r["run"]) not in wanted})
    if gone:
        p.notes.append("%d site(s) of the earlier manifest are not in this list and leave the "
                       "manifest (their folders stay): %s" % (len(gone), ", ".join(gone)))
    return p
