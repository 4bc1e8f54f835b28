"""Start headless Chromium for one attempt, and end it with all it started.

Every attempt gets a scratch folder of its own (profile, raw trace, log).
Chromium starts in a new session, so its zygotes, GPU process and renderers
share its process group, and `setpriv --pdeathsig KILL` makes the kernel
kill it when the thread that started it dies, so a recorder killed with
SIGKILL does not leave a browser tracing on. Every Chromium process carries
--user-data-dir=<scratch>/profile on its command line (Chromium passes it to
each child; it gives them an environment of its own, so an environment
variable would not reach them), and the CDP client its trace path: a process
whose command line names a path inside the scratch folder is the attempt's.
Ending an attempt kills the process group, then any process still naming
the scratch folder, before the folder goes.

The recorder makes itself its descendants' subreaper: a browser's children
that outlive it are handed to the recorder, not to init, and the recorder
reaps them, so a crawl leaves no zombies whatever init does.
"""
import ctypes
import os
import shutil
import signal
import subprocess
import tempfile
import time

# The recipe from issue 3. The background-networking flags keep Chromium
# from dialling out, which these machines refuse many connections at a time.
RECIPE_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]
STOP_GRACE_S = 5.0
PR_SET_CHILD_SUBREAPER = 36
# An attempt's reason when the crawl is stopping: no verdict, the trace is recorded again later.
STOPPED = "stopped"


def chrome_version(chromium):
    """`chromium --version` as one line, e.g. "Chromium 156.0.8078.108 built on ..."."""
    out = subprocess.run([chromium, "--version"], capture_output=True, text=True,
                         timeout=60).stdout
    return " ".join(out.split())


def new_scratch(root):
    """A fresh scratch folder for one attempt under ROOT, with an empty profile folder."""
    scratch = tempfile.mkdtemp(prefix="attempt-", dir=root)
    os.mkdir(os.path.join(scratch, "profile"))
    return scratch


def remove_scratch(scratch):
    """Remove SCRATCH, and the folder Chromium keeps its profile's singleton
    socket in: $TMPDIR/org.chromium.Chromium.XXXXXX, which it removes only
    when it exits cleanly. The profile's SingletonSocket link names it (a
    socket path must stay short, so it cannot be moved into SCRATCH)."""
    try:
        target = os.readlink(os.path.join(scratch, "profile", "SingletonSocket"))
    except OSError:
        target = ""
    folder = os.path.dirname(target)
    if os.path.basename(folder).startswith("org.chromium.Chromium."):
        shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(scratch, ignore_errors=True)


def _pdeathsig_prefix():
    return ["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []


def launch(cmd, scratch, log_name):
    """Start CMD (which names a path in SCRATCH) in a new session, its output
    into SCRATCH/LOG_NAME."""
    with open(os.path.join(scratch, log_name), "wb") as log:
        return subprocess.Popen(_pdeathsig_prefix() + list(cmd), stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def marked_pids(folder):
    """Processes whose command line names a path inside FOLDER (zombies have none)."""
    want = (folder.rstrip("/") + "/").encode()
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if want in cmdline:
            pids.append(int(name))
    return pids


def kill_marked(folder, seconds=STOP_GRACE_S):
    """SIGKILL every process naming FOLDER and wait until none is left.

    Returns how many there were; raises RuntimeError if some outlive SECONDS.
    """
    pids = marked_pids(folder)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + seconds
    while marked_pids(folder):
        if time.monotonic() > deadline:
            raise RuntimeError("processes %s of %s survive SIGKILL" % (
                marked_pids(folder), folder))
        time.sleep(0.05)
    return len(pids)


def become_subreaper():
    """Adopt the orphans of every process this one starts (Linux prctl)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def reap_orphans():
    """Reap the adopted children that exited: zombies whose session is neither
    ours nor their own. What the recorder starts itself leads a session of
    its own or stays in ours, and its Popen reaps it, keeping its status."""
    me, my_session = os.getpid(), os.getsid(0)
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, ppid, session = fields[0], int(fields[1]), int(fields[3])
        if state == "Z" and ppid == me and session not in (int(name), my_session):
            try:
                os.waitpid(int(name), os.WNOHANG)
            except ChildProcessError:
                pass


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _gone(proc, pgid, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        reap_orphans()  # an adopted zombie still counts in its group until reaped
        if proc.poll() is not None and not _group_alive(pgid):
            return True
        time.sleep(0.1)
    return False


def stop(proc):
    """End PROC's process group at once: the browser, its zygotes and children.

    SIGKILL, with no SIGTERM first: the trace has been read, the profile is
    thrown away, and Chromium's orderly shutdown (up to 2 s on a loaded
    machine) would keep nothing worth keeping; it does not even remove its
    singleton folder (remove_scratch does)."""
    pgid = proc.pid  # start_new_session made it its group's leader
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _gone(proc, pgid, STOP_GRACE_S)
    proc.wait()


def finish(procs, scratch):
    """End PROCS' groups and whatever else SCRATCH marks, then remove SCRATCH."""
    for proc in procs:
        stop(proc)
    kill_marked(scratch)
    reap_orphans()
    remove_scratch(scratch)


def log_tail(scratch, log_name, limit=160):
    """The last non-empty line of SCRATCH/LOG_NAME, cut to LIMIT characters."""
    try:
        with open(os.path.join(scratch, log_name), errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
    except OSError:
        return "no log"
    return lines[-1][-limit:] if lines else "no output"


def command(chromium, scratch, extra_flags, tail):
    """Chromium's command line: the recipe, the user's flags, this attempt's profile, TAIL."""
    return [chromium, *RECIPE_FLAGS, *extra_flags,
            "--user-data-dir=" + os.path.join(scratch, "profile"), *tail]
