"""Partial state, resume, shards and merge (issue 10), end to end.

A small corpus is copied from corpus/crawl (eight sites with a trace, and
the two the crawl left without one, kept in S by the manifest). Its
one-machine run is the reference; every other way to get the same outputs
must give the same bytes:
- shards 0-3 of 4 (--shard I/4 --state DIR) merged by `tracecensus merge`,
  with the shards run at -T 1 and at -T 2 and the folders given in order,
  reversed and shuffled; a merge missing a shard names what is missing;
- a run killed with SIGKILL once 0, 2 and 5 site partials exist, then run
  again with the same command: it reuses what was saved (-v says how many
  traces) and writes the reference's outputs;
- SIGINT and SIGTERM: the run finishes the traces in progress, saves their
  sites, says how to resume, dies of the signal (the documented status) and
  leaves no temporary file; the same command then resumes;
- a trace changed after its site was saved is run again, the rest reused;
- a corrupt partial and one of another format version are errors naming
  the file and the byte offset, for the census and for the merge;
- run.json holds each distinct metadata block once: three sites with hard
  links of one trace and one other site give the block (as Python reads it
  from the trace) with the first file of each, and metadata_of pointing
  there for the others.
Under TSan (TC_TSAN) only the runs at -T 2 (shards, merges, the changed
trace): the others run one worker or none. Every product file is compared byte for byte; run.json too, but for the
facts of the run and the host (timings, threads, peak RSS), as the golden
test does."""
import os
import random
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from e2e_common import BINARY, ROOT, SANITIZED, TSAN
from test_golden_e2e import MERGE_MASK, diff_run_json

CRAWL = os.path.join(ROOT, 'corpus', 'crawl')
PRODUCTS = ('census.json', 'census.csv', 'census.md', 'metrics.csv', 'metrics.json', 'metrics.md',
            'report.html')
WITH_TRACE = ('css-import', 'web-fonts', 'css-linked', 'workers', 'layout-shift-lcp',
              'img-decoding-async', 'parse-sync-scripts', 'failed-requests')
NO_TRACE = ('hung-page', 'root-404')
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL:', what, file=sys.stderr)


def make_corpus(tmp):
    corpus = os.path.join(tmp, 'crawl')
    os.mkdir(corpus)
    for site in WITH_TRACE + NO_TRACE:
        src = os.path.join(CRAWL, site)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(corpus, site))
    with open(os.path.join(CRAWL, 'manifest.tsv'), encoding='utf-8') as f:
        lines = f.read().splitlines()
    keep = [lines[0]] + [l for l in lines[1:] if l.split('\t')[0] in WITH_TRACE + NO_TRACE]
    assert len(keep) == 1 + len(WITH_TRACE) + len(NO_TRACE), 'manifest rows missing'
    manifest = os.path.join(tmp, 'manifest.tsv')
    with open(manifest, 'w', encoding='utf-8') as f:
        f.write('\n'.join(keep) + '\n')
    return corpus, manifest


def census_cmd(corpus, manifest, outdir=None, state=None, threads=2, extra=()):
    cmd = [BINARY, 'census', '-T', str(threads), '--manifest', manifest, *extra]
    if outdir:
        cmd += ['-o', outdir]
    if state:
        cmd += ['--state', state]
    return cmd + [corpus]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def same_outputs(ref, out, what):
    if not os.path.isdir(out):
        check(False, '%s: no OUTDIR' % what)
        return
    for name in PRODUCTS:
        a, b = os.path.join(ref, name), os.path.join(out, name)
        if not os.path.exists(b):
            check(False, '%s: no %s' % (what, name))
            continue
        with open(a, 'rb') as fa, open(b, 'rb') as fb:
            check(fa.read() == fb.read(), '%s: %s differs from the one-machine run' % (what, name))
    if not os.path.exists(os.path.join(out, 'run.json')):
        return
    with open(os.path.join(ref, 'run.json'), encoding='utf-8') as fa, \
            open(os.path.join(out, 'run.json'), encoding='utf-8') as fb:
        problems = diff_run_json(fa.read(), fb.read(), MERGE_MASK)
    check(not problems, '%s: run.json: %s' % (what, problems[:3]))


def partials(state):
    if not os.path.isdir(state):
        return []
    return [f for f in os.listdir(state) if f.startswith('site-') and f.endswith('.tcp')]


def temp_files(*dirs):
    found = []
    for d in dirs:
        if os.path.isdir(d):
            found += [os.path.join(d, f) for f in os.listdir(d) if '.tmp-' in f or '.tc-new-' in f]
    return found


def start_and_signal(cmd, state, when, sig):
    """Starts CMD, sends SIG once STATE holds WHEN partials; returns the
    finished process and the number of partials there were at the signal."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while len(partials(state)) < when and p.poll() is None and time.time() < deadline:
        time.sleep(0.005)
    had = len(partials(state))
    if p.poll() is None:
        p.send_signal(sig)
    _, err = p.communicate(timeout=300)
    return p.returncode, err, had


def test_shards(tmp, corpus, manifest, ref):
    sites = len(WITH_TRACE) + len(NO_TRACE)
    # Under a sanitizer, the two-thread shards only: the same paths.
    for threads in ((2,) if SANITIZED else (1, 2)):
        states = []
        for i in range(4):
            st = os.path.join(tmp, 'shards-T%d' % threads, 'shard-%d' % i)
            states.append(st)
            p = run(census_cmd(corpus, manifest, state=st, threads=threads, extra=['--shard', '%d/4' % i]))
            check(p.returncode == 0, 'shard %d/4 at -T %d: exit %d: %s' % (i, threads, p.returncode, p.stderr))
            check('shard %d/4' % i in p.stderr, 'shard %d/4 says nothing of itself: %s' % (i, p.stderr))
        check(sum(len(partials(s)) for s in states) == sites,
              '-T %d: the shards hold %d partials for %d sites' % (threads, sum(len(partials(s)) for s in states), sites))
        orders = [states, states[::-1], random.Random(threads).sample(states, 4)]
        if SANITIZED:
            orders = orders[1:2]
        for k, order in enumerate(orders):
            out = os.path.join(tmp, 'merged-T%d-%d' % (threads, k))
            p = run([BINARY, 'merge', '-o', out, *order])
            check(p.returncode == 0, 'merge: exit %d: %s' % (p.returncode, p.stderr))
            same_outputs(ref, out, 'shards at -T %d merged in order %d' % (threads, k))
    # One shard missing: named, with its sites, and nothing written.
    states = [os.path.join(tmp, 'shards-T2', 'shard-%d' % i) for i in range(3)]
    out = os.path.join(tmp, 'merged-incomplete')
    p = run([BINARY, 'merge', '-o', out, *states])
    check(p.returncode == 2, 'merge without shard 3: exit %d, not 2' % p.returncode)
    check('shard 3 of 4: no state folder given' in p.stderr, 'the missing shard is not named: ' + p.stderr)
    missing = [s for s in WITH_TRACE + NO_TRACE if '%s (shard 3)' % s in p.stderr]
    check(missing, 'no site of shard 3 is named: ' + p.stderr)
    check(not os.path.exists(out), 'an incomplete merge wrote its OUTDIR')
    # A shard given twice.
    p = run([BINARY, 'merge', '-o', out, states[0], states[0], states[1]])
    check(p.returncode == 2 and 'both hold shard 0 of 4' in p.stderr, 'a shard given twice: ' + p.stderr)


def test_kill_and_resume(tmp, corpus, manifest, ref):
    for when in ((2,) if SANITIZED else (0, 2, 5)):
        state = os.path.join(tmp, 'kill-%d' % when, 'state')
        out = os.path.join(tmp, 'kill-%d' % when, 'out')
        cmd = census_cmd(corpus, manifest, out, state, threads=1)
        rc, err, had = start_and_signal(cmd, state, when, signal.SIGKILL)
        check(rc == -signal.SIGKILL, 'SIGKILL after %d partials: exit %d' % (when, rc))
        kept = len(partials(state))
        p = run(cmd[:1] + ['census', '-v'] + cmd[2:])
        check(p.returncode == 0, 'rerun after SIGKILL at %d: exit %d: %s' % (when, p.returncode, p.stderr))
        line = [l for l in p.stderr.splitlines() if 'reused from' in l]
        check(line and int(line[0].split()[3].strip('(')) == kept,
              'rerun after SIGKILL at %d: %d partials kept, -v says %r' % (when, kept, line))
        same_outputs(ref, out, 'resumed after SIGKILL at %d partials' % when)
        check(not temp_files(state, os.path.dirname(out)), 'temporary files left: %s' % temp_files(state))


def test_signals(tmp, corpus, manifest, ref):
    for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        base = os.path.join(tmp, 'sig-%d' % sig)
        state, out = os.path.join(base, 'state'), os.path.join(base, 'out')
        cmd = census_cmd(corpus, manifest, out, state, threads=1)
        rc, err, had = start_and_signal(cmd, state, 1, sig)
        # A shell shows 128 + N; Python reports death by signal N as -N.
        check(rc == -(status - 128), '%s: exit %d, not death by the signal' % (sig.name, rc))
        check('To resume, run the same command again' in err, '%s: no word on resuming: %s' % (sig.name, err))
        check(not temp_files(state, base), '%s: temporary files left: %s' % (sig.name, temp_files(state, base)))
        check(not os.path.exists(out), '%s: OUTDIR written by an interrupted run' % sig.name)
        check(len(partials(state)) >= had, '%s: partials lost' % sig.name)
        p = run(cmd)
        check(p.returncode == 0, '%s: the rerun failed: %s' % (sig.name, p.stderr))
        same_outputs(ref, out, 'resumed after %s' % sig.name)


def test_changed_trace(tmp, corpus, manifest, ref):
    state, out = os.path.join(tmp, 'change', 'state'), os.path.join(tmp, 'change', 'out')
    cmd = census_cmd(corpus, manifest, out, state, extra=['-v'])
    p = run(cmd)
    check(p.returncode == 0, 'first run with state: %s' % p.stderr)
    trace = os.path.join(corpus, WITH_TRACE[0], 'trace.json.zst')
    st = os.stat(trace)
    os.utime(trace, ns=(st.st_atime_ns, st.st_mtime_ns + 1000))
    p = run(cmd)
    line = [l for l in p.stderr.splitlines() if 'reused from' in l]
    want = '%d traces (%d sites) reused' % (len(WITH_TRACE) - 1, len(WITH_TRACE) + len(NO_TRACE) - 1)
    check(line and want in line[0], 'a touched trace: want %r, got %r' % (want, line))
    same_outputs(ref, out, 'after a touched trace')
    os.utime(trace, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_bad_partials(tmp, corpus, manifest):
    state = os.path.join(tmp, 'bad', 'state')
    shard = os.path.join(tmp, 'bad', 'shard')
    p = run(census_cmd(corpus, manifest, os.path.join(tmp, 'bad', 'out'), state))
    check(p.returncode == 0, 'run for the bad partials: %s' % p.stderr)
    victim = os.path.join(state, sorted(partials(state))[0])
    good = open(victim, 'rb').read()
    # A flipped byte in the payload: the checksum names the section.
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x55
    open(victim, 'wb').write(bytes(bad))
    p = run(census_cmd(corpus, manifest, os.path.join(tmp, 'bad', 'out'), state))
    check(p.returncode == 2, 'corrupt partial: exit %d, not 2' % p.returncode)
    check(victim in p.stderr and 'at byte ' in p.stderr, 'corrupt partial not named with its offset: ' + p.stderr)
    # Another format version: bytes 8-11.
    bad = bytearray(good)
    bad[8] = 99
    open(victim, 'wb').write(bytes(bad))
    p = run(census_cmd(corpus, manifest, os.path.join(tmp, 'bad', 'out'), state))
    check(p.returncode == 2 and victim in p.stderr and 'at byte 8' in p.stderr and
          'format version' in p.stderr, 'wrong version not named: ' + p.stderr)
    # The merge says the same.
    p = run(census_cmd(corpus, manifest, state=shard, extra=['--shard', '0/1']))
    check(p.returncode == 0, 'a one-shard run: %s' % p.stderr)
    victim = os.path.join(shard, sorted(partials(shard))[0])
    open(victim, 'wb').write(bytes(bad))
    p = run([BINARY, 'merge', '-o', os.path.join(tmp, 'bad', 'merged'), shard])
    check(p.returncode == 2 and victim in p.stderr and 'at byte 8' in p.stderr,
          'merge of a wrong-version partial: ' + p.stderr)
    os.unlink(os.path.join(shard, 'shard.tcr'))
    p = run([BINARY, 'merge', '-o', os.path.join(tmp, 'bad', 'merged'), shard])
    check(p.returncode == 2 and os.path.join(shard, 'shard.tcr') in p.stderr,
          'a folder without its record: ' + p.stderr)


def trace_metadata(path):
    raw = subprocess.run(['zstd', '-dc', path], capture_output=True, check=True).stdout
    return json.loads(raw)['metadata']


def test_metadata_once(tmp):
    corpus = os.path.join(tmp, 'same-meta')
    one = os.path.join(CRAWL, WITH_TRACE[0], 'trace.json.zst')
    other = os.path.join(CRAWL, WITH_TRACE[1], 'trace.json.zst')
    for i, src in enumerate((one, one, other, one)):
        os.makedirs(os.path.join(corpus, 'site-%d' % i))
        os.link(src, os.path.join(corpus, 'site-%d' % i, 'trace.json.zst'))
    out = os.path.join(tmp, 'same-meta-out')
    p = run([BINARY, 'census', '-q', '-T', '2', '-o', out, corpus])
    check(p.returncode == 0, 'same metadata run: ' + p.stderr)
    with open(os.path.join(out, 'run.json'), encoding='utf-8') as f:
        files = json.load(f)['files']
    check([f['site'] for f in files] == ['site-0', 'site-1', 'site-2', 'site-3'], 'files: %r' % files)
    check(files[0]['metadata'] == trace_metadata(one), 'file 0 lacks its metadata block')
    check(files[2]['metadata'] == trace_metadata(other), 'file 2 lacks its metadata block')
    for i in (1, 3):
        check(files[i]['metadata'] is None and files[i].get('metadata_of') == 0,
              'file %d: metadata %r, metadata_of %r' % (i, files[i]['metadata'] is None, files[i].get('metadata_of')))
    check('metadata_of' not in files[0] and 'metadata_of' not in files[2], 'metadata_of on a first block')
    check(files[1]['chrome_version'] == files[0]['chrome_version'],
          'a file whose block is elsewhere still names its Chrome version')


def main():
    tmp = tempfile.mkdtemp(prefix='tc-state-')
    corpus, manifest = make_corpus(tmp)
    ref = os.path.join(tmp, 'ref')
    p = run(census_cmd(corpus, manifest, ref))
    if p.returncode != 0:
        sys.exit('the reference run failed: ' + p.stderr)
    test_shards(tmp, corpus, manifest, ref)
    test_changed_trace(tmp, corpus, manifest, ref)
    if not TSAN:  # one worker, or no run at all: no data shared between threads
        test_kill_and_resume(tmp, corpus, manifest, ref)
        test_signals(tmp, corpus, manifest, ref)
        test_bad_partials(tmp, corpus, manifest)
        test_metadata_once(tmp)
    if failures:
        sys.exit('%d failures' % len(failures))
    shutil.rmtree(tmp)
    print('state e2e: all checks passed')


if __name__ == '__main__':
    main()
