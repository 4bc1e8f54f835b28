"""Where a crawl's browsers run, noted in the crawl's folder, so that the
next run cleans up after a crawl killed with SIGKILL.

Each run keeps its attempts' scratch folders (profiles, raw traces, logs)
under one root folder in the temporary directory. The root's path is written
to OUT/.record-live/ before the root is made, and removed once the run has
ended every browser and removed the root. A run that finds such an entry
(under the crawl's lock, so no running crawl owns it) kills every process
whose command line still names a path under that root (browser.py) and
removes the root: no browser keeps tracing and no profile stays behind,
however the earlier run ended.
"""
import os
import secrets
import shutil
import tempfile

import browser

LIVE_DIR = ".record-live"


def _entry(out, root):
    return os.path.join(out, LIVE_DIR, os.path.basename(root))


def start(out):
    """Note, then make, this run's scratch root; returns its path."""
    root = os.path.join(tempfile.gettempdir(),
                        "tc-record-%d-%s" % (os.getpid(), secrets.token_hex(4)))
    os.makedirs(os.path.join(out, LIVE_DIR), exist_ok=True)
    tmp = os.path.join(out, LIVE_DIR, ".new")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(root + "\n")
    os.replace(tmp, _entry(out, root))
    os.mkdir(root)
    return root


def _clean(out, root):
    killed = browser.kill_marked(root)
    removed = os.path.isdir(root)
    if removed:
        for name in os.listdir(root):
            browser.remove_scratch(os.path.join(root, name))
    shutil.rmtree(root, ignore_errors=True)
    os.remove(_entry(out, root))
    return killed, removed


def end(out, root):
    """End what is left under this run's ROOT and drop its note."""
    _clean(out, root)


def sweep(out):
    """End what earlier runs left; returns (processes killed, scratch roots removed)."""
    folder = os.path.join(out, LIVE_DIR)
    if not os.path.isdir(folder):
        return 0, 0
    killed = removed = 0
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.startswith("."):
            os.remove(path)  # a note half written: its root was never made
            continue
        with open(path, encoding="utf-8") as f:
            root = f.read().strip()
        k, r = _clean(out, root)
        killed, removed = killed + k, removed + r
    return killed, removed
