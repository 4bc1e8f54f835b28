"""The Slurm mechanics the sharded census relies on, on the test cluster.

A check of the harness and of Slurm itself, not of tracecensus: trivial
jobs stand in for the shards and the merge. It pins what jobs/slurm depends
on: an array task sees its index and the array's size, an afterok job starts
only after every task succeeded, and a failed task leaves it pending with
reason DependencyNeverSatisfied, the failure visible without accounting."""
import os
import time
import unittest

from slurmkit import ClusterTestCase, read, scratch


class ArrayThenAfterok(ClusterTestCase):
    def submit_array(self, work, task_cmd):
        """A 4-task array whose tasks record their index and count, then run
        TASK_CMD; stdout and stderr per task in WORK."""
        record = f'echo "$SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT" >{work}/task-$SLURM_ARRAY_TASK_ID.txt'
        return self.cluster.sbatch("--array=0-3", f"--output={work}/task-%a.out",
                              f"--error={work}/task-%a.err", f"--chdir={work}",
                              "--wrap", f"{record}; {task_cmd}")

    def submit_check(self, work, array_id):
        """The dependent job: checks that all 4 task records exist."""
        check = (f'for i in 0 1 2 3; do test -s {work}/task-$i.txt || {{ echo "no task $i"; exit 1; }};'
                 ' done; echo "all 4 present"')
        return self.cluster.sbatch(f"--dependency=afterok:{array_id}", f"--output={work}/check.out",
                              f"--chdir={work}", "--wrap", check)

    def test_every_task_sees_its_index_and_count_then_the_dependent_runs(self):
        work = scratch(self)
        t0 = time.monotonic()
        array_id = self.submit_array(work, "true")
        check_id = self.submit_check(work, array_id)
        first = self.cluster.wait_until(lambda: os.path.exists(f"{work}/task-0.txt")
                                   and time.monotonic() - t0, "task 0 started")
        done = self.cluster.wait_until(
            lambda: (self.cluster.job(check_id) or {}).get("JobState") in ("COMPLETED", "FAILED")
            and time.monotonic() - t0, "the dependent job finished")
        print(f"first task ran {first:.1f} s after submission, the dependent job ended "
              f"{done:.1f} s after", flush=True)

        for i in range(4):
            self.assertEqual(read(f"{work}/task-{i}.txt"), f"{i} 4\n")
            task = self.cluster.job(f"{array_id}_{i}")
            self.assertEqual((task["JobState"], task["ExitCode"]), ("COMPLETED", "0:0"))
        check = self.cluster.job(check_id)
        self.assertEqual((check["JobState"], check["ExitCode"]), ("COMPLETED", "0:0"))
        self.assertEqual(read(f"{work}/check.out"), "all 4 present\n")
        # afterok: the check started no earlier than the last task ended
        # (scontrol's times are ISO 8601 to the second, so they sort as text).
        last_end = max(self.cluster.job(f"{array_id}_{i}")["EndTime"] for i in range(4))
        self.assertGreaterEqual(check["StartTime"], last_end)

    def test_a_failed_task_leaves_the_dependent_pending_for_ever(self):
        work = scratch(self)
        array_id = self.submit_array(
            work, 'if [ "$SLURM_ARRAY_TASK_ID" = 2 ]; then echo "task 2 fails on purpose" >&2; exit 1; fi')
        check_id = self.submit_check(work, array_id)
        self.addCleanup(self.cluster.run, "scancel", check_id)
        self.cluster.wait_until(lambda: self.cluster.squeue(check_id, "%r") == "DependencyNeverSatisfied",
                           "the dependent job DependencyNeverSatisfied")

        # The failure as a user sees it with no accounting: the task's record
        # while slurmctld keeps it, the dependency marked failed, its stderr.
        failed = self.cluster.job(f"{array_id}_2")
        self.assertEqual((failed["JobState"], failed["Reason"], failed["ExitCode"]),
                         ("FAILED", "NonZeroExitCode", "1:0"))
        self.assertEqual(read(f"{work}/task-2.err"), "task 2 fails on purpose\n")
        for i in (0, 1, 3):
            self.assertEqual(self.cluster.job(f"{array_id}_{i}")["JobState"], "COMPLETED")
            self.assertEqual(read(f"{work}/task-{i}.txt"), f"{i} 4\n")
        self.assertEqual(self.cluster.job(check_id)["Dependency"], f"afterok:{array_id}_*(failed)")

        # Still pending after more scheduling passes, and it never ran.
        time.sleep(3)
        self.assertEqual(self.cluster.squeue(check_id, "%T %r"), "PENDING DependencyNeverSatisfied")
        self.assertFalse(os.path.exists(f"{work}/check.out"))


if __name__ == "__main__":
    unittest.main()
