#!/usr/bin/env python3
"""The census scope on synthetic traces whose processes are known by
construction, through the binary:

site `mixed`, one startup-style trace (no TracingStartedInBrowser):
  pid 1   the browser (CrBrowserMain)                  BrowserWork x2
  pid 10  Chrome's omnibox popup, first to commit      UIWork x5
          (chrome://omnibox-popup.top-chrome/)
  pid 20  the page (http://a.test/), second            PageWork x3
  pid 30  a cross-site iframe of the page, third:      IframeWork x2
          its CommitLoad names no parent, the page's
          renderer named the frame as a subframe
  pid 40  a renderer whose first 10,000 events come    Early x10,000
          before its only commit (chrome://settings/)
  pid 50  a spare renderer that commits nothing        Spare x4
site `version`: one trace whose only renderer shows chrome://version,
  traced on purpose                                    VersionWork x6

Expected, by scope: no-chrome-ui (the default) leaves out pids 10 and 40
(browser_ui), page also pid 50 (other_renderer), all nothing; the page of
`version` is never left out. Each scope's outputs are the same bytes at -T 1
and -T 2 with small chunks, in reversed input order, after a resume and
after a merge of two shards.

On the shared third-party traces, which hold no renderer of Chrome's own UI,
the default census is the census of scope `all` but for the line naming the
scope: every file the same bytes.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from e2e_common import BINARY, THIRD_PARTY

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def meta(pid, tid, what, name):
    return {"name": what, "ph": "M", "pid": pid, "tid": tid, "ts": 0, "cat": "__metadata",
            "args": {"name": name}}


def commit(pid, ts, frame, url, main, parent=None):
    data = {"frame": frame, "url": url, "isMainFrame": main, "isOutermostMainFrame": main}
    if parent:
        data["parent"] = parent
    return {"name": "CommitLoad", "ph": "X", "pid": pid, "tid": pid, "ts": ts, "dur": 1,
            "cat": "devtools.timeline", "args": {"data": data}}


def work(name, pid, n, ts):
    return [{"name": name, "ph": "X", "pid": pid, "tid": pid, "ts": ts + i, "dur": 2,
             "cat": "toplevel", "args": {"n": i % 3}} for i in range(n)]


def mixed():
    ev = [meta(1, 1, "process_name", "Browser"), meta(1, 1, "thread_name", "CrBrowserMain")]
    for pid in (10, 20, 30, 40, 50):
        ev += [meta(pid, pid, "process_name", "Renderer"),
               meta(pid, pid, "thread_name", "CrRendererMain")]
    ev += work("BrowserWork", 1, 2, 50)
    ev += [commit(10, 100, "UI", "chrome://omnibox-popup.top-chrome/", True)]
    ev += work("UIWork", 10, 5, 110)
    ev += [commit(20, 200, "PAGE", "http://a.test/", True),
           {"name": "navigationStart", "ph": "R", "pid": 20, "tid": 20, "ts": 210,
            "cat": "blink.user_timing",
            "args": {"frame": "SUB", "data": {"documentLoaderURL": "http://b.test/",
                                              "isLoadingMainFrame": False,
                                              "isOutermostMainFrame": False}}}]
    ev += work("PageWork", 20, 3, 220)
    ev += [commit(30, 300, "SUB", "http://b.test/", False)]
    ev += work("IframeWork", 30, 2, 310)
    ev += work("Early", 40, 10000, 400)
    ev += [commit(40, 20000, "SETTINGS", "chrome://settings/", True)]
    ev += work("Spare", 50, 4, 500)
    return {"traceEvents": ev}


def version_only():
    ev = [meta(1, 1, "process_name", "Browser"), meta(7, 7, "process_name", "Renderer"),
          meta(7, 7, "thread_name", "CrRendererMain"),
          commit(7, 100, "V", "chrome://version/", True)]
    ev += work("VersionWork", 7, 6, 110)
    return {"traceEvents": ev}


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=300)


def census(corpus, out, scope, threads=2, extra=()):
    p = run("census", "-q", "-T", str(threads), "--chunk-bytes", "4096", "--scope", scope, "-o", out,
            *extra, *corpus)
    check(p.returncode == 0, f"{scope}: census exit {p.returncode}: {p.stderr[-400:]}")
    return p


def load(out, name):
    with open(os.path.join(out, name), encoding="utf-8") as f:
        return json.load(f)


def product_bytes(out):
    got = {}
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name), "rb") as f:
            data = f.read()
        # How the outputs were made (timings, threads, how many state folders
        # a merge read) is not what they say.
        if name == "run.json":
            doc = json.loads(data)
            for k in ("seconds", "json_mb_per_s", "peak_rss_kib", "threads", "simdjson_kernel",
                      "merged_folders"):
                doc.pop(k, None)
            data = json.dumps(doc, sort_keys=True).encode()
        got[name] = data
    return got


EXPECT = {
    # scope: (records kept per name, records left per name and why)
    "no-chrome-ui": ({"BrowserWork": 2, "PageWork": 3, "IframeWork": 2, "Spare": 4,
                      "VersionWork": 6},
                     {"UIWork": ("browser_ui", 5), "Early": ("browser_ui", 10000)}),
    "page": ({"BrowserWork": 2, "PageWork": 3, "IframeWork": 2, "VersionWork": 6},
             {"UIWork": ("browser_ui", 5), "Early": ("browser_ui", 10000),
              "Spare": ("other_renderer", 4)}),
    "all": ({"BrowserWork": 2, "PageWork": 3, "IframeWork": 2, "Spare": 4, "VersionWork": 6,
             "UIWork": 5, "Early": 10000}, {}),
}
LEFT_PIDS = {"no-chrome-ui": [10, 40], "page": [10, 40, 50], "all": []}


def check_scope(scope, out):
    c, r = load(out, "census.json"), load(out, "run.json")
    kept, left = EXPECT[scope]
    check(c["scope"] == scope and r["scope"] == scope, f"{scope}: named {c['scope']}, {r['scope']}")
    events = {e["name"]: e for e in c["events"]}
    outside = {e["name"]: e for e in c["events_outside_scope"]}
    for name, n in kept.items():
        e = events.get(name)
        check(e and e["records"] == n and e["sites"] == 1, f"{scope}: {name} kept {e and e['records']}, want {n}")
        check(name not in outside, f"{scope}: {name} listed outside")
    for name, (why, n) in left.items():
        e = outside.get(name)
        check(e and e["outside_scope"][why]["records"] == n and e["records_outside_scope"] == n,
              f"{scope}: {name} left {e and e['outside_scope']}, want {why} {n}")
        check(name not in events, f"{scope}: {name} counted inside")
    # Metadata records of the left-out processes are left out with them.
    files = {os.path.basename(os.path.dirname(f["path"])): f for f in r["files"]}
    pids = [p["pid"] for p in files["mixed"]["processes_outside_scope"]]
    check(pids == LEFT_PIDS[scope], f"{scope}: run.json leaves out {pids}")
    check(files["version"]["processes_outside_scope"] == [], f"{scope}: the chrome://version page left out")
    for p in files["mixed"]["processes_outside_scope"]:
        if p["pid"] == 40:
            check(p["urls"] == ["chrome://settings/"] and p["records"] == 10000 + 3,
                  f"{scope}: pid 40 {p}")


def third_party_unchanged(tmp):
    outs = {}
    for scope in ("no-chrome-ui", "all"):
        outs[scope] = os.path.join(tmp, "third-party-" + scope)
        p = run("census", "-q", "--scope", scope, "-o", outs[scope], THIRD_PARTY)
        check(p.returncode in (0, 1), f"third-party {scope}: exit {p.returncode}")
    a, b = product_bytes(outs["no-chrome-ui"]), product_bytes(outs["all"])
    for name in sorted(set(a) | set(b)):
        x = [l for l in a.get(name, b"").split(b"\n") if b"scope" not in l]
        y = [l for l in b.get(name, b"").split(b"\n") if b"scope" not in l]
        check(x == y, f"third-party traces: {name} differs between the default scope and all")
    left = load(outs["no-chrome-ui"], "census.json")["records_outside_scope"]
    check(left == 0, f"third-party traces: {left} records left out")


def main():
    tmp = tempfile.mkdtemp(prefix="tc-scope-")
    third_party_unchanged(tmp)
    corpus = os.path.join(tmp, "crawl")
    for site, doc in (("mixed", mixed()), ("version", version_only())):
        os.makedirs(os.path.join(corpus, site))
        with open(os.path.join(corpus, site, "trace.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f)
    inputs = [os.path.join(corpus, "mixed", "trace.json"), os.path.join(corpus, "version", "trace.json")]
    for scope in EXPECT:
        ref = os.path.join(tmp, scope + "-ref")
        census([corpus], ref, scope, threads=1)
        check_scope(scope, ref)
        want = product_bytes(ref)
        t2 = os.path.join(tmp, scope + "-t2")
        census([corpus], t2, scope, threads=2)
        check(product_bytes(t2) == want, f"{scope}: -T 2 differs from -T 1")
        # The files named one by one, in reversed order: each is named by its
        # folder (both are trace.json), so the sites are the same; run.json
        # then says so in a warning, every other file is the same bytes.
        rev = os.path.join(tmp, scope + "-rev")
        p = run("census", "-q", "-T", "2", "--chunk-bytes", "4096", "--scope", scope, "-o", rev,
                *reversed(inputs))
        got = product_bytes(rev) if p.returncode in (0, 1) else {}
        check(all(got.get(k) == v for k, v in want.items() if k != "run.json"),
              f"{scope}: reversed input order differs: {p.stderr[-300:]}")
        state = os.path.join(tmp, scope + "-state")
        census([corpus], os.path.join(tmp, scope + "-s1"), scope, extra=("--state", state))
        resumed = os.path.join(tmp, scope + "-s2")
        census([corpus], resumed, scope, extra=("--state", state))
        check(product_bytes(resumed) == want, f"{scope}: a resumed run differs")
        shards = []
        for i in range(2):
            st = os.path.join(tmp, f"{scope}-shard{i}")
            shards.append(st)
            p = run("census", "-q", "--chunk-bytes", "4096", "--scope", scope, "--state", st,
                    "--shard", f"{i}/2", corpus)
            check(p.returncode == 0, f"{scope}: shard {i}: {p.stderr[-300:]}")
        merged = os.path.join(tmp, scope + "-merged")
        p = run("merge", "-q", "-o", merged, *shards)
        check(p.returncode == 0, f"{scope}: merge: {p.stderr[-300:]}")
        if p.returncode == 0:
            check(product_bytes(merged) == want, f"{scope}: the merge of two shards differs")
    # State of one scope is not reused by another: the site runs again.
    state = os.path.join(tmp, "page-state")
    p = run("census", "-v", "--scope", "all", "--state", state, "-o", os.path.join(tmp, "x"), corpus)
    check(p.returncode == 0 and "0 traces (0 sites) reused" in p.stderr,
          f"a state of scope page reused for scope all: {p.stderr[-400:]}")
    shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        for f in failures:
            print("FAIL:", f)
        sys.exit(1)
    print("scope: ok")


if __name__ == "__main__":
    main()
