#!/usr/bin/env python3
"""What tracecensus reads back is hostile input (issue 27), end to end:

- crafted site partials, their checksum made right again: an example
  nested 10^6 deep (2 MB), one nested 65 deep (past the example limit of
  64) and one that smuggles keys into census.json (`{},"records":0,...`)
  are refused by a resumed census and by a merge, naming the partial and
  the byte offset of the example, exit 2, OUTDIR untouched and no staging
  folder left;
- a FIFO where a site partial, a shard record or diff's census.json should
  be is refused as "not a regular file" at once, never waited on;
- two censuses on one state folder: the second is turned away at once,
  naming the first's pid, in every one of 20 tries; the first goes on;
- a shard refuses a state folder that holds another shard of as many
  shards (it would hide that shard from the merge);
- shards print only their own traces: on a corpus with three broken files
  each is named by exactly one shard, no good file is named, each -v line
  gives its own trace's event count (known by construction); shards of a
  clean corpus print nothing with -q;
- resume and merge across every setting that changes an output byte
  (--whole-urls, --value-sites, --scope, --no-metrics, a job's bucket_ms):
  a resume gives the bytes of a fresh run and says which setting made it
  rerun, a merge of shards made with different settings is refused naming
  the setting;
- diff reads what census writes: outputs of two sites whose folder names
  differ only in bytes that are not UTF-8 (run.json tells them apart by
  `site_hex`) and of an example nested 63 deep compare with themselves
  (exit 0); counts that are no count (-5, 1e300, 1.5) are refused;
- a merge missing 999,999 of 10^6 shards names ten and counts the rest, in
  one short line;
- with 10 descriptors (ulimit -n 10) the writers write one at a time and
  the outputs are the usual bytes;
- a job whose only corpus is missing is named with the job file.
"""
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from e2e_common import BINARY, SANITIZED

failures = []
PRODUCTS = ('census.json', 'census.csv', 'census.md', 'census_args.csv', 'metrics.csv',
            'metrics.json', 'metrics.md', 'report.html')


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL:', what, file=sys.stderr)


def run(cmd, timeout=300, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=timeout, **kw)


def err(p):
    return p.stderr.decode('utf-8', 'replace')


def trace(n, name='Work', args=None, pid=1):
    """A trace of N complete events NAME (and two metadata events)."""
    ev = [{"name": "process_name", "ph": "M", "pid": pid, "tid": pid, "ts": 0, "cat": "__metadata",
           "args": {"name": "Renderer"}},
          {"name": "thread_name", "ph": "M", "pid": pid, "tid": pid, "ts": 0, "cat": "__metadata",
           "args": {"name": "CrRendererMain"}}]
    ev += [{"name": name, "ph": "X", "pid": pid, "tid": pid, "ts": 10 * i, "dur": 5, "cat": "toplevel",
            "args": args if args is not None else {"i": i}} for i in range(n)]
    return ev


def write_site(corpus, site, events=None, raw=None):
    d = os.path.join(os.fsencode(corpus), os.fsencode(site) if isinstance(site, str) else site)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, b'trace.json'), 'wb') as f:
        f.write(raw if raw is not None else json.dumps({"traceEvents": events}).encode())


def outputs(out):
    got = {}
    for n in PRODUCTS:
        p = os.path.join(out, n)
        if os.path.exists(p):
            got[n] = open(p, 'rb').read()
    return got


def same_products(a, b, what):
    oa, ob = outputs(a), outputs(b)
    check(oa.keys() == ob.keys(), '%s: files %s vs %s' % (what, sorted(oa), sorted(ob)))
    for n in oa:
        check(oa[n] == ob.get(n), '%s: %s differs from a fresh run' % (what, n))


def partials(state):
    return sorted(f for f in os.listdir(state) if f.startswith('site-') and f.endswith('.tcp'))


def uvar(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def craft(path, old, new):
    """Replaces the length-prefixed string OLD in the partial at PATH by
    NEW and makes the section's length and checksum right again (layout:
    pipeline/tc_partial.h, util/tc_bin.h). Returns the offset of NEW's
    length prefix."""
    data = open(path, 'rb').read()
    head, payload = data[:32], data[32:-4]
    (plen,) = struct.unpack('<Q', head[24:32])
    assert plen == len(payload), 'unexpected partial layout'
    at = payload.find(uvar(len(old)) + old)
    assert at >= 0, 'the example is not in the partial'
    payload = payload[:at] + uvar(len(new)) + new + payload[at + len(uvar(len(old))) + len(old):]
    head = head[:24] + struct.pack('<Q', len(payload))
    crc = zlib.crc32(head[16:] + payload) & 0xffffffff
    with open(path, 'wb') as f:
        f.write(head + payload + struct.pack('<I', crc))
    return 32 + at


def test_crafted_partials(tmp):
    corpus = os.path.join(tmp, 'crafted')
    pad = 'Q' * 200
    events = trace(3, 'Ex', {"pad": pad})
    write_site(corpus, 'ex', events)
    # The example is the event's text as the trace holds it.
    text = json.dumps({"traceEvents": events}).encode()
    first = text.find(b'{"name": "Ex"')
    example = text[first:text.find(b'}}', first) + 2]
    cases = {'deep-1e6': b'[' * 10**6 + b']' * 10**6,
             'deep-65': b'{"a":' * 65 + b'1' + b'}' * 65,
             'injected': b'{},"records":0,"sites":999,"injected":"x"'}
    if SANITIZED:
        cases = {k: cases[k] for k in ('deep-1e6', 'injected')}
    for name, bad in cases.items():
        state, out = os.path.join(tmp, 'cs-' + name), os.path.join(tmp, 'co-' + name)
        p = run([BINARY, 'census', '-q', '--state', state, '-o', out, corpus])
        check(p.returncode == 0, '%s: first run: %s' % (name, err(p)))
        before = outputs(out)
        victim = os.path.join(state, partials(state)[0])
        at = craft(victim, example, bad)
        p = run([BINARY, 'census', '-q', '--state', state, '-o', out, corpus])
        msg = err(p)
        check(p.returncode == 2, '%s: resumed census: exit %d, not 2: %s' % (name, p.returncode, msg))
        check(victim in msg and 'at byte ' in msg, '%s: not named with its offset: %s' % (name, msg))
        offset = int(msg.split('at byte ')[1].split(':')[0].split(' ')[0]) if 'at byte ' in msg else -1
        check(at <= offset <= at + 8, '%s: offset %d, the example is at %d' % (name, offset, at))
        check(outputs(out) == before, '%s: the resumed census changed OUTDIR' % name)
        left = [f for f in os.listdir(tmp) if '.tc-new-' in f or '.tc-old-' in f]
        check(not left, '%s: staging folders left: %s' % (name, left))
        # The merge reads the same partial.
        shard = os.path.join(tmp, 'cm-' + name)
        p = run([BINARY, 'census', '-q', '--state', shard, '--shard', '0/1', corpus])
        check(p.returncode == 0, '%s: shard run: %s' % (name, err(p)))
        victim = os.path.join(shard, partials(shard)[0])
        craft(victim, example, bad)
        merged = os.path.join(tmp, 'cmo-' + name)
        p = run([BINARY, 'merge', '-o', merged, shard])
        check(p.returncode == 2 and victim in err(p) and 'at byte ' in err(p),
              '%s: merge: exit %d: %s' % (name, p.returncode, err(p)))
        check(not os.path.exists(merged), '%s: the merge wrote its OUTDIR' % name)


def test_fifos(tmp):
    corpus = os.path.join(tmp, 'fifo-corpus')
    write_site(corpus, 'a', trace(5))
    write_site(corpus, 'b', trace(6))
    state, out = os.path.join(tmp, 'fifo-state'), os.path.join(tmp, 'fifo-out')
    p = run([BINARY, 'census', '-q', '--state', state, '-o', out, corpus])
    check(p.returncode == 0, 'fifo: first run: %s' % err(p))
    victim = os.path.join(state, partials(state)[0])
    os.unlink(victim)
    os.mkfifo(victim)
    p = run([BINARY, 'census', '-q', '--state', state, '-o', out, corpus], timeout=60)
    check(p.returncode == 2 and victim in err(p) and 'not a regular file' in err(p),
          'a FIFO partial: exit %d: %s' % (p.returncode, err(p)))
    shard = os.path.join(tmp, 'fifo-shard')
    p = run([BINARY, 'census', '-q', '--state', shard, '--shard', '0/1', corpus])
    record = os.path.join(shard, 'shard.tcr')
    os.unlink(record)
    os.mkfifo(record)
    p = run([BINARY, 'merge', '-o', os.path.join(tmp, 'fifo-merged'), shard], timeout=60)
    check(p.returncode == 2 and record in err(p) and 'not a regular file' in err(p),
          'a FIFO shard record: exit %d: %s' % (p.returncode, err(p)))
    fake = os.path.join(tmp, 'fifo-outputs')
    shutil.copytree(out, fake)
    os.unlink(os.path.join(fake, 'census.json'))
    os.mkfifo(os.path.join(fake, 'census.json'))
    p = run([BINARY, 'diff', out, fake], timeout=60)
    check(p.returncode == 2 and 'census.json' in err(p) and 'not a regular file' in err(p),
          'a FIFO census.json for diff: exit %d: %s' % (p.returncode, err(p)))


def test_lock(tmp):
    corpus = os.path.join(tmp, 'lock-corpus')
    for i in range(8):
        write_site(corpus, 'site-%02d' % i, trace(20000))
    state = os.path.join(tmp, 'lock-state')
    tries = 3 if SANITIZED else 20
    turned_away = 0
    for k in range(tries):
        first = subprocess.Popen([BINARY, 'census', '-q', '-T', '1', '--state', state, '-o',
                                  os.path.join(tmp, 'lock-out'), corpus],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        lock = os.path.join(state, '.tc-lock')
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if open(lock).read().strip() == str(first.pid):
                    break
            except OSError:
                pass
            time.sleep(0.005)
        t0 = time.time()
        p = run([BINARY, 'census', '-q', '--state', state, '-o', os.path.join(tmp, 'lock-out2'),
                 corpus], timeout=60)
        fast = time.time() - t0 < 10
        busy = first.poll() is None
        if p.returncode == 2 and 'pid %d' % first.pid in err(p) and fast:
            turned_away += 1
        elif busy:
            check(False, 'try %d: the second run was not turned away: exit %d: %s' %
                  (k, p.returncode, err(p)))
        if k < tries - 1:
            first.send_signal(signal.SIGKILL)
            first.wait()
        else:
            _, e = first.communicate(timeout=600)
            check(first.returncode == 0, 'the first run, left to finish: exit %d: %s' %
                  (first.returncode, e.decode()))
        shutil.rmtree(state, ignore_errors=True)
    check(turned_away == tries, 'the second run was turned away %d times of %d' % (turned_away, tries))


def test_shard_messages(tmp):
    corpus = os.path.join(tmp, 'shard-corpus')
    counts = {}
    for i in range(8):
        write_site(corpus, 'good-%d' % i, trace(10 + i))
        counts['good-%d' % i] = 12 + i  # with the two metadata events
    broken = {
        'bad-not-trace': b'hello, not a trace',
        'bad-truncated': json.dumps({"traceEvents": trace(5)}).encode()[:-30],
        'bad-trailing': json.dumps({"traceEvents": trace(5)}).encode() + b' {"more": 1}',
    }
    for site, raw in broken.items():
        write_site(corpus, site, raw=raw)
    paths = {s: os.path.join(corpus, s, 'trace.json') for s in list(counts) + list(broken)}
    named = {s: 0 for s in broken}
    lines = {}
    for k in range(2):
        state = os.path.join(tmp, 'shard-%d' % k)
        p = run([BINARY, 'census', '-q', '--state', state, '--shard', '%d/2' % k, corpus])
        msg = err(p)
        for s in counts:
            check(paths[s] not in msg, 'shard %d names the good %s: %s' % (k, s, msg))
        for s in broken:
            named[s] += paths[s] in msg
        check('could not be read back' not in msg, 'shard %d: %s' % (k, msg))
        p = run([BINARY, 'census', '-v', '--state', state, '--shard', '%d/2' % k, corpus])
        for line in err(p).splitlines():
            for s, path in paths.items():
                if line.startswith('tracecensus: %s: site ' % path):
                    lines[s] = lines.get(s, 0) + 1
                    check(line.split(': site ')[1].startswith(s + ','), '-v line of another site: ' + line)
                    if s in counts:
                        check(' %d events,' % counts[s] in line, '-v counts of %s: %s' % (s, line))
    for s, n in named.items():
        check(n == 1, '%s is named by %d shards, not 1' % (s, n))
    for s in paths:
        check(lines.get(s) == 1, '%s has %s -v lines over the shards, not 1' % (s, lines.get(s)))
    clean = os.path.join(tmp, 'clean-corpus')
    for i in range(6):
        write_site(clean, 'c-%d' % i, trace(4 + i))
    for k in range(2):
        p = run([BINARY, 'census', '-q', '--state', os.path.join(tmp, 'clean-%d' % k), '--shard',
                 '%d/2' % k, clean])
        check(p.returncode == 0 and p.stderr == b'', 'clean shard %d with -q: exit %d: %r' %
              (k, p.returncode, p.stderr))
    # Shard 1 of 2 in shard 0's folder would hide shard 0 from the merge.
    shared = os.path.join(tmp, 'clean-0')
    before = sorted(os.listdir(shared))
    p = run([BINARY, 'census', '-q', '--state', shared, '--shard', '1/2', clean])
    check(p.returncode == 2 and 'holds another shard of the run' in err(p) and
          'it holds shard 0/2' in err(p), 'another shard in one folder: exit %d: %s' %
          (p.returncode, err(p)))
    check(sorted(os.listdir(shared)) == before, 'the refused shard changed its folder')
    p = run([BINARY, 'census', '-q', '--state', shared, '--shard', '0/3', clean])
    check(p.returncode == 0, 'another shard count may take the folder over: %s' % err(p))


def test_settings(tmp):
    corpus = os.path.join(tmp, 'set-corpus')
    for i in range(4):
        ev = trace(30 + i, 'Nav', {"data": {"url": "https://a%d.test/path/%d?q" % (i % 2, i)}})
        write_site(corpus, 's%d' % i, ev)
    job_of = {}

    def job(extra, out):
        path = os.path.join(tmp, 'job-%d.job' % len(job_of))
        with open(path, 'w') as f:
            f.write('corpus = %s\noutput = %s\n%s' % (corpus, out or os.path.join(tmp, 'jo'), extra))
        job_of[path] = out
        return path

    options = [('whole_urls', ['--whole-urls']), ('value-sites', ['--value-sites', '1']),
               ('scope', ['--scope', 'all']), ('metrics', ['--no-metrics']),
               ('bucket_ms', None)]
    if SANITIZED:
        options = options[:1] + options[-1:]
    for setting, opt in options:
        def cmd(with_opt, state=None, out=None, shard=None):
            if opt is None:
                c = [BINARY, 'run', '-q', job('bucket_ms = 100\n' if with_opt else '', out)]
            else:
                c = [BINARY, 'census', '-q'] + (opt if with_opt else [])
                if out:
                    c += ['-o', out]
                c += [corpus]
            if state:
                c[2:2] = ['--state', state]
            if shard:
                c[2:2] = ['--shard', shard]
            return c
        for first in (True, False):
            state = os.path.join(tmp, 'set-%s-%d' % (setting, first))
            fresh = os.path.join(tmp, 'fresh-%s-%d' % (setting, first))
            out = os.path.join(tmp, 'res-%s-%d' % (setting, first))
            p = run(cmd(not first, out=fresh))
            check(p.returncode == 0, '%s: fresh run: %s' % (setting, err(p)))
            p = run(cmd(first, state=state, out=out))
            check(p.returncode == 0, '%s: first run: %s' % (setting, err(p)))
            p = run([a for a in cmd(not first, state=state, out=out) if a != '-q'])
            check(p.returncode == 0, '%s: resume: %s' % (setting, err(p)))
            same_products(fresh, out, '%s resumed (state made %s it)' % (setting, 'with' if first else 'without'))
            msg = err(p).replace('-', '_')
            if setting not in ('value-sites',):
                check('another %s' % setting.replace('-', '_') in msg,
                      '%s: the resume does not say which setting made it rerun: %s' % (setting, err(p)))
        a, b = os.path.join(tmp, 'm-%s-a' % setting), os.path.join(tmp, 'm-%s-b' % setting)
        run(cmd(True, state=a, shard='0/2'))
        run(cmd(False, state=b, shard='1/2'))
        merged = os.path.join(tmp, 'm-%s-out' % setting)
        p = run([BINARY, 'merge', '-o', merged, a, b])
        check(p.returncode == 2 and ('their %s differs' % setting) in err(p),
              '%s: merge of shards of different settings: exit %d: %s' % (setting, p.returncode, err(p)))
        check(not os.path.exists(merged), '%s: the refused merge wrote OUTDIR' % setting)


def test_diff_reads_its_outputs(tmp):
    corpus = os.path.join(tmp, 'diff-corpus')
    write_site(corpus, b'site\xff', trace(3, 'A'))
    write_site(corpus, b'site\xfe', trace(4, 'B'))
    deep = 1
    for _ in range(62):
        deep = {"d": deep}
    write_site(corpus, 'deep', trace(2, 'Deep', {"x": deep}))
    out = os.path.join(tmp, 'diff-out')
    p = run([BINARY, 'census', '-q', '-o', out, corpus])
    check(p.returncode == 0, 'census of the diff corpus: %s' % err(p))
    runj = json.load(open(os.path.join(out, 'run.json'), encoding='utf-8'))
    hexes = sorted(s.get('site_hex', '') for s in runj['sites'])
    check(hexes == ['', '73697465fe', '73697465ff'], 'run.json site_hex: %s' % hexes)
    census = json.load(open(os.path.join(out, 'census.json'), encoding='utf-8'))
    ex = [e for e in census['events'] if e['name'] == 'Deep']
    check(ex and ex[0].get('example'), 'the 63-deep event is not the example')
    p = run([BINARY, 'diff', out, out])
    check(p.returncode == 0, 'diff o o: exit %d: %s' % (p.returncode, err(p)))
    for bad in (-5, 1e300, 1.5):
        other = os.path.join(tmp, 'diff-bad-%s' % bad)
        shutil.copytree(out, other)
        j = json.loads(open(os.path.join(other, 'run.json'), encoding='utf-8').read())
        j['sites'][0]['traces'] = bad
        open(os.path.join(other, 'run.json'), 'w').write(json.dumps(j))
        p = run([BINARY, 'diff', out, other])
        check(p.returncode == 2 and 'run.json' in err(p) and 'traces' in err(p),
              'traces %s: exit %d: %s' % (bad, p.returncode, err(p)))
    # A --no-metrics folder has no metrics.json; a refusal of its other
    # files still names them inside the folder (a fuzz_diff finding).
    for name, damage in (('census.json', lambda j: j.pop('tool')),
                         ('run.json', lambda j: j.pop('sites'))):
        other = os.path.join(tmp, 'diff-nometrics-%s' % name)
        shutil.copytree(out, other)
        os.unlink(os.path.join(other, 'metrics.json'))
        j = json.loads(open(os.path.join(other, name), encoding='utf-8').read())
        damage(j)
        open(os.path.join(other, name), 'w').write(json.dumps(j))
        p = run([BINARY, 'diff', out, other])
        check(p.returncode == 2 and os.path.join(other, name) in err(p),
              'damaged %s without metrics.json: exit %d: %s' % (name, p.returncode, err(p)))


def test_merge_message_cap(tmp):
    corpus = os.path.join(tmp, 'cap-corpus')
    write_site(corpus, 'only', trace(3))
    state = os.path.join(tmp, 'cap-state')
    p = run([BINARY, 'census', '-q', '--state', state, '--shard', '0/1000000', corpus])
    check(p.returncode == 0, 'a shard of 10^6: %s' % err(p))
    t0 = time.time()
    p = run([BINARY, 'merge', '-o', os.path.join(tmp, 'cap-out'), state], timeout=120)
    took = time.time() - t0
    msg = err(p)
    check(p.returncode == 2 and 'and 999989 more shards' in msg,
          'merge of 1 of 10^6 shards: exit %d: %s' % (p.returncode, msg[:2000]))
    check(len(msg) < 4000, 'the missing-shards message is %d bytes' % len(msg))
    check(took < 60, 'the merge took %.1f s' % took)


def test_few_descriptors(tmp):
    corpus = os.path.join(tmp, 'fd-corpus')
    for i in range(3):
        write_site(corpus, 'f%d' % i, trace(50 + i))
    ref = os.path.join(tmp, 'fd-ref')
    p = run([BINARY, 'census', '-q', '-T', '2', '-o', ref, corpus])
    check(p.returncode == 0, 'fd: reference run: %s' % err(p))
    out = os.path.join(tmp, 'fd-out')

    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (10, 10))
    p = run([BINARY, 'census', '-q', '-T', '2', '-o', out, corpus], preexec_fn=limit)
    check(p.returncode == 0, 'ulimit -n 10: exit %d: %s' % (p.returncode, err(p)))
    same_products(ref, out, 'ulimit -n 10')


def test_job_missing_corpus(tmp):
    job = os.path.join(tmp, 'nocorpus.job')
    with open(job, 'w') as f:
        f.write('corpus = %s\noutput = %s\n' % (os.path.join(tmp, 'nowhere'), os.path.join(tmp, 'jo')))
    p = run([BINARY, 'run', job])
    check(p.returncode == 2 and ('%s: corpus %s' % (job, os.path.join(tmp, 'nowhere'))) in err(p) and
          ('%s: no corpus of the job exists' % job) in err(p),
          'a job whose only corpus is missing: exit %d: %s' % (p.returncode, err(p)))


def test_merge_lock(tmp):
    """A merge holds each state folder's lock while it reads it: one that a
    run holds is refused at once, naming the folder and the holder's pid,
    and nothing is written; once the lock is free the same merge runs."""
    import fcntl
    corpus = os.path.join(tmp, 'mlock-corpus')
    for i in range(3):
        write_site(corpus, 'site-%d' % i, trace(50))
    state = os.path.join(tmp, 'mlock-state')
    p = run([BINARY, 'census', '-q', '--state', state, '--shard', '0/1', corpus], timeout=120)
    check(p.returncode == 0, 'a state folder for the merge: exit %d: %s' % (p.returncode, err(p)))
    out = os.path.join(tmp, 'mlock-out')
    with open(os.path.join(state, '.tc-lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        lock.write('%d\n' % os.getpid())
        lock.flush()
        t0 = time.time()
        p = run([BINARY, 'merge', '-o', out, state], timeout=60)
        check(p.returncode == 2 and state in err(p) and 'pid %d' % os.getpid() in err(p)
              and time.time() - t0 < 10 and not os.path.exists(out),
              'a merge of a state folder a run holds is refused at once, nothing written: exit %d: %s'
              % (p.returncode, err(p)))
    missing = os.path.join(tmp, 'mlock-no-tmp')
    p = run([BINARY, 'merge', '-o', out, state], timeout=120, env={**os.environ, 'TMPDIR': missing})
    check(p.returncode == 2 and "merge failed: cannot write the run's scratch records in %s: No such "
          "file or directory" % missing in err(p) and not os.path.exists(out),
          'a merge without its scratch folder names it: exit %d: %s' % (p.returncode, err(p)))
    p = run([BINARY, 'merge', '-o', out, state], timeout=120)
    check(p.returncode == 0 and os.path.exists(os.path.join(out, 'census.json')),
          'the same merge once the lock is free: exit %d: %s' % (p.returncode, err(p)))


def main():
    tmp = tempfile.mkdtemp(prefix='tc-trust-')
    try:
        for t in (test_crafted_partials, test_fifos, test_shard_messages, test_settings,
                  test_diff_reads_its_outputs, test_merge_message_cap, test_few_descriptors,
                  test_job_missing_corpus, test_lock, test_merge_lock):
            t0 = time.time()
            t(tmp)
            print('%s: %.1f s' % (t.__name__, time.time() - t0), file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print('%d failures' % len(failures), file=sys.stderr)
        return 1
    print('ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
