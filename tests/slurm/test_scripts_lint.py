"""The Slurm scripts are shellcheck-clean (they run on clusters we never see,
under whatever bash those have)."""
import os
import shutil
import subprocess
import unittest

from slurmkit import HERE, ROOT

SCRIPTS = [os.path.join(ROOT, "jobs", "slurm", n) for n in
           ("submit", "status", "shard.sbatch", "merge.sbatch")] + \
          [os.path.join(HERE, "cluster.sh")]


class Lint(unittest.TestCase):
    def test_shellcheck_finds_nothing(self):
        if shutil.which("shellcheck") is None:
            if os.environ.get("TC_REQUIRE_ORACLES") == "1":
                self.fail("shellcheck is not installed (scripts/deps.sh --test installs it)")
            self.skipTest("shellcheck is not installed")
        p = subprocess.run(["shellcheck", "--shell=bash", *SCRIPTS], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
