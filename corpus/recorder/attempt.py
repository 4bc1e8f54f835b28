"""Record one trace of the crawl: attempts, the page's verdict, the stored file.

An attempt runs the browser in the crawl's mode in a scratch folder of its
own, decides from the trace whether the page loaded (pageload.py), and on
success compresses the raw trace into OUT/<site>/ under a dot name first
(tracecensus skips dot names), renamed once whole. A failed attempt is tried
again up to job.retries times, unless the server answered with an HTTP
client error other than 408 or 429, which another try would not change.
Before every attempt, and after a failed one, the free space of OUT and of
the scratch folders is checked: below job.min_free_mb the crawl stops
(DiskFull) instead of recording failures that are only a full disk.
"""
import errno
import os
import re
import subprocess
import time

import browser
import cdp
import crawlstate
import manifest
import pageload
import startup

RECORDED = "recorded"
_FINAL_HTTP = re.compile(r"HTTP 4\d\d ")


class DiskFull(Exception):
    """The crawl must stop: a file system is (nearly) full. The message says which."""


class Job:
    """The crawl's settings an attempt needs (see corpus/record's options)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def settings(self):
        return {"mode": self.mode, "format": self.fmt, "categories": list(self.categories),
                "duration_s": self.duration_s, "repeat": self.repeat}


def retryable(reason):
    return not _FINAL_HTTP.match(reason) or reason.startswith(("HTTP 408 ", "HTTP 429 "))


def free_mb(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize / (1 << 20)


def check_space(job):
    """Raise DiskFull if OUT's or the scratch folders' file system is below the floor."""
    for what, path in (("the crawl folder " + job.out, job.out),
                       ("the scratch folder " + job.scratch_root, job.scratch_root)):
        have = free_mb(path)
        if have < job.min_free_mb:
            raise DiskFull("%.0f MB free for %s, under --min-free %d MB" % (
                have, what, job.min_free_mb))


def _nospace(text):
    return "No space left on device" in text or "Disk quota exceeded" in text


def _compress(job, src, dst):
    """zstd SRC into DST; raises DiskFull when the disk is, RuntimeError otherwise."""
    ultra = ["--ultra"] if job.zstd_level > 19 else []
    proc = subprocess.run(["zstd", "-q", "-f", "--long", *ultra, "-%d" % job.zstd_level, src,
                           "-o", dst], capture_output=True, text=True, start_new_session=True)
    if proc.returncode != 0:
        if os.path.exists(dst):
            os.remove(dst)
        message = "zstd could not write %s: %s" % (dst, proc.stderr.strip()[-300:])
        raise DiskFull(message) if _nospace(proc.stderr) else RuntimeError(message)
    os.chmod(dst, 0o644)  # zstd copies the 0600 mode Chromium gave the trace


def store(job, item, raw):
    """Compress RAW as ITEM's trace; returns (path relative to OUT, bytes)."""
    name = crawlstate.trace_name(item.run, job.repeat, job.fmt)
    rel = os.path.join(item.name, name)
    tmp = os.path.join(job.out, item.name, "." + name + ".tmp")
    _compress(job, raw, tmp)
    try:
        os.replace(tmp, os.path.join(job.out, rel))
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DiskFull("%s: %s" % (rel, e.strerror)) from None
        raise
    return rel, os.path.getsize(os.path.join(job.out, rel))


def clear(job, item):
    """Remove what an earlier try of ITEM left in its folder, and make the folder."""
    folder = os.path.join(job.out, item.name)
    os.makedirs(folder, exist_ok=True)
    name = crawlstate.trace_name(item.run, job.repeat, job.fmt)
    for leftover in (name, "." + name + ".tmp"):
        if os.path.lexists(os.path.join(folder, leftover)):
            os.remove(os.path.join(folder, leftover))


def once(job, item, stopping):
    """One attempt; returns (relative trace path, bytes, None) or (None, None, reason)."""
    scratch = browser.new_scratch(job.scratch_root)
    try:
        mode = cdp if job.mode == "cdp" else startup
        events, reason, crashed = mode.record(job, item.url, scratch, stopping)
        if reason is None:
            reason = pageload.page_failure(events, item.url, job.duration_s)
        if reason is None and crashed:
            reason = "the page's renderer crashed"
        if reason is not None:
            return None, None, reason
        raw = startup.trace_file(scratch, "json" if job.mode == "cdp" else job.fmt)
        rel, nbytes = store(job, item, raw)
        return rel, nbytes, None
    finally:
        browser.finish([], scratch)


def record(job, item, version, stopping):
    """ITEM's manifest row after up to 1 + job.retries attempts, or None if the crawl stopped."""
    clear(job, item)
    reasons, started = [], time.monotonic()
    rel = nbytes = None
    for _ in range(1 + job.retries):
        if stopping.is_set():
            return None
        check_space(job)
        recorded_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        rel, nbytes, reason = once(job, item, stopping)
        if reason == browser.STOPPED:
            return None
        reasons.append(reason or RECORDED)
        if reason is None:
            break
        check_space(job)
        if not retryable(reason):
            break
    failed = rel is None
    return manifest.row(item.name, item.url, "failed" if failed else RECORDED,
                        reasons[-1] if failed else None, rel, nbytes, version, job.categories,
                        job.duration_s, run=item.run, attempt_reasons=reasons, mode=job.mode,
                        fmt=job.fmt, recorded_at=recorded_at,
                        seconds=time.monotonic() - started)
