#!/usr/bin/env python3
"""Independent oracle of the census scope: which processes of each trace a
census of scope no-chrome-ui (the default) leaves out, and what it counts
over the rest. Written from the rule alone, sharing no code with the C side.
Standard library and the zstd command only.

Usage: scope_oracle.py CORPUS [-o OUT.json]

The rule, per trace:
- a process is a renderer when its process_name is "Renderer", one of its
  threads is named CrRendererMain, or it committed a document;
- a renderer's committed documents are the non-empty URLs of its
  CommitLoad (args.data.url) and navigationStart
  (args.data.documentLoaderURL) events and of every FrameCommittedInBrowser
  whose args.data.processId names it (args.data.url), outermost main frames
  only (isOutermostMainFrame, else isMainFrame / isLoadingMainFrame);
- a renderer whose every such document has a browser-UI scheme (chrome:,
  chrome-untrusted:, devtools:, chrome-extension:, chrome-search:) and
  which committed at least one is left out, unless it is the page: the
  trace's only renderer when no renderer committed a web (http:, https:,
  file:) document in an outermost main frame;
- every other process, and every event without a pid, counts.

Output: {"events": {name: {"records", "sites", "left", "left_sites",
                            "all_sites"}},
         "records", "left",
         "traces": {relative path: [left-out pids, ascending]}}
"""
import argparse
import json
import os
import subprocess
import sys

UI = ("chrome:", "chrome-untrusted:", "devtools:", "chrome-extension:", "chrome-search:")
WEB = ("http:", "https:", "file:")
NOT_TRACES = ("manifest.tsv", "manifest.json")


def load(path):
    with open(path, "rb") as f:
        head = f.read(4)
    if head == b"\x28\xb5\x2f\xfd":
        raw = subprocess.run(["zstd", "-dcq", path], check=True, capture_output=True).stdout
    else:
        with open(path, "rb") as f:
            raw = f.read()
        if raw[:2] == b"\x1f\x8b":
            import gzip
            raw = gzip.decompress(raw)
    doc = json.loads(raw)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def outermost(data):
    for key in ("isOutermostMainFrame", "isMainFrame", "isLoadingMainFrame"):
        if isinstance(data.get(key), bool):
            return data[key]
    return None


def left_out(events):
    """The pids of the trace's browser-UI renderers, the page kept."""
    renderers, docs = set(), {}
    for e in events:
        if not isinstance(e, dict) or "pid" not in e:
            continue
        name, args = e.get("name"), e.get("args") if isinstance(e.get("args"), dict) else {}
        data = args.get("data") if isinstance(args.get("data"), dict) else {}
        if e.get("ph") == "M" and name == "process_name" and args.get("name") == "Renderer":
            renderers.add(e["pid"])
        if e.get("ph") == "M" and name == "thread_name" and args.get("name") == "CrRendererMain":
            renderers.add(e["pid"])
        pid, url = None, None
        if name == "CommitLoad":
            pid, url = e["pid"], data.get("url")
        elif name == "navigationStart":
            pid, url = e["pid"], data.get("documentLoaderURL")
        elif name == "FrameCommittedInBrowser" and isinstance(data.get("processId"), (int, float)):
            pid, url = int(data["processId"]), data.get("url")
        if pid is None:
            continue
        renderers.add(pid)
        if isinstance(url, str) and url and outermost(data) is not False:
            docs.setdefault(pid, []).append(url)
    web = any(u.startswith(WEB) for us in docs.values() for u in us)
    only = len(renderers) == 1 and not web
    return sorted(p for p in renderers
                  if docs.get(p) and all(u.startswith(UI) for u in docs[p]) and not only)


def traces_of(corpus):
    for site in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, site)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if os.path.isfile(p) and f not in NOT_TRACES and not f.startswith("."):
                yield site, p


def run(corpus):
    events, traces = {}, {}
    for site, path in traces_of(corpus):
        evs = load(path)
        left = set(left_out(evs))
        traces[os.path.relpath(path, corpus)] = sorted(left)
        seen, seen_left = set(), set()
        for e in evs:
            if not isinstance(e, dict) or not e:
                continue
            name = e.get("name") if isinstance(e.get("name"), str) else ""
            row = events.setdefault(name, {"records": 0, "sites": 0, "left": 0, "left_sites": 0,
                                           "all_sites": 0, "_site": None, "_left_site": None,
                                           "_any_site": None})
            if row["_any_site"] != site:
                row["_any_site"] = site
                row["all_sites"] += 1
            if e.get("pid") in left:
                row["left"] += 1
                if row["_left_site"] != site:
                    row["_left_site"] = site
                    row["left_sites"] += 1
            else:
                row["records"] += 1
                if row["_site"] != site:
                    row["_site"] = site
                    row["sites"] += 1
    for row in events.values():
        del row["_site"], row["_left_site"], row["_any_site"]
    return {"events": events,
            "records": sum(r["records"] for r in events.values()),
            "left": sum(r["left"] for r in events.values()),
            "traces": traces}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("-o", "--out")
    a = ap.parse_args()
    out = json.dumps(run(a.corpus), indent=1, sort_keys=True)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(out + "\n")
    else:
        sys.stdout.write(out + "\n")


if __name__ == "__main__":
    main()
