"""The crawl manifest: one row per attempted trace, recorded or failed.

manifest.tsv is what tools read (a header line, tab-separated, no quoting);
manifest.json holds the same rows as objects for people and JSON tools.
Failed sites keep their row: they count in S, the number of sites surveyed.
"""
import json
import os

COLUMNS = ["site", "url", "status", "reason", "trace", "bytes", "chrome_version",
           "categories", "duration_s"]


def row(site, url, status, reason, trace, nbytes, chrome_version, categories, duration_s):
    """A manifest row; `trace` and `nbytes` are None for a failed site."""
    reason = " ".join((reason or "").split())  # one line, no tabs: the TSV holds it as is
    return {"site": site, "url": url, "status": status, "reason": reason,
            "trace": trace or "", "bytes": nbytes, "chrome_version": chrome_version,
            "categories": list(categories), "duration_s": duration_s}


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(value)
    return str(value)


def _write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write(crawl_dir, rows):
    """Write manifest.tsv and manifest.json into `crawl_dir`, rows in the order given."""
    lines = ["\t".join(COLUMNS)]
    lines += ["\t".join(_cell(r[c]) for c in COLUMNS) for r in rows]
    _write_atomically(os.path.join(crawl_dir, "manifest.tsv"), "\n".join(lines) + "\n")
    _write_atomically(os.path.join(crawl_dir, "manifest.json"),
                      json.dumps(rows, indent=1, sort_keys=False) + "\n")
