"""Environment faults while a run writes its outputs: whatever happens,
OUTDIR holds one complete set (the previous one, byte for byte, or the new
one), nothing is left beside it, and the exit status and message say which.

Faults are placed at exact calls by an LD_PRELOAD shim (faultshim.c): the
run stops itself at the Nth write, fsync, rename, ... and the test then
looks at OUTDIR as a reader would and sends a signal; or the call fails
with ENOSPC, EIO, EINVAL; or the run is SIGKILLed there, as in a crash.
Real faults where the machine allows them: a tmpfs that fills up, a
read-only remount, a mount point, `ulimit -f`, two runs at once."""
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from e2e_common import BINARY, ROOT, THIRD_PARTY

SHIM = os.environ.get('TC_FAULTSHIM') or os.path.join(ROOT, 'build', 'tests', 'e2e', 'faultshim.so')
PRODUCTS = ('census.json', 'census.csv', 'census.md', 'census_args.csv', 'run.json',
            'metrics.csv', 'metrics.json', 'metrics.md', 'report.html')
TIMING = ('seconds', 'peak_rss_kib', 'json_mb_per_s')
# Three small corpora with different results: the previous set, the new
# one, and a third for the races.
OLD = [os.path.join(THIRD_PARTY, 'traces__lcp-m78.json')]
NEW = [os.path.join(THIRD_PARTY, f) for f in
       ('traces__amp-m86.trace.json', 'traces__timespan-trace-m91.json', 'traces__no_fmp_event.json')]
ALT = [os.path.join(THIRD_PARTY, 'traces__airhorner_no_fcp.json')]
WAIT = 300  # seconds a sanitizer build may take to reach a point


def snapshot(d):
    """Every file under D with its bytes, every folder as None."""
    out = {}
    for base, dirs, files in os.walk(d):
        rel = os.path.relpath(base, d)
        for n in dirs:
            out[os.path.normpath(os.path.join(rel, n)) + '/'] = None
        for n in files:
            with open(os.path.join(base, n), 'rb') as f:
                out[os.path.normpath(os.path.join(rel, n))] = f.read()
    return out


def comparable(snap):
    """A set's contents less run.json's timing, which differs run to run."""
    out = dict(snap)
    if out.get('run.json') is not None:
        r = json.loads(out['run.json'])
        for k in TIMING:
            r.pop(k, None)
        out['run.json'] = r
    return out


def census(inputs, outdir, extra=(), **kw):
    return subprocess.run([BINARY, 'census', '-T', '2', *extra, '-o', outdir, '--', *inputs],
                          capture_output=True, text=True, timeout=WAIT, **kw)


def can_mount():
    d = tempfile.mkdtemp(prefix='tc-mnt-')
    ok = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', d],
                        capture_output=True).returncode == 0
    if ok:
        subprocess.run(['umount', d], check=True)
    os.rmdir(d)
    return ok


MOUNT = can_mount()


class Faults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix='tc-faults-')
        refs = {}
        for name, inputs in (('old', OLD), ('new', NEW), ('alt', ALT)):
            d = os.path.join(cls.work, 'ref-' + name)
            p = census(inputs, d)
            assert p.returncode == 0, p.stderr
            refs[name] = snapshot(d)
        cls.old = refs['old']
        cls.pristine = os.path.join(cls.work, 'ref-old')
        cls.refs = {k: comparable(v) for k, v in refs.items()}
        cls.new_counts = cls.count_calls()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def count_calls(cls):
        """How many of each call a run of NEW over the previous set makes."""
        root = tempfile.mkdtemp(dir=cls.work)
        shutil.copytree(cls.pristine, os.path.join(root, 'out'))
        counts = os.path.join(root, 'counts')
        env = dict(os.environ, LD_PRELOAD=SHIM, TC_FAULT_COUNTS=counts)
        p = census(NEW, os.path.join(root, 'out'), env=env)
        assert p.returncode == 0, p.stderr
        with open(counts) as f:
            return {k: int(v) for k, v in (line.split() for line in f)}

    def setUp(self):
        self.root = tempfile.mkdtemp(dir=self.work)
        # Registered first, so it runs after every later cleanup (umount).
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.out = os.path.join(self.root, 'out')
        shutil.copytree(self.pristine, self.out)
        self.procs = []

    def tearDown(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()

    # What a reader finds, and what is beside OUTDIR.

    def which_set(self, out=None):
        """'old' (byte for byte), 'new' or 'alt' (the same files, the same
        contents but run.json's timing); fails on a mix or anything else."""
        snap = snapshot(out or self.out)
        if snap == self.old:
            return 'old'
        for name in ('new', 'alt'):
            if comparable(snap) == self.refs[name]:
                return name
        self.fail('OUTDIR is no complete set: ' + ', '.join(sorted(snap)))

    def tmpfs(self, name, size):
        """A tmpfs of SIZE mounted at a new folder NAME under the test's
        root, unmounted when the test ends."""
        mnt = os.path.join(self.root, name)
        os.mkdir(mnt)
        subprocess.run(['mount', '-t', 'tmpfs', '-o', f'size={size}', 'tmpfs', mnt], check=True)
        self.addCleanup(subprocess.run, ['umount', mnt])
        return mnt

    def assert_nothing_beside(self, root=None):
        self.assertEqual(sorted(os.listdir(root or self.root)), ['out'])

    # Running with a fault.

    def start(self, fault, inputs=NEW, extra=(), env_extra=None, **kw):
        env = dict(os.environ, LD_PRELOAD=SHIM, TC_FAULT=fault, **(env_extra or {}))
        p = subprocess.Popen([BINARY, 'census', '-T', '2', *extra, '-o', self.out, '--', *inputs],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=env, **kw)
        self.procs.append(p)
        return p

    def wait_stopped(self, p):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if p.poll() is not None:
                self.fail(f'exited {p.returncode} before the point: {p.stderr.read()}')
            try:
                with open(f'/proc/{p.pid}/stat') as f:
                    if f.read().rsplit(')', 1)[1].split()[0] == 'T':
                        return
            except FileNotFoundError:
                pass
            time.sleep(0.005)
        self.fail('never reached the point')

    def signal_stopped(self, p, sig):
        os.kill(p.pid, sig)
        os.kill(p.pid, signal.SIGCONT)
        _, err = p.communicate(timeout=WAIT)
        return p.returncode, err

    def run_fault(self, fault, inputs=NEW, extra=(), **kw):
        p = self.start(fault, inputs, extra, **kw)
        _, err = p.communicate(timeout=WAIT)
        return p.returncode, err

    # 1-4. Signals at every point of the writing, while reading, and before.

    def test_sigterm_at_every_point(self):
        """Before the commit (each file's writes and syncs) SIGTERM leaves
        the previous set; inside it (the staging folder's sync, the swap,
        the removal of the previous set) the commit finishes first."""
        c = self.new_counts
        files = len(PRODUCTS)
        self.assertEqual(c['fsync'], files + 2)  # each file, the staging folder, the parent
        self.assertEqual(c['renameat2'], 1)
        points = [('write', 1), ('write', c['write'] // 2), ('write', c['write'])]
        points += [('fsync', k) for k in range(1, c['fsync'] + 1)]
        points += [('renameat2', 1)] + [('unlinkat', k) for k in range(1, c['unlinkat'] + 1)]
        seen = {}
        for call, n in points:
            with self.subTest(point=f'{call}:{n}'):
                shutil.rmtree(self.out)
                shutil.copytree(self.pristine, self.out)
                p = self.start(f'{call}:{n}:stop')
                self.wait_stopped(p)
                view = self.which_set()
                before_commit = call == 'write' or (call == 'fsync' and n <= files)
                if before_commit:
                    self.assertEqual(view, 'old')
                rc, err = self.signal_stopped(p, signal.SIGTERM)
                self.assertEqual(rc, -signal.SIGTERM, err)
                final = self.which_set()
                self.assertEqual(final, 'old' if before_commit else 'new')
                if final == 'old':
                    self.assertIn(f'terminated (SIGTERM); nothing partial left, {self.out} keeps '
                                  'its previous outputs', err)
                else:
                    self.assertIn(f'terminated (SIGTERM) after {self.out} was replaced', err)
                self.assert_nothing_beside()
                seen[final] = seen.get(final, 0) + 1
        self.assertEqual(seen, {'old': 3 + files, 'new': len(points) - 3 - files})

    def test_sigint_and_sighup_while_writing(self):
        for sig, text in ((signal.SIGINT, 'interrupted (SIGINT)'), (signal.SIGHUP, 'hung up (SIGHUP)')):
            with self.subTest(sig=sig.name):
                p = self.start('fsync:2:stop')
                self.wait_stopped(p)
                rc, err = self.signal_stopped(p, sig)
                self.assertEqual(rc, -sig, err)
                self.assertIn(text, err)
                self.assertEqual(self.which_set(), 'old')
                self.assert_nothing_beside()

    def test_sigterm_while_a_writer_still_makes_files(self):
        """The writer threads run on beside the signal handler, so a file can
        appear in the staging folder after the handler emptied it; the shim
        plants one just before the folder's removal. The folder must go all
        the same (a CI run once found it left beside OUTDIR)."""
        # The only folder a whole run removes is the previous set, after
        # the commit: a run stopped before it removes the staging folder first.
        self.assertEqual(self.new_counts['rmdir'], 1)
        p = self.start('fsync:2:stop,rmdir:1:plant', env_extra={'TC_FAULT_PLANT': 'report.html'})
        self.wait_stopped(p)
        rc, err = self.signal_stopped(p, signal.SIGTERM)
        self.assertEqual(rc, -signal.SIGTERM, err)
        self.assertEqual(self.which_set(), 'old')
        self.assert_nothing_beside()

    def test_sigterm_while_reading(self):
        p = self.start('read:2:stop')
        self.wait_stopped(p)
        rc, err = self.signal_stopped(p, signal.SIGTERM)
        self.assertEqual(rc, -signal.SIGTERM, err)
        self.assertEqual(self.which_set(), 'old')
        self.assert_nothing_beside()

    def test_sigterm_before_anything_written(self):
        """Right after the staging folder is made: it and the lock are there,
        and go with the signal."""
        p = self.start('mkdirat:1:after')
        self.wait_stopped(p)
        beside = sorted(os.listdir(self.root))
        self.assertEqual(len(beside), 3, beside)
        self.assertEqual(beside[0], '.out.tc-lock')
        self.assertTrue(beside[1].startswith('.out.tc-new-'), beside)
        rc, err = self.signal_stopped(p, signal.SIGTERM)
        self.assertEqual(rc, -signal.SIGTERM, err)
        self.assertEqual(self.which_set(), 'old')
        self.assert_nothing_beside()

    # 5. Crashes, and the next run cleaning up after them.

    def test_crash_leftovers_cleaned_by_next_run(self):
        c = self.new_counts
        for point, at_crash in (('write:2', 'old'), (f'fsync:{len(PRODUCTS) + 1}', 'old'),
                                ('renameat2:1', 'old'), ('unlinkat:3', 'new')):
            with self.subTest(point=point):
                shutil.rmtree(self.out)
                shutil.copytree(self.pristine, self.out)
                rc, err = self.run_fault(point + ':kill')
                self.assertEqual(rc, -signal.SIGKILL, err)
                self.assertEqual(self.which_set(), at_crash)
                left = [n for n in os.listdir(self.root) if n != 'out']
                self.assertIn('.out.tc-lock', left)
                self.assertTrue(any(n.startswith('.out.tc-new-') for n in left), left)
                p = census(ALT, self.out, extra=('-v',))
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn(f'removed 1 leftovers of an interrupted run beside {self.out}', p.stderr)
                self.assertEqual(self.which_set(), 'alt')
                self.assert_nothing_beside()
        self.assertGreater(c['unlinkat'], 3)

    # 6. A filesystem without RENAME_EXCHANGE, and a crash between its two renames.

    def test_no_rename_exchange(self):
        rc, err = self.run_fault('renameat2:1:EINVAL')
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.which_set(), 'new')
        self.assert_nothing_beside()

    def test_crash_between_the_two_renames(self):
        rc, err = self.run_fault('renameat2:1:EINVAL,renameat:2:kill')
        self.assertEqual(rc, -signal.SIGKILL, err)
        self.assertFalse(os.path.exists(self.out))
        aside = [n for n in os.listdir(self.root) if n.startswith('.out.tc-old-')]
        self.assertEqual(len(aside), 1)
        self.assertEqual(self.which_set(os.path.join(self.root, aside[0])), 'old')
        # The next run puts the previous set back before anything else (seen
        # here as it stops right after making its staging folder); a
        # SIGTERM then leaves exactly that set.
        p = self.start('mkdirat:1:after', inputs=ALT)
        self.wait_stopped(p)
        self.assertEqual(self.which_set(), 'old')
        self.assertFalse(os.path.exists(os.path.join(self.root, aside[0])))
        rc, err = self.signal_stopped(p, signal.SIGTERM)
        self.assertEqual(rc, -signal.SIGTERM, err)
        self.assertEqual(self.which_set(), 'old')
        self.assert_nothing_beside()
        p = census(ALT, self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.which_set(), 'alt')
        self.assert_nothing_beside()

    # 7-10. Full disks, failing syncs, the file size limit, the staging folder refused.

    def test_write_failures(self):
        c = self.new_counts
        for fault, text in ((f'write:{c["write"] // 2}:ENOSPC', 'No space left on device'),
                            ('write:1:EDQUOT', 'Disk quota exceeded'),
                            ('fsync:3:ENOSPC', 'No space left on device'),
                            ('fsync:1:EIO', 'Input/output error')):
            with self.subTest(fault=fault):
                rc, err = self.run_fault(fault)
                self.assertEqual(rc, 2, err)
                self.assertRegex(err, rf'{self.out}/\S+: cannot write: {text}; {self.out} keeps its '
                                 'previous outputs')
                self.assertEqual(self.which_set(), 'old')
                self.assert_nothing_beside()

    def test_staging_folder_refused(self):
        rc, err = self.run_fault('mkdirat:1:ENOSPC')
        self.assertEqual(rc, 2, err)
        self.assertIn('No space left on device; nothing written', err)
        self.assertEqual(self.which_set(), 'old')
        self.assert_nothing_beside()

    def test_file_size_limit(self):
        def limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, resource.RLIM_INFINITY))
        p = census(NEW, self.out, preexec_fn=limit)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f'{self.out}/census.json: cannot write: File too large (the file size limit, '
                      f'ulimit -f); {self.out} keeps its previous outputs', p.stderr)
        self.assertEqual(self.which_set(), 'old')
        self.assert_nothing_beside()

    def test_scratch_folder_missing(self):
        """The run's scratch records (util/tc_spill.h) cannot be written: the
        message names the folder and the errno, not 'cannot write output'."""
        missing = os.path.join(self.root, 'no-such-tmp')
        p = census(NEW, self.out, env={**os.environ, 'TMPDIR': missing})
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"run failed: cannot write the run's scratch records in {missing}: No such file "
                      'or directory (TMPDIR chooses the folder); nothing written', p.stderr)
        self.assertEqual(self.which_set(), 'old')
        self.assert_nothing_beside()

    @unittest.skipUnless(MOUNT, 'mounting a tmpfs is not permitted here')
    def test_full_scratch_folder(self):
        mnt = self.tmpfs('tmp-mnt', '4k')
        p = census(NEW, self.out, env={**os.environ, 'TMPDIR': mnt})
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"cannot write the run's scratch records in {mnt}: No space left on device",
                      p.stderr)
        self.assertEqual(self.which_set(), 'old')

    @unittest.skipUnless(MOUNT, 'mounting a tmpfs is not permitted here')
    def test_full_tmpfs(self):
        """A real full disk: room for the previous set, not for both."""
        old_bytes = sum(len(v) for v in self.old.values() if v is not None)
        mnt = self.tmpfs('mnt', str(old_bytes + 200_000))
        out = os.path.join(mnt, 'out')
        shutil.copytree(self.pristine, out)
        p = census(NEW, out)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f'cannot write: No space left on device; {out} keeps its previous outputs',
                      p.stderr)
        self.assertEqual(self.which_set(out), 'old')
        self.assert_nothing_beside(mnt)

    # 11-14. Where OUTDIR cannot be written or swapped.

    @unittest.skipUnless(MOUNT, 'mounting a tmpfs is not permitted here')
    def test_read_only_parent(self):
        mnt = self.tmpfs('mnt', '8m')
        out = os.path.join(mnt, 'out')
        shutil.copytree(self.pristine, out)
        subprocess.run(['mount', '-o', 'remount,ro', mnt], check=True)
        p = census(NEW, out)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f'{out}: cannot write output: {mnt}/.out.tc-lock: Read-only file system; '
                      'nothing written', p.stderr)
        self.assertEqual(self.which_set(out), 'old')
        self.assert_nothing_beside(mnt)

    @unittest.skipUnless(MOUNT, 'mounting a tmpfs is not permitted here')
    def test_outdir_a_mount_point(self):
        subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', self.out], check=True)
        self.addCleanup(subprocess.run, ['umount', self.out])
        p = census(NEW, self.out)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f'{self.out}: output folder cannot be replaced as a whole: it is a mount point',
                      p.stderr)
        self.assertEqual(os.listdir(self.out), [])
        self.assert_nothing_beside()

    def test_outdir_a_file_or_below_one(self):
        shutil.rmtree(self.out)
        with open(self.out, 'w') as f:
            f.write('not a folder\n')
        p = census(NEW, self.out)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f'{self.out}: output path exists and is not a folder; nothing written', p.stderr)
        below = os.path.join(self.out, 'sub')
        p = census(NEW, below)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f'{below}: cannot write output: {self.out}: Not a directory; nothing written',
                      p.stderr)
        with open(self.out) as f:
            self.assertEqual(f.read(), 'not a folder\n')
        self.assert_nothing_beside()

    def test_current_directory_inside(self):
        os.mkdir(os.path.join(self.out, 'sub'))
        self.old_with_sub = snapshot(self.out)
        for cwd, arg in ((self.out, '.'), (os.path.join(self.out, 'sub'), self.out)):
            p = census(NEW, arg, cwd=cwd)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn('output folder cannot be replaced as a whole: the current directory is '
                          'inside it', p.stderr)
            self.assertEqual(snapshot(self.out), self.old_with_sub)
            self.assert_nothing_beside()

    # 15. Two runs into one OUTDIR.

    def test_second_run_fails_while_first_writes(self):
        first = self.start('mkdirat:1:after')  # the lock is held, its pid written
        self.wait_stopped(first)
        p = census(ALT, self.out)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f'{self.out}: another run is writing this output folder (pid {first.pid} '
                      f'holds {self.root}/.out.tc-lock); nothing written', p.stderr)
        self.assertEqual(self.which_set(), 'old')
        os.kill(first.pid, signal.SIGCONT)
        _, err = first.communicate(timeout=WAIT)
        self.assertEqual(first.returncode, 0, err)
        self.assertEqual(self.which_set(), 'new')
        self.assert_nothing_beside()

    def test_racing_runs_never_mix(self):
        for _ in range(4):
            a = subprocess.Popen([BINARY, 'census', '-T', '2', '-o', self.out, *NEW],
                                 stderr=subprocess.PIPE, text=True)
            b = subprocess.Popen([BINARY, 'census', '-T', '2', '-o', self.out, *ALT],
                                 stderr=subprocess.PIPE, text=True)
            self.procs += [a, b]
            results = {}
            for name, p in (('new', a), ('alt', b)):
                _, err = p.communicate(timeout=WAIT)
                self.assertIn(p.returncode, (0, 2), err)
                if p.returncode == 2:
                    self.assertIn('another run is writing this output folder', err)
                results[name] = p.returncode
            self.assertIn(0, results.values())
            self.assertIn(self.which_set(), [n for n, rc in results.items() if rc == 0])
            self.assert_nothing_beside()

    # 16-18. Leftovers and neighbours.

    def test_stale_lock_and_older_temporaries(self):
        with open(os.path.join(self.root, '.out.tc-lock'), 'w') as f:
            f.write('4194303\n')
        with open(os.path.join(self.out, '.census.md.tmp1234'), 'w') as f:
            f.write('what an older tracecensus left on SIGTERM')
        p = census(NEW, self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.which_set(), 'new')
        self.assert_nothing_beside()

    def test_foreign_files_kept_stale_products_dropped(self):
        notes = os.path.join(self.out, 'notes.txt')
        with open(notes, 'w') as f:
            f.write('mine\n')
        os.makedirs(os.path.join(self.out, 'keep', 'deeper'))
        with open(os.path.join(self.out, 'keep', 'deeper', 'x'), 'w') as f:
            f.write('x\n')
        ino = os.stat(notes).st_ino
        p = census(NEW, self.out, extra=('--no-metrics',))
        self.assertEqual(p.returncode, 0, p.stderr)
        names = sorted(os.listdir(self.out))
        self.assertEqual(names, ['census.csv', 'census.json', 'census.md', 'census_args.csv',
                                 'keep', 'notes.txt', 'report.html', 'run.json'])
        self.assertEqual(os.stat(notes).st_ino, ino)
        with open(os.path.join(self.out, 'keep', 'deeper', 'x')) as f:
            self.assertEqual(f.read(), 'x\n')
        for n in ('census.json', 'census.csv', 'census.md'):
            with open(os.path.join(self.out, n), 'rb') as f:
                self.assertEqual(f.read(), self.refs['new'][n], n)
        self.assert_nothing_beside()

    def test_stderr_a_closed_pipe(self):
        """SIGPIPE would kill the run at its first message; it finishes."""
        r, w = os.pipe()
        os.close(r)
        p = subprocess.run([BINARY, 'census', '-T', '2', '-o', self.out, *NEW], stderr=w,
                           timeout=WAIT)
        os.close(w)
        self.assertEqual(p.returncode, 0)
        self.assertEqual(self.which_set(), 'new')
        self.assert_nothing_beside()


if __name__ == '__main__':
    unittest.main()
