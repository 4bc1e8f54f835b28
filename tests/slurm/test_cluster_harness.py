"""cluster.sh itself: up, down and run, twice in a row, leave nothing behind;
a start-up that fails says why, with the daemons' logs, and stops them."""
import os
import re
import subprocess
import tempfile
import time
import unittest

from slurmkit import CLUSTER_SH, processes_mentioning


def cluster_sh(*args, env=None):
    return subprocess.run(["bash", CLUSTER_SH, *args], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, **(env or {})))


class Harness(unittest.TestCase):
    def assertGone(self, d):
        self.assertEqual(processes_mentioning(d + "/"), [], f"processes of {d} left behind")
        self.assertFalse(os.path.exists(d))

    def test_up_then_down_twice_in_a_row(self):
        for _ in range(2):
            d = tempfile.mkdtemp(prefix="tc-slurm-harness.")
            self.addCleanup(cluster_sh, "down", d)
            p = cluster_sh("up", d)
            self.assertEqual(p.returncode, 0, p.stderr)
            conf = os.path.join(d, "slurm.conf")
            self.assertEqual(p.stdout, f"SLURM_CONF={conf}\n")
            pids = [int(open(os.path.join(d, "pids", n)).read()) for n in
                    ("munged", "slurmctld", "slurmd")]
            sinfo = subprocess.run(["sinfo", "-h", "-o", "%t %c %m"], capture_output=True,
                                   text=True, env=dict(os.environ, SLURM_CONF=conf), check=True)
            # One node, idle, with this machine's CPUs and memory (as slurmd -C
            # reads them; memory in MiB).
            state, cpus, mem = sinfo.stdout.split()
            self.assertEqual((state, int(cpus)), ("idle", os.cpu_count()))
            total_mib = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
            self.assertLessEqual(abs(int(mem) - total_mib), 1)
            # A second `up` on a live cluster's folder refuses and leaves it be.
            again = cluster_sh("up", d)
            self.assertEqual(again.returncode, 1)
            self.assertIn("already holds a cluster", again.stderr)
            self.assertEqual(sorted(processes_mentioning(d + "/munge/")), [pids[0]])

            # A job still running at the end goes too (its slurmstepd would
            # outlive slurmd).
            env = dict(os.environ, SLURM_CONF=conf)
            job = subprocess.run(["sbatch", "--parsable", "--output=/dev/null", "--wrap",
                                  "sleep 300"], capture_output=True, text=True, env=env,
                                 check=True).stdout.strip()
            for _ in range(300):
                if subprocess.run(["squeue", "-h", "-j", job, "-o", "%T"], capture_output=True,
                                  text=True, env=env).stdout.strip() == "RUNNING":
                    break
                time.sleep(0.1)
            else:
                self.fail("the sleep job never ran")

            p = cluster_sh("down", d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertGone(d)

    def test_run_wraps_a_command_and_passes_its_status_twice_in_a_row(self):
        for _ in range(2):
            p = cluster_sh("run", "--", "bash", "-c", 'sinfo -h -o %t; echo "$SLURM_CONF"; exit 7')
            self.assertEqual(p.returncode, 7, p.stderr)
            state, conf = p.stdout.split()
            self.assertEqual(state, "idle")
            d = os.path.dirname(conf)
            self.assertIn(f"({d})", p.stderr)
            # A failed command gets the daemons' logs printed after it.
            self.assertIn("cluster: command exited 7; the daemons' logs follow", p.stderr)
            self.assertIn(f"----- {d}/slurmctld.log", p.stderr)
            self.assertGone(d)

    def test_a_start_up_that_times_out_shows_the_logs_and_stops_the_daemons(self):
        d = tempfile.mkdtemp(prefix="tc-slurm-harness.")
        self.addCleanup(cluster_sh, "down", d)
        p = cluster_sh("up", d, env={"TC_SLURM_IDLE_WAIT_S": "0"})
        self.assertEqual(p.returncode, 1)
        node = subprocess.run(["hostname", "-s"], capture_output=True, text=True).stdout.strip()
        self.assertRegex(p.stderr, rf"cluster: node {re.escape(node)} not idle after 0 s "
                                   r"\(sinfo says '[^']*'; logs above\)")
        self.assertIn(f"----- {d}/munged.console", p.stderr)
        self.assertGone(d)


if __name__ == "__main__":
    unittest.main()
