"""Reading crawls and traces for the corpus tests, with the stdlib only.

Independent of corpus/recorder/: the tests read what the recorder wrote the
way any other tool would, from the manifest and the compressed files.
"""
import contextlib
import csv
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from collections import defaultdict

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(REPO, "corpus")
CRAWL = os.path.join(CORPUS, "crawl")
SITES = os.path.join(CORPUS, "sites")
RECORD = os.path.join(CORPUS, "record")
MANUAL = os.path.join(REPO, "..", "shared", "seeds", "chrome-trace-event-manual.txt")

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
GZIP_MAGIC = b"\x1f\x8b"


def raise_priority():
    """A preexec_fn for a recording: wall-clock busy loops stretch, and short
    traces end before the page has loaded, when other work preempts
    Chromium; as root (CI) the recording runs ahead of it (nice -15), as the
    committed crawls were recorded."""
    return (lambda: os.nice(-15)) if os.geteuid() == 0 else None


@contextlib.contextmanager
def background_paused(startup_windows=False):
    """Stops the process group TC_PAUSE_PGID names (scripts/test.sh's
    sanitizer builds, which run beside the suites in the idle scheduling
    class) for the time of a recording that measures wall-clock figures, and
    continues it after. The idle class yields the CPU but not the caches and
    the memory bandwidth: a busy loop set to 250 ms was measured at 356 ms
    while a TSan build compiled beside it (CI, 2026-12-07).

    With STARTUP_WINDOWS the group is stopped only while a Chromium this
    process started (a descendant) with --trace-startup-duration=N is in
    its first N + 1 seconds, its trace window: Chromium then waits about 6 s
    for its tracing service before it writes the file (corpus/README.md),
    time the builds may have. A browser is seen within POLL_S of its start,
    long before its page runs."""
    try:
        pgid = int(os.environ.get("TC_PAUSE_PGID", ""))
    except ValueError:
        pgid = 0
    if pgid <= 1:
        yield
        return
    done = threading.Event()
    watcher = None
    if startup_windows:
        watcher = threading.Thread(target=_pause_in_windows, args=(pgid, done), daemon=True)
        watcher.start()
    else:
        signal_group(pgid, signal.SIGSTOP)
    try:
        yield
    finally:
        done.set()
        if watcher:
            watcher.join()
        signal_group(pgid, signal.SIGCONT)


POLL_S = 0.1


def _pause_in_windows(pgid, done):
    """Keeps PGID stopped while a startup trace window is open, until DONE."""
    stopped = False
    while not done.is_set():
        now = time.clock_gettime(time.CLOCK_BOOTTIME)
        end = startup_window_end()
        if (end > now) != stopped:
            stopped = not stopped
            signal_group(pgid, signal.SIGSTOP if stopped else signal.SIGCONT)
        done.wait(end - now if stopped else POLL_S)


def startup_window_end():
    """The latest end, in seconds since boot, of the trace windows of this
    process's descendants started with --trace-startup-duration (their start
    plus the duration plus 1 s); 0 when there is none. Only descendants: a
    test beside the recording may run browsers of its own."""
    children = defaultdict(list)
    started = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                fields = stat_fields(int(pid))
                children[int(fields[1])].append(int(pid))
                started[int(pid)] = int(fields[19])
            except (OSError, ValueError, IndexError):
                continue
    end = 0
    tick = os.sysconf("SC_CLK_TCK")
    todo = list(children[os.getpid()])
    while todo:
        pid = todo.pop()
        todo.extend(children[pid])
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        duration = [a for a in args if a.startswith(b"--trace-startup-duration=")]
        if duration and not any(a.startswith(b"--type=") for a in args):
            try:
                seconds = int(duration[0].split(b"=", 1)[1])
            except ValueError:
                continue
            end = max(end, started[pid] / tick + seconds + 1)
    return end


def stat_fields(pid):
    """/proc/PID/stat's fields after the command's name (which may hold
    spaces and parentheses): [0] the state, [1] the parent, [19] the start
    in clock ticks since boot."""
    with open("/proc/%d/stat" % pid, "rb") as f:
        return f.read().rsplit(b")", 1)[1].split()


def signal_group(pgid, sig):
    """SIG to process group PGID, if it is one (> 1) and still there."""
    if pgid > 1:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def have_zstd():
    return shutil.which("zstd") is not None


def read_json_trace(path):
    """Parse a plain, gzip or zstd trace file, recognised by its magic bytes."""
    with open(path, "rb") as f:
        head = f.read(4)
    if head.startswith(ZSTD_MAGIC):
        raw = subprocess.run(["zstd", "-dcq", path], check=True, capture_output=True).stdout
    elif head.startswith(GZIP_MAGIC):
        with gzip.open(path, "rb") as f:
            raw = f.read()
    else:
        with open(path, "rb") as f:
            raw = f.read()
    return json.loads(raw)


def read_manifest(crawl_dir):
    """manifest.tsv rows as dicts (all values strings, as written)."""
    with open(os.path.join(crawl_dir, "manifest.tsv"), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def site_names():
    """Fixture site folders; names starting with '_' hold shared assets."""
    return sorted(n for n in os.listdir(SITES)
                  if os.path.isdir(os.path.join(SITES, n)) and not n.startswith("_"))


def manual_events(path=MANUAL):
    """Every entry's example event in the manual that has a name.

    Each entry ends with a JSON example: a line that is exactly "{" up to the
    next line that is exactly "}". Nested objects are indented, so those two
    lines delimit one event.
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    events = []
    for block in re.findall(r"^\{\n.*?^\}$", text, re.M | re.S):
        event = json.loads(block)
        if isinstance(event.get("name"), str):
            events.append(event)
    return events


def manual_event_names(path=MANUAL):
    """The name of every entry's example event in the manual."""
    return [e["name"] for e in manual_events(path)]


def _data(event):
    args = event.get("args")
    return args if isinstance(args, dict) else {}


class Trace:
    """One trace, with its events split by process and threads named."""

    def __init__(self, parsed):
        self.events = parsed["traceEvents"] if isinstance(parsed, dict) else parsed
        self.metadata = parsed.get("metadata", {}) if isinstance(parsed, dict) else {}
        self.thread_names = {}
        for e in self.events:
            if e.get("ph") == "M" and e.get("name") == "thread_name":
                self.thread_names[(e.get("pid"), e.get("tid"))] = _data(e).get("name", "")

    @classmethod
    def load(cls, path):
        return cls(read_json_trace(path))

    def pids_for_url(self, url):
        """Renderer processes that committed a document at or under `url`."""
        pids = set()
        for e in self.events:
            if e.get("name") in ("CommitLoad", "navigationStart"):
                d = _data(e).get("data", {})
                loaded = d.get("url") or d.get("documentLoaderURL") or ""
                if loaded.startswith(url):
                    pids.add(e.get("pid"))
        return pids

    def thread(self, event):
        return self.thread_names.get((event.get("pid"), event.get("tid")), "")


class SiteView:
    """The events of one site: those in the renderer process(es) that loaded it."""

    def __init__(self, trace, url):
        self.trace = trace
        self.url = url
        self.pids = trace.pids_for_url(url)
        self.by_name = defaultdict(list)
        for e in trace.events:
            if e.get("pid") in self.pids:
                self.by_name[e.get("name")].append(e)

    def named(self, name, thread=None):
        """Events called `name`; `thread`, if given, is a thread-name prefix."""
        found = self.by_name.get(name, [])
        if thread is None:
            return found
        return [e for e in found if self.trace.thread(e).startswith(thread)]

    def slices(self, name, thread=None):
        """(start, end, pid, tid) of every complete slice called `name`, in µs.

        Chrome's JSON export writes finished slices as X events; a B event
        here is a slice still open when tracing stopped, with no end to use.
        """
        return [(e["ts"], e["ts"] + e["dur"], e.get("pid"), e.get("tid"))
                for e in self.named(name, thread) if e.get("ph") == "X" and "dur" in e]


def arg(event, *path):
    """args[path...] or None."""
    node = _data(event)
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def packet_ends(buf):
    """Walk a Perfetto trace: every top-level field is field 1 (TracePacket),
    length-delimited, up to the last byte; yields where each packet ends."""
    pos = 0
    while pos < len(buf):
        if buf[pos] != 0x0A:
            raise AssertionError("byte %d: tag %#x, not field 1 length-delimited" % (pos, buf[pos]))
        pos += 1
        size = shift = 0
        while True:
            b = buf[pos]
            pos += 1
            size |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        pos += size
        if pos > len(buf):
            raise AssertionError("the last packet runs %d bytes past the end" % (pos - len(buf)))
        yield pos


def packets(buf):
    """The packet count of a Perfetto trace (packet_ends)."""
    return sum(1 for _ in packet_ends(buf))
