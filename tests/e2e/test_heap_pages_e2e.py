#!/usr/bin/env python3
"""The restart with glibc asked for huge pages (util/tc_hugepages.h,
cli/main.c): it happens where the kernel gives huge pages on request (THP
"madvise") and glibc has the tunable (2.35 and later); a user's own
glibc.malloc.hugetlb and an LD_PRELOAD are left alone; the run's page
faults fall; and no output changes. The kernel's mode is read here from
sysfs, independently of the program; `bench --export-json` says what the
process ran with."""
import filecmp
import json
import os
import resource
import struct
import subprocess
import unittest

from e2e_common import BINARY, SANITIZED, THIRD_PARTY, scratch

THP = '/sys/kernel/mm/transparent_hugepage/enabled'


def thp_mode():
    try:
        with open(THP) as f:
            text = f.read()
    except OSError:
        return 'unknown'
    for mode in ('always', 'madvise', 'never'):
        if f'[{mode}]' in text:
            return mode
    return 'unknown'


def glibc_has_hugetlb():
    name, _, version = (os.confstr('CS_GNU_LIBC_VERSION') or '').partition(' ')
    return name == 'glibc' and tuple(int(x) for x in version.split('.')[:2]) >= (2, 35)


RESTARTS = thp_mode() == 'madvise' and glibc_has_hugetlb()


def interpreter(path):
    """The program interpreter (PT_INTERP) a 64-bit little-endian ELF file
    names, or None."""
    with open(path, 'rb') as f:
        elf = f.read()
    if elf[:6] != b'\x7fELF\x02\x01':
        return None
    phoff, = struct.unpack_from('<Q', elf, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', elf, 0x36)
    for i in range(phnum):
        at = phoff + i * phentsize
        ptype, = struct.unpack_from('<I', elf, at)
        if ptype == 3:
            offset, = struct.unpack_from('<Q', elf, at + 8)
            size, = struct.unpack_from('<Q', elf, at + 32)
            return elf[offset:offset + size].rstrip(b'\0').decode()
    return None


def env_with(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ('GLIBC_TUNABLES', 'LD_PRELOAD')}
    env.update(changes)
    return env


def bench_heap(env, loader=()):
    """thp_mode and malloc_hugetlb of `bench --export-json` over one trace."""
    out = os.path.join(scratch('tc-heap-'), 'bench.json')
    trace = os.path.join(THIRD_PARTY, 'artifacts__user-timing__trace.json')
    p = subprocess.run([*loader, BINARY, 'bench', '-T', '1', '--runs', '1', '--warmup', '0',
                        '--export-json', out, trace],
                       capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        raise AssertionError(p.stderr)
    with open(out) as f:
        b = json.load(f)
    return b['thp_mode'], b['malloc_hugetlb']


def census_faults(env, outdir):
    """Minor page faults of one census -T 1 over the third-party traces."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    p = subprocess.run([BINARY, 'census', '-q', '-T', '1', '-o', outdir, THIRD_PARTY],
                       capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        raise AssertionError(p.stderr)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - before


class HeapPages(unittest.TestCase):
    def test_bench_says_the_kernels_mode_and_the_tunable(self):
        mode, hugetlb = bench_heap(env_with())
        self.assertEqual(mode, thp_mode())
        self.assertEqual(hugetlb, '1' if RESTARTS else '')

    def test_a_users_own_setting_stands(self):
        self.assertEqual(bench_heap(env_with(GLIBC_TUNABLES='glibc.malloc.hugetlb=0'))[1], '0')
        # Another tunable is kept, the request added after it.
        tunables = 'glibc.malloc.tcache_count=7'
        self.assertEqual(bench_heap(env_with(GLIBC_TUNABLES=tunables))[1], '1' if RESTARTS else '')

    def test_the_setting_reaches_the_terminal_escaped(self):
        # The environment's text is the user's, not ours: a control byte in
        # it is shown as \xNN on the table, never sent to the terminal.
        trace = os.path.join(THIRD_PARTY, 'artifacts__user-timing__trace.json')
        p = subprocess.run([BINARY, 'bench', '-T', '1', '--runs', '1', '--warmup', '0', trace],
                           capture_output=True, env=env_with(
                               GLIBC_TUNABLES='glibc.malloc.hugetlb=\x1b[31m'), timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        [line] = [l for l in p.stdout.splitlines() if l.startswith(b'  heap pages:')]
        self.assertNotIn(b'\x1b', line)
        self.assertTrue(line.endswith(b'glibc.malloc.hugetlb \\x1b[31m'), line)

    def test_no_restart_under_ld_preload(self):
        # The fault tests' shim passes every call through unless told to fail.
        shim = os.environ.get('TC_FAULTSHIM')
        if not shim:
            self.skipTest('TC_FAULTSHIM is not set (meson test sets it)')
        self.assertEqual(bench_heap(env_with(LD_PRELOAD=shim))[1], '')

    def test_no_restart_when_started_by_the_loader(self):
        # `ld.so tracecensus ...`: /proc/self/exe is the loader, which an
        # exec would hand "bench" as the program to load.
        loader = interpreter(BINARY)
        if not loader or not os.path.exists(loader):
            self.skipTest('the binary names no program interpreter')
        self.assertEqual(bench_heap(env_with(), loader=(loader,))[1], '')

    @unittest.skipUnless(RESTARTS, 'the kernel gives huge pages only unasked or never, '
                         'or glibc has no glibc.malloc.hugetlb')
    @unittest.skipIf(SANITIZED, "a sanitizer's allocator is not glibc's heap")
    def test_faults_fall_and_the_outputs_stay(self):
        d = scratch('tc-heap-')
        huge, small = os.path.join(d, 'huge'), os.path.join(d, 'small')
        with_huge = census_faults(env_with(), huge)
        without = census_faults(env_with(GLIBC_TUNABLES='glibc.malloc.hugetlb=0'), small)
        # Measured: 2.0 K against 13.3 K over bench/README's 8-site corpus.
        self.assertLess(2 * with_huge, without, (with_huge, without))
        names = sorted(n for n in os.listdir(huge) if n != 'run.json')
        self.assertEqual(names, sorted(n for n in os.listdir(small) if n != 'run.json'))
        self.assertIn('census.json', names)
        for n in names:
            self.assertTrue(filecmp.cmp(os.path.join(huge, n), os.path.join(small, n),
                                        shallow=False), n)


if __name__ == '__main__':
    unittest.main()
