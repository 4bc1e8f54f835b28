"""The crawl manifest: one row per trace of the crawl, recorded or failed.

manifest.tsv is what tools read (a header line, tab-separated, no quoting);
manifest.json holds the same rows as objects for people and JSON tools.
Failed sites keep their row: they count in S, the number of sites surveyed.
Both are replaced whole (written beside, then renamed), so a reader or a
resumed crawl never meets half a manifest; manifest.tsv is written last and
is the one a resumed crawl reads back.
"""
import csv
import json
import os

# The first nine are the columns every earlier crawl has, with the same meaning.
COLUMNS = ["site", "url", "status", "reason", "trace", "bytes", "chrome_version",
           "categories", "duration_s", "run", "attempts", "attempt_reasons", "mode",
           "format", "recorded_at", "seconds"]
REASON_SEPARATOR = " | "


def _one_line(text):
    """TEXT on one line with no tab (the TSV holds it as is) and no separator."""
    text = " ".join((text or "").split())
    return text.replace(REASON_SEPARATOR.strip(), "/")


def row(site, url, status, reason, trace, nbytes, chrome_version, categories, duration_s,
        run=1, attempt_reasons=(), mode="startup", fmt="json", recorded_at=None, seconds=None):
    """A manifest row; `trace` and `nbytes` are None for a failed site.

    `attempt_reasons` holds one entry per attempt, in order: why it failed,
    or "recorded" for the attempt that recorded the trace.
    """
    return {"site": site, "url": url, "status": status, "reason": _one_line(reason),
            "trace": trace or "", "bytes": nbytes, "chrome_version": chrome_version,
            "categories": list(categories), "duration_s": duration_s, "run": run,
            "attempts": len(attempt_reasons),
            "attempt_reasons": [_one_line(r) for r in attempt_reasons], "mode": mode,
            "format": fmt, "recorded_at": recorded_at or "",
            "seconds": None if seconds is None else round(seconds, 1)}


def _cell(column, value):
    if value is None:
        return ""
    if column == "attempt_reasons":
        return REASON_SEPARATOR.join(value)
    if isinstance(value, list):
        return ",".join(value)
    return str(value)


def _write_atomically(path, text):
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.remove(tmp)
        raise


def write(crawl_dir, rows):
    """Write manifest.json, then manifest.tsv, into `crawl_dir`, rows in the order given."""
    _write_atomically(os.path.join(crawl_dir, "manifest.json"),
                      json.dumps(rows, indent=1, sort_keys=False) + "\n")
    lines = ["\t".join(COLUMNS)]
    lines += ["\t".join(_cell(c, r[c]) for c in COLUMNS) for r in rows]
    _write_atomically(os.path.join(crawl_dir, "manifest.tsv"), "\n".join(lines) + "\n")


def _number(text, kind):
    return kind(text) if text != "" else None


def read(crawl_dir):
    """The rows of crawl_dir/manifest.tsv as write() was given them.

    Raises ValueError naming the file when it lacks a column this recorder
    writes (a crawl of an older recorder, or not a crawl at all).
    """
    path = os.path.join(crawl_dir, "manifest.tsv")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError("%s has no column %s" % (path, ", ".join(missing)))
        rows = []
        for r in reader:
            reasons = r["attempt_reasons"]
            rows.append({
                **{c: r[c] for c in COLUMNS},
                "bytes": _number(r["bytes"], int), "duration_s": int(r["duration_s"]),
                "categories": [c for c in r["categories"].split(",") if c],
                "run": int(r["run"]), "attempts": int(r["attempts"]),
                "attempt_reasons": reasons.split(REASON_SEPARATOR) if reasons else [],
                "seconds": _number(r["seconds"], float)})
    return rows
