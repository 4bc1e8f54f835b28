"""What the crawl tests share: running corpus/record in a private temporary
directory, finding the processes it left, and a stand-in browser.

Every recorder run gets TMPDIR=<the test's own folder>: the recorder and
what it starts directly inherit that, and every Chromium process names its
profile, inside that folder, on its command line (Chromium gives its
children an environment of its own). So /proc tells which processes are the
crawl's whatever they are called, and the folder's listing tells whether a
profile or scratch folder was left.
"""
import ctypes
import datetime
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import tracekit  # noqa: E402

PR_SET_CHILD_SUBREAPER = 36
PROGRESS_RE = re.compile(r"^\[(\d+)/(\d+)\] (\S+) (.*) \| done (\d+) of (\d+) \((\d+) failed\), "
                         r"(?:(\d+) traces/h|rate n/a \(.*?\)), ETA (.*)$")


def become_subreaper():
    """Make this process the parent of every orphan of its descendants, so a
    killed recorder's leftovers show up (and are reaped) here."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def reap():
    """Reap every exited child; returns how many there were."""
    n = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return n
        if pid == 0:
            return n
        n += 1


def crawl_processes(tmpdir):
    """PIDs of live processes started for a crawl run with TMPDIR=TMPDIR:
    those with that in their environment or a path inside it in their
    command line."""
    env, path = ("TMPDIR=%s" % tmpdir).encode(), (tmpdir.rstrip("/") + "/").encode()
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                with open("/proc/%s/environ" % name, "rb") as f:
                    environ = f.read().split(b"\0")
                with open("/proc/%s/cmdline" % name, "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            if env in environ or path in cmdline:
                pids.append(int(name))
    return pids


def browsers(tmpdir):
    """PIDs of the crawl's browser processes: the ones the recorder starts,
    with the recipe's --headless=new, not Chromium's children (--type=...)."""
    found = []
    for pid in crawl_processes(tmpdir):
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if b"--headless=new" in args and not any(a.startswith(b"--type=") for a in args):
            found.append(pid)
    return found


def kill_recorder(proc, tmpdir):
    """SIGKILL the recorder PROC mid-crawl; wait until the browsers it had
    running died of their parent-death signal, and reap what this process
    (a subreaper) adopted. Returns the recorder's stderr."""
    running = browsers(tmpdir)
    proc.kill()
    err = proc.communicate()[1]
    wait_gone(running)
    # A browser being started at the kill was not yet among RUNNING; it dies
    # of its parent-death signal a moment later, and is reaped here with the
    # rest (CI once saw five such processes turn into zombies of the next run).
    # What is still alive after that is in adopted().
    try:
        wait_gone(crawl_processes(tmpdir), seconds=5)
    except AssertionError:
        pass
    reap()
    return err


def wait_gone(pids, seconds=10):
    """Wait until none of PIDS is alive (or a zombie of someone else's)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            try:
                with open("/proc/%d/stat" % pid) as f:
                    if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                        alive.append(pid)
            except OSError:
                pass
        if not alive:
            return
        pids = alive
        time.sleep(0.05)
    raise AssertionError("processes %s still alive after %d s" % (pids, seconds))


def children(zombies_only=False):
    """PIDs of this process's children (only those that exited and were not
    reaped, with ZOMBIES_ONLY)."""
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and (fields[0] == "Z" or not zombies_only):
                found.append(int(name))
    return found


def zombie_children():
    return children(zombies_only=True)


def adopted(tmpdir):
    """What a killed crawl left this process to reap: its children now, and
    every crawl process still alive (which may become its child later)."""
    return set(children()) | set(crawl_processes(tmpdir))


def recorder(args, tmpdir, **popen):
    """Start corpus/record with ARGS, TMPDIR=TMPDIR; returns the Popen."""
    env = dict(os.environ, TMPDIR=tmpdir, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.Popen([tracekit.RECORD, *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)


def run_recorder(args, tmpdir, timeout=600, **popen):
    """Run corpus/record to its end; returns (returncode, stderr lines, seconds)."""
    started = time.monotonic()
    proc = recorder(args, tmpdir, **popen)
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err.splitlines(), time.monotonic() - started


def wait_for_rows(out, count, proc, timeout):
    """Wait until OUT's manifest has COUNT rows (or PROC ended, or TIMEOUT)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if len(tracekit.read_manifest(out)) >= count:
                return True
        except (OSError, KeyError):
            pass
        time.sleep(0.1)
    return False


def utc(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def check_progress(case, lines, total, rows, wall_s):
    """The progress lines of one run against the manifest it left and its wall time.

    Each line counts one more trace; the last one's counts are the
    manifest's; a rate of R traces/h after k traces of this run means about
    k / R hours since the run started, which cannot exceed the run's wall time.
    """
    progress = [PROGRESS_RE.match(l) for l in lines]
    progress = [m for m in progress if m]
    case.assertTrue(progress, "no progress line in:\n" + "\n".join(lines))
    first_done = int(progress[0].group(5)) - 1
    for k, m in enumerate(progress, 1):
        done, of, failed = int(m.group(5)), int(m.group(6)), int(m.group(7))
        case.assertEqual((done, of), (first_done + k, total), m.group(0))
        case.assertEqual(int(m.group(1)), done)
        case.assertIsNotNone(m.group(8), "a trace finished, so there is a rate: " + m.group(0))
        rate = float(m.group(8))
        case.assertLessEqual(k / rate * 3600, wall_s + 1, m.group(0))
        left = total - done
        if left:
            # The ETA is the traces left at the rate; the rate is printed
            # rounded to a whole trace per hour, the ETA to a minute.
            want = left / rate * 60
            case.assertLessEqual(abs(eta_minutes(m.group(9)) - want),
                                 0.5 + want * 0.5 / rate + 1e-9, m.group(0))
        else:
            case.assertEqual(m.group(9), "none, all done")
    case.assertEqual(int(progress[-1].group(5)), len(rows))
    case.assertEqual(int(progress[-1].group(7)), sum(r["status"] == "failed" for r in rows))
    return progress


SUMMARY_RE = re.compile(r"^corpus/record: (\d+) of (\d+) trace\(s\) done \((\d+) failed\), "
                        r"(\d+) of them in this run, (\d+) s -> ")


def check_summary(case, lines, total, rows, wall_s):
    """The run's last line against the manifest, its progress lines and its wall time."""
    m = SUMMARY_RE.match(lines[-1])
    case.assertTrue(m, lines[-1])
    failed = sum(r["status"] == "failed" for r in rows)
    this_run = sum(1 for l in lines if PROGRESS_RE.match(l))
    case.assertEqual([int(g) for g in m.groups()[:4]], [len(rows), total, failed, this_run])
    case.assertLessEqual(int(m.group(5)), wall_s + 0.5)


def eta_minutes(text):
    """Minutes of an ETA as the progress line writes it ('7 min', '2 h 05 min')."""
    if text == "under 1 min":
        return 0.0
    m = re.fullmatch(r"(?:(\d+) h )?(\d+) min", text)
    if not m:
        raise AssertionError("not an ETA: %r" % text)
    return int(m.group(1) or 0) * 60 + int(m.group(2))


# Stands in for Chromium: what it does depends on the URL's host name (the
# part before the first '.'), as a page's behaviour would. Like headless
# Chromium it does not exit once the trace is written, and it starts a
# "renderer" that stays in its process group with --user-data-dir on its
# command line and an environment of its own.
FAKE_CHROMIUM = r'''#!/usr/bin/env python3
import json, os, subprocess, sys, time
if sys.argv[1:] == ["--version"]:
    print("Chromium 999.0.0.1 stand-in"); sys.exit(0)
args = dict(a.split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
url = sys.argv[-1]
kind = url.split("//")[1].split(".")[0].split("-")[-1]
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "--type=renderer",
                  "--user-data-dir=" + args["--user-data-dir"]], env={})
if kind == "crashbrowser":
    sys.exit(3)
time.sleep(float(os.environ.get("FAKE_DELAY", "0.2")))
def ev(name, **data):
    return {"name": name, "ph": "I", "ts": 1, "pid": 1, "tid": 1, "args": {"data": data}}
events = [ev("Other")]
if kind != "hang":
    status = 404 if kind == "notfound" else 200
    events += [ev("ResourceSendRequest", url=url, resourceType="Document", requestId="R"),
               ev("ResourceReceiveResponse", requestId="R", statusCode=status),
               ev("ResourceFinish", requestId="R", didFail=False)]
with open(args["--trace-startup-file"], "w") as f:
    json.dump({"traceEvents": events, "metadata": {"url": url}}, f)
time.sleep(600)
'''


def fake_chromium(folder):
    path = os.path.join(folder, "fake-chromium")
    with open(path, "w") as f:
        f.write(FAKE_CHROMIUM)
    os.chmod(path, 0o755)
    return path
