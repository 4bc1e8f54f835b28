"""Building blocks for per-site expectations over a SiteView.

Each helper returns a Check: a description and a function from a SiteView to
(ok, detail), where detail reports what was measured so a failure says why.
Slices are compared per thread ((pid, tid)) and by time, in microseconds.
"""
import bisect
from collections import defaultdict, namedtuple

from tracekit import arg

Check = namedtuple("Check", "description run")

MAIN = "CrRendererMain"


def _by_thread(slices):
    out = defaultdict(list)
    for start, end, pid, tid in slices:
        out[(pid, tid)].append((start, end))
    for spans in out.values():
        spans.sort()
    return out


def count_contained(inner, outer):
    """How many `inner` slices lie inside some `outer` slice on the same thread."""
    outer_by = _by_thread(outer)
    reach = {}
    for key, spans in outer_by.items():
        best, ends = float("-inf"), []
        for _, end in spans:
            best = max(best, end)
            ends.append(best)
        reach[key] = ([s for s, _ in spans], ends)
    n = 0
    for start, end, pid, tid in inner:
        starts, ends = reach.get((pid, tid), ([], []))
        i = bisect.bisect_right(starts, start) - 1
        if i >= 0 and ends[i] >= end:
            n += 1
    return n


def count_containing(outer, inner):
    """How many `outer` slices hold at least one `inner` slice on the same thread."""
    inner_by = _by_thread(inner)
    starts_by = {k: [s for s, _ in v] for k, v in inner_by.items()}
    n = 0
    for start, end, pid, tid in outer:
        spans, starts = inner_by.get((pid, tid), []), starts_by.get((pid, tid), [])
        i = bisect.bisect_left(starts, start)
        while i < len(spans) and spans[i][0] <= end:
            if spans[i][1] <= end:
                n += 1
                break
            i += 1
    return n


def at_least(name, minimum, thread=None, where=None, what=None):
    """At least `minimum` events called `name` (on `thread`, matching `where`)."""
    def run(view):
        found = [e for e in view.named(name, thread) if where is None or where(e)]
        return len(found) >= minimum, "%d found" % len(found)
    label = what or "%s >= %d%s" % (name, minimum, " on " + thread if thread else "")
    return Check(label, run)


def none_of(name):
    def run(view):
        found = view.named(name)
        return not found, "%d found" % len(found)
    return Check("no %s" % name, run)


def values_include(name, path, wanted, thread=None, suffix=False):
    """The values of args[path] over events called `name` include every one of
    `wanted` (or, with suffix=True, values ending with each of them)."""
    def run(view):
        seen = {arg(e, *path) for e in view.named(name, thread)}
        seen.discard(None)
        if suffix:
            missing = [w for w in wanted if not any(str(s).endswith(w) for s in seen)]
        else:
            missing = [w for w in wanted if w not in seen]
        shown = sorted(str(s)[-40:] for s in seen)[:12]
        return not missing, "missing %s; seen %s" % (missing, shown)
    return Check("%s args.%s include %s" % (name, ".".join(path), list(wanted)), run)


def nested(inner, outer, minimum, thread=MAIN):
    """At least `minimum` `inner` slices inside `outer` slices on one thread."""
    def run(view):
        n = count_contained(view.slices(inner, thread), view.slices(outer, thread))
        return n >= minimum, "%d nested" % n
    return Check("%s inside %s >= %d" % (inner, outer, minimum), run)


def holding(outer, inner, minimum, thread=MAIN):
    """At least `minimum` `outer` slices that hold an `inner` slice."""
    def run(view):
        outers = view.slices(outer, thread)
        n = count_containing(outers, view.slices(inner, thread))
        return n >= minimum, "%d of %d" % (n, len(outers))
    return Check("%s holding %s >= %d" % (outer, inner, minimum), run)


def longest(name, minimum_ms, thread=MAIN, count=1):
    """At least `count` slices called `name` last `minimum_ms` or longer."""
    def run(view):
        durs = sorted(((e - s) / 1000 for s, e, _, _ in view.slices(name, thread)), reverse=True)
        n = sum(1 for d in durs if d >= minimum_ms)
        return n >= count, "longest %s ms" % [round(d, 1) for d in durs[:6]]
    return Check("%d x %s >= %d ms" % (count, name, minimum_ms), run)


def custom(description, fn):
    """A check with its own logic: fn(view) -> (ok, detail)."""
    return Check(description, fn)
