#!/usr/bin/env python3
"""Sites per hour of corpus/record --urls at --jobs 1 and --jobs 2, side by side.

Serves a generated loopback web (corpus/loopweb: mostly pages that load, a
few of every failure, in loopweb.MIX's shares; with loopweb.CRASH_FLAG, so
the crash sites die at 128 MB of heap), writes its URL list, and
crawls it with each job count into a fresh folder, alternating the order rep
by rep (1, 2, then 2, 1, ...) so that a drift of the machine's load weighs on
both. Prints, per run, the wall time, sites per hour (sites of the list over
wall time), recorded and failed sites, the median seconds a site took
(manifest's `seconds`), and the load average (1 min) before and after; then
the --jobs 2 speed-up as the ratio of the medians of sites per hour.

    python3 bench/crawl_rate.py [--sites 40] [--reps 1] [--duration 5] [--zstd-level 3]
                                [--jobs 1,2] [--chromium chromium]
"""
import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "corpus", "loopweb"))
import loopweb  # noqa: E402


def crawl(args, urls, jobs, out):
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    proc = subprocess.run(
        [os.path.join(ROOT, "corpus", "record"), "--urls", urls, "-o", out, "--jobs", str(jobs),
         "--duration", str(args.duration), "--zstd-level", str(args.zstd_level),
         "--chromium", args.chromium, "--chrome-flag=" + loopweb.CRASH_FLAG],
        capture_output=True, text=True)
    wall = time.monotonic() - started
    if proc.returncode not in (0, 1):
        sys.exit("corpus/record failed (%d):\n%s" % (proc.returncode, proc.stderr[-3000:]))
    with open(os.path.join(out, "manifest.tsv"), newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return {"jobs": jobs, "wall": wall, "per_hour": len(rows) / wall * 3600,
            "recorded": sum(r["status"] == "recorded" for r in rows),
            "failed": sum(r["status"] == "failed" for r in rows),
            "site_s": statistics.median(float(r["seconds"]) for r in rows),
            "load": (load_before, os.getloadavg()[0])}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sites", type=int, default=40)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--zstd-level", type=int, default=3)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--chromium", default="chromium")
    args = ap.parse_args(argv)
    job_counts = [int(j) for j in args.jobs.split(",")]
    sites = loopweb.generate(args.sites)
    kinds = {k: sum(1 for _, kind in sites if kind == k) for k in loopweb.KINDS}
    tmp = tempfile.mkdtemp(prefix="tc-crawl-rate-")
    results = []
    try:
        with loopweb.LoopWeb(sites) as web:
            urls = os.path.join(tmp, "sites.txt")
            web.write_list(urls)
            print("%d loopback sites (%s); --duration %d --zstd-level %d; %s" % (
                len(sites), ", ".join("%d %s" % (v, k) for k, v in kinds.items() if v),
                args.duration, args.zstd_level,
                subprocess.run([args.chromium, "--version"], capture_output=True,
                               text=True).stdout.strip()), flush=True)
            for rep in range(args.reps):
                order = job_counts if rep % 2 == 0 else list(reversed(job_counts))
                for jobs in order:
                    out = os.path.join(tmp, "crawl-%d-%d" % (rep, jobs))
                    r = crawl(args, urls, jobs, out)
                    shutil.rmtree(out)
                    results.append(r)
                    print("rep %d  --jobs %d: %5.0f s  %5.0f sites/h  %d recorded, %d failed  "
                          "median %.1f s a site  load %.2f -> %.2f" % (
                              rep + 1, jobs, r["wall"], r["per_hour"], r["recorded"],
                              r["failed"], r["site_s"], *r["load"]), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    medians = {j: statistics.median(r["per_hour"] for r in results if r["jobs"] == j)
               for j in job_counts}
    base = medians[job_counts[0]]
    for j in job_counts:
        print("--jobs %d: median %.0f sites/h, x%.2f of --jobs %d" % (
            j, medians[j], medians[j] / base, job_counts[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
