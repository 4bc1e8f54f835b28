"""Record a crawl's traces with several browsers at once.

job.jobs worker threads take the traces left to record from one queue,
repetition by repetition (every site once, then every site again, so the
repeats of a site are spread over the crawl). Each worker records one trace
at a time (attempt.record); only the main thread writes the manifest, after
every trace, with the rows in the list's order whatever finished first, and
prints the progress line.

Stopping: STOPPING (set by a signal handler, or by a worker that met a full
disk or an error) makes the workers end their browsers and return at once;
a trace that was not finished gets no row, so the next run records it.
"""
import errno
import queue
import sys
import threading
import time

import attempt
import manifest
import progress


class Outcome:
    """How the crawl ended: the rows by item key, traces finished in this run,
    what stopped it (None, or the exception), the number of traces in all and
    this run's seconds."""

    def __init__(self, rows, finished_now, problem, total, seconds):
        self.rows, self.finished_now, self.problem = rows, finished_now, problem
        self.total, self.seconds = total, seconds


def ordered_rows(items, rows):
    return [rows[i.key] for i in items if i.key in rows]


def write_manifest(out, items, rows):
    """Rewrite the manifest; a full disk becomes DiskFull, so the crawl stops saying so."""
    try:
        manifest.write(out, ordered_rows(items, rows))
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise attempt.DiskFull("the manifest in %s cannot be written: %s" % (
                out, e.strerror)) from None
        raise


def _detail(row):
    if row["status"] == attempt.RECORDED:
        return "recorded, %.1f MB, %.0f s, attempt %d" % (
            row["bytes"] / 1e6, row["seconds"], row["attempts"])
    return "FAILED after %d attempt(s): %s" % (row["attempts"], row["reason"])


def _worker(job, version, work, results, stopping):
    while not stopping.is_set():
        try:
            item = work.get_nowait()
        except queue.Empty:
            return
        try:
            results.put((item, attempt.record(job, item, version, stopping), None))
        except BaseException as e:  # every failure reaches the main thread, which stops the crawl
            stopping.set()
            results.put((item, None, e))
            return


def run(job, items, kept, todo, version, stopping, log=sys.stderr):
    """Record TODO (items), ITEMS being the whole crawl in manifest order and
    KEPT the rows carried over; returns an Outcome."""
    rows = dict(kept)
    work = queue.Queue()
    for item in sorted(todo, key=lambda i: (i.run, i.order)):
        work.put(item)
    results = queue.Queue()
    threads = [threading.Thread(target=_worker, args=(job, version, work, results, stopping),
                                name="record-%d" % n, daemon=True)
               for n in range(min(job.jobs, len(todo)))]
    for t in threads:
        t.start()
    started, finished_now, problem = time.monotonic(), 0, None
    while any(t.is_alive() for t in threads) or not results.empty():
        try:
            item, row, error = results.get(timeout=0.2)
        except queue.Empty:
            continue
        if error is not None:
            problem = problem or error
            continue
        if row is None:
            continue
        rows[item.key] = row
        finished_now += 1
        try:
            write_manifest(job.out, items, rows)
        except attempt.DiskFull as e:
            problem = problem or e
            stopping.set()
        done = len(rows)
        failed = sum(r["status"] != attempt.RECORDED for r in rows.values())
        print("[%d/%d] %s %s | %s" % (
            done, len(items), item.name, _detail(row),
            progress.line(done, failed, len(items), finished_now, time.monotonic() - started)),
            file=log, flush=True)
    for t in threads:
        t.join()
    return Outcome(rows, finished_now, problem, len(items), time.monotonic() - started)
