"""jobs/slurm (submit, shard.sbatch, merge.sbatch, status) on the test cluster,
running the real tracecensus: a 4-shard array and its merge over the bundled
corpus must write census.json and metrics.csv byte for byte as one run over
the whole corpus does, and a shard that fails must leave the merge pending
(DependencyNeverSatisfied) with the failure shown by jobs/slurm/status."""
import os
import re
import subprocess
import time
import unittest

from slurmkit import ROOT, ClusterTestCase, read, scratch

TRACECENSUS = os.environ.get("TRACECENSUS", os.path.join(ROOT, "build", "tracecensus"))
SUBMIT = os.path.join(ROOT, "jobs", "slurm", "submit")
STATUS = os.path.join(ROOT, "jobs", "slurm", "status")
CRAWL = os.path.join(ROOT, "corpus", "crawl")
COMPARED = ("census.json", "metrics.csv")


class SubmitWrapper(ClusterTestCase):
    def setUp(self):
        # A job file as a user writes one, for the bundled crawl: comments,
        # blanks, a relative output folder with a space in its name.
        self.cwd = scratch(self)
        self.jobfile = os.path.join(self.cwd, "nightly.job")
        with open(self.jobfile, "w", encoding="utf-8") as f:
            f.write(f"# a crawl\ncorpus = {CRAWL}\nmanifest = {CRAWL}/manifest.tsv\n"
                    "  output =  merged out   # the tables\n")
        self.work = os.path.join(self.cwd, "slurm", "nightly")  # submit's default
        self.out = os.path.join(self.cwd, "merged out")

    def submit(self, shards, env=None, *extra):
        env = dict(self.cluster.env, TRACECENSUS=TRACECENSUS, **(env or {}))
        p = self.cluster.run(SUBMIT, self.jobfile, str(shards), *extra, env=env, cwd=self.cwd)
        m = re.fullmatch(r"array=(\d+) merge=(\d+)\n", p.stdout)
        self.assertIsNotNone(m, p.stdout)
        return m.groups()

    def status(self):
        return self.cluster.run(STATUS, self.work, check=False)

    def wait_status(self):
        """Polls jobs/slurm/status until it stops saying "in progress" (3)."""
        def finished():
            p = self.status()
            return p if p.returncode != 3 else None
        return self.cluster.wait_until(finished, "finished by jobs/slurm/status")

    def test_one_shard_per_task_then_the_merge_over_all_of_them(self):
        t0 = time.monotonic()
        array_id, merge_id = self.submit(4)
        p = self.wait_status()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        print(f"4 shards and the merge done {time.monotonic() - t0:.1f} s after submit",
              flush=True)

        states = [os.path.join(self.work, "state", f"shard-{i}") for i in range(4)]
        for i, state in enumerate(states):
            self.assertTrue(os.path.exists(os.path.join(state, "shard.tcr")), state)
            self.assertEqual(read(os.path.join(self.work, "logs", f"shard-{i}.exit")), "0\n")
            self.assertIn(f"shard {i}/4: ", read(os.path.join(self.work, "logs", f"shard-{i}.err")))
        self.assertEqual(read(os.path.join(self.work, "logs", "merge.exit")), "0\n")
        self.assertEqual(self.cluster.job(merge_id)["Dependency"], "(null)")
        # The one-machine run of the same job, into another folder.
        one = os.path.join(self.cwd, "one machine")
        job = os.path.join(self.cwd, "one.job")
        with open(job, "w", encoding="utf-8") as f:
            f.write(f"corpus = {CRAWL}\nmanifest = {CRAWL}/manifest.tsv\noutput = {one}\n")
        r = subprocess.run([TRACECENSUS, "run", "-q", "-T", "2", job], capture_output=True,
                           text=True, timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        for name in COMPARED:
            with open(os.path.join(one, name), "rb") as a, \
                    open(os.path.join(self.out, name), "rb") as b:
                self.assertTrue(a.read() == b.read(), f"{name}: the merge differs from one run")

        lines = p.stdout.splitlines()
        for i in range(4):
            self.assertRegex(lines[i], rf"^shard {i} +job {array_id}_{i} +COMPLETED +exit 0:0$")
        self.assertRegex(lines[4], rf"^merge +job {merge_id} +COMPLETED +exit 0:0$")
        # The job's relative output is its own folder's, named in full.
        self.assertEqual(lines[5], f"done: the merged outputs are in {self.out}")
        self.assertEqual(read(os.path.join(self.work, "jobs")),
                         f"array {array_id}\nmerge {merge_id}\nshards 4\nout {self.out}\n")

    def test_a_failed_shard_is_shown_and_the_merge_never_starts(self):
        # Shard 1's state folder cannot be made: a file is in its place.
        os.makedirs(os.path.join(self.work, "state"))
        with open(os.path.join(self.work, "state", "shard-1"), "w", encoding="utf-8") as f:
            f.write("not a folder\n")
        array_id, merge_id = self.submit(4)
        self.addCleanup(self.cluster.run, "scancel", merge_id)
        self.cluster.wait_until(lambda: self.cluster.squeue(array_id, "%i") == ""
                           and self.cluster.squeue(merge_id, "%r") == "DependencyNeverSatisfied",
                           "every shard ended and the merge DependencyNeverSatisfied")
        p = self.status()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)

        lines = p.stdout.splitlines()
        self.assertRegex(lines[0], rf"^shard 0 +job {array_id}_0 +COMPLETED +exit 0:0$")
        self.assertRegex(lines[1], rf"^shard 1 +job {array_id}_1 +FAILED +exit 2:0 +"
                                   r"\(NonZeroExitCode\)$")
        self.assertEqual(lines[2], f"          tracecensus said, in {self.work}/logs/shard-1.err:")
        self.assertRegex(lines[3], r"^          \| tracecensus: .*/state/shard-1: cannot "
                                   r"write output: Not a directory; nothing written$")
        self.assertRegex(lines[4], rf"^shard 2 +job {array_id}_2 +COMPLETED")
        self.assertRegex(lines[5], rf"^shard 3 +job {array_id}_3 +COMPLETED")
        self.assertRegex(lines[6], rf"^merge +job {merge_id} +PENDING +exit 0:0 +"
                                   r"\(DependencyNeverSatisfied\)$")
        self.assertIn(f"scancel {merge_id}", p.stdout)
        self.assertEqual(read(os.path.join(self.work, "logs", "shard-1.exit")), "2\n")
        self.assertIn("shard 1/4: tracecensus exited 2",
                      read(os.path.join(self.work, "logs", "shard-1.out")))
        self.assertFalse(os.path.exists(self.out))

    def test_status_after_slurmctld_forgot_the_jobs_reads_their_exit_records(self):
        # What status sees MinJobAge after the end: job ids scontrol no longer
        # knows, and the exit status the job scripts left.
        os.makedirs(os.path.join(self.work, "logs"))
        with open(os.path.join(self.work, "jobs"), "w", encoding="utf-8") as f:
            f.write("array 990000\nmerge 990001\nshards 3\nout merged out\n")
        for name, text in (("shard-0.exit", "0\n"), ("shard-1.exit", "1\n"),
                           ("shard-2.exit", "2\n"),
                           ("shard-2.err", "tracecensus: crawl: no such corpus\n\nusage: ...\n")):
            with open(os.path.join(self.work, "logs", name), "w", encoding="utf-8") as f:
                f.write(text)
        p = self.status()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        lines = p.stdout.splitlines()
        self.assertRegex(lines[0], r"^shard 0 +job 990000_0 +COMPLETED +tracecensus exit 0 "
                                   r"\(slurmctld has forgotten the job\)$")
        # 1 = some inputs had errors: the shard counts as done, as in one run.
        self.assertRegex(lines[1], r"^shard 1 +job 990000_1 +COMPLETED +tracecensus exit 1 ")
        self.assertRegex(lines[2], r"^shard 2 +job 990000_2 +FAILED +tracecensus exit 2 ")
        # tracecensus's message, not the usage text after it.
        self.assertEqual(lines[3:5], [
            f"          tracecensus said, in {self.work}/logs/shard-2.err:",
            "          | tracecensus: crawl: no such corpus"])
        self.assertRegex(lines[5], r"^merge +job 990001 +unknown to slurmctld and no .*merge\.exit")

    def test_status_without_a_controller_is_an_error_not_a_lost_job(self):
        os.makedirs(self.work)
        with open(os.path.join(self.work, "jobs"), "w", encoding="utf-8") as f:
            f.write("array 1\nmerge 2\nshards 1\nout o\n")
        # A cluster whose controller is not there (nothing listens on port 1);
        # scontrol retries a refused connection for about MessageTimeout.
        dead = os.path.join(self.cwd, "dead.conf")
        with open(dead, "w", encoding="utf-8") as f:
            f.write("ClusterName=dead\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=1\n"
                    "MessageTimeout=1\n")
        p = self.cluster.run(STATUS, self.work, check=False, env=dict(self.cluster.env, SLURM_CONF=dead))
        self.assertEqual(p.returncode, 2)
        self.assertIn("status: scontrol show job 1_0: slurm_load_jobs error: "
                      "Unable to contact slurm controller", p.stderr)

    def test_submit_refuses_bad_arguments_before_submitting_anything(self):
        before = self.cluster.run("squeue", "-h", "-o", "%i").stdout
        env = dict(self.cluster.env, TRACECENSUS=TRACECENSUS)
        for args, env_extra, message in (
                ([self.jobfile, "0"], {}, "SHARDS must be a positive integer, not '0'"),
                ([self.jobfile], {}, "usage: jobs/slurm/submit JOBFILE SHARDS"),
                ([os.path.join(self.cwd, "none.job"), "2"], {}, "cannot read job file"),
                ([self.jobfile, "2"], {"TRACECENSUS": os.path.join(self.cwd, "nothing")},
                 "no tracecensus binary at")):
            p = self.cluster.run(SUBMIT, *args, check=False, env=dict(env, **env_extra), cwd=self.cwd)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(message, p.stderr)
        self.assertEqual(self.cluster.run("squeue", "-h", "-o", "%i").stdout, before)


if __name__ == "__main__":
    unittest.main()
