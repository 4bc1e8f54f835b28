"""A test cluster from cluster.sh and what the Slurm tests ask of it."""
import atexit
import os
import re
import signal
import subprocess
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLUSTER_SH = os.path.join(HERE, "cluster.sh")
# Bounds for every wait on the scheduler: a few seconds are normal here.
WAIT_S = 60


def _stop_on_sigterm():
    """meson ends a test that runs too long with SIGTERM: unwind through
    atexit so the daemons are stopped rather than left behind."""
    def raise_interrupt(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, raise_interrupt)


def processes_mentioning(text):
    """Pids of live processes whose command line or environment holds TEXT."""
    found = []
    needle = text.encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as f:
                    if needle in f.read():
                        found.append(int(pid))
                        break
            except OSError:
                pass
    return found


class Cluster:
    """One single-node cluster in its own folder, up until down()."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="tc-slurm-test.")
        self.env = dict(os.environ, SLURM_CONF=os.path.join(self.dir, "slurm.conf"))
        self.up_seconds = None

    def up(self):
        _stop_on_sigterm()
        atexit.register(self.down)
        t0 = time.monotonic()
        p = subprocess.run(["bash", CLUSTER_SH, "up", self.dir], capture_output=True,
                           text=True, timeout=600)
        self.up_seconds = time.monotonic() - t0
        if p.returncode != 0:
            raise RuntimeError(f"cluster.sh up failed ({p.returncode}):\n{p.stderr}")
        self.up_log = p.stderr.strip()
        print(self.up_log, flush=True)
        return self

    def down(self):
        subprocess.run(["bash", CLUSTER_SH, "down", self.dir], check=True, timeout=120)

    def run(self, *cmd, check=True, **kw):
        """Runs a command against this cluster; text output captured."""
        p = subprocess.run(list(cmd), env=kw.pop("env", self.env), capture_output=True,
                           text=True, timeout=120, **kw)
        if check and p.returncode != 0:
            raise AssertionError(f"{cmd} exited {p.returncode}:\n{p.stdout}{p.stderr}")
        return p

    def sbatch(self, *args):
        """Submits; returns the job id (--parsable prints "id" or "id;cluster")."""
        return self.run("sbatch", "--parsable", *args).stdout.strip().split(";")[0]

    def job(self, job_id):
        """scontrol's record of a job as a dict, or None once it is forgotten."""
        p = self.run("scontrol", "-o", "show", "job", job_id, check=False)
        if p.returncode != 0:
            if "Invalid job id" in p.stderr:
                return None
            raise AssertionError(f"scontrol show job {job_id}: {p.stderr}")
        return dict(re.findall(r"(?:^|\s)(\w+)=(\S*)", p.stdout.splitlines()[0]))

    def squeue(self, job_id, fmt):
        return self.run("squeue", "-h", "-j", job_id, "-o", fmt).stdout.strip()

    def wait_until(self, predicate, what, timeout=WAIT_S):
        """Polls predicate() until it is true; on timeout fails with the queue."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.2)
        queue = self.run("squeue", "-o", "%i %T %r", check=False).stdout
        jobs = self.run("scontrol", "show", "job", check=False).stdout
        raise AssertionError(f"not {what} after {timeout} s\nsqueue:\n{queue}\n{jobs}")


def scratch(test):
    """A temporary folder for one test, readable by the jobs, removed after."""
    d = tempfile.mkdtemp(prefix="tc-slurm-work.")
    os.chmod(d, 0o755)
    test.addCleanup(subprocess.run, ["rm", "-rf", d])
    return d


class ClusterTestCase(unittest.TestCase):
    """Tests sharing one cluster, self.cluster, up for the whole class."""

    @classmethod
    def setUpClass(cls):
        cls.cluster = Cluster().up()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.down()


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()
