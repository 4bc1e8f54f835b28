"""Reads the plain-text Chrome Trace Event Manual (../shared/seeds/) into entries.

The text is a flattened web page: each entry's heading (its event name) was
lost, so the layout is recognised from what is left. An entry is
  lead paragraphs, "Spec", prose, ["Arguments", "Observed N times on M of S
  sites...", ...], "Behaviour", [...], an example event as a JSON block
  ("{" ... "}" at column 0), "See also A · B", then label paragraphs
  ("categories", "usage", "duration", "undeclared args", "references"), each
  followed by its value paragraph,
and it ends with the value paragraph of "references" (the last entry of the
file is cut short and has none).

An entry's name is its example's "name". Entries without an example get a
name inferred from the manual itself: among the names that "See also" lines
cite and that no example carries, the one that fits the entries' alphabetical
order (case-insensitive, restarting at each section) and that the entry's own
text mentions most. name_source tells which ("json", "inferred", or "" when
neither works).
"""

import json
import re

LABELS = ("categories", "usage", "duration", "undeclared args", "references")
OBSERVED = re.compile(r"^Observed ([\d,]+) times? on ([\d,]+) of ([\d,]+) sites\b")
JSON_NAME = re.compile(r'^\s*"name":\s*("(?:[^"\\]|\\.)*")')


def _paragraph_after(lines, i):
    """Return (text, index after it) of the paragraph that follows line i."""
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    start = j
    while j < len(lines) and lines[j].strip():
        j += 1
    return "\n".join(lines[start:j]), j


def _split_entries(lines):
    """Yield (first line index, lines) per entry."""
    start = 1  # line 0 is the manual's title
    i = start
    while i < len(lines):
        if lines[i] == "references":
            _, end = _paragraph_after(lines, i)
            yield start, lines[start:end]
            start = i = end
        else:
            i += 1
    if any(line == "Spec" for line in lines[start:]):
        yield start, lines[start:]


def _json_block(lines):
    """Return the example block's text, or None."""
    for i, line in enumerate(lines):
        if line == "{":
            for j in range(i + 1, len(lines)):
                if lines[j] == "}":
                    return "\n".join(lines[i : j + 1])
            return "\n".join(lines[i:])
    return None


def _name_from_block(block):
    for line in block.split("\n"):
        m = JSON_NAME.match(line)
        if m:
            return json.loads(m.group(1))
    return None


def _parse_entry(first_line, lines):
    entry = {
        "line": first_line + 1,
        "text": "\n".join(lines),
        "example": _json_block(lines),
        "see_also": [],
        "observed": "",
        "records": None,
        "sites": None,
        "sites_total": None,
        "labels": {},
    }
    entry["name"] = _name_from_block(entry["example"]) if entry["example"] else None
    entry["name_source"] = "json" if entry["name"] else ""
    for i, line in enumerate(lines):
        m = OBSERVED.match(line)
        if m and not entry["observed"]:
            entry["observed"] = line
            entry["records"], entry["sites"], entry["sites_total"] = (
                int(g.replace(",", "")) for g in m.groups())
        elif line.startswith("See also "):
            entry["see_also"] = [s.strip() for s in line[len("See also "):].split("\u00b7")]
        elif line in LABELS and (i == 0 or not lines[i - 1].strip()):
            entry["labels"][line] = _paragraph_after(lines, i)[0]
    return entry


def _mentions(text, name):
    return len(re.findall(r"(?<![\w:.])" + re.escape(name) + r"(?![\w:])", text))


def _fits_order(candidate, before, after):
    c = candidate.casefold()
    if before is None or after is None or before <= after:
        return (before is None or c > before) and (after is None or c < after)
    return c > before or c < after  # a section boundary lies in between


def _infer_names(entries):
    named = {e["name"] for e in entries if e["name"]}
    cited = {n for e in entries for n in e["see_also"] if n}
    for k, entry in enumerate(entries):
        if entry["name"]:
            continue
        before = next((e["name"].casefold() for e in reversed(entries[:k]) if e["name"]), None)
        after = next((e["name"].casefold() for e in entries[k + 1:] if e["name"]), None)
        # An entry never lists itself under "See also".
        window = sorted(n for n in cited - named - set(entry["see_also"])
                        if _fits_order(n, before, after))
        prose = "\n".join(line for line in entry["text"].split("\n") if not line.startswith("See also "))
        scored = sorted(((_mentions(prose, n), n) for n in window), reverse=True)
        best = [n for score, n in scored if score == scored[0][0]] if scored else []
        if len(best) == 1 and (scored[0][0] > 0 or len(window) == 1):
            entry["name"], entry["name_source"] = best[0], "inferred"
            named.add(best[0])
        entry["name_candidates"] = {n: score for score, n in scored}


def parse_manual(path):
    """Return the manual's entries in order, as dicts (see _parse_entry)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    entries = [_parse_entry(start, chunk) for start, chunk in _split_entries(lines)]
    _infer_names(entries)
    return entries
