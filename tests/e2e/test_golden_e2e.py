"""The golden test: the bundled job (jobs/bundled.job, the census and metrics
of corpus/crawl with its manifest) run into a temp dir must write exactly the
committed reports/bundled/, file for file and byte for byte, except the
run.json fields that are facts of this run and this host, named below; and
so must the same job at -T 1 and at -T 2, run again over a state folder it
saved (every site reused), and the merge of its four shards. Under a
sanitizer (TC_SANITIZED) the -T 1 run and the shards and merge are left to
the release build (test_state_e2e runs shards and merges under sanitizers).

A change that alters any output fails here; when it is meant to, regenerate
reports/bundled/ (bash scripts/main.sh) and commit it with the change."""
import json
import os
import re
import subprocess
import sys

from e2e_common import BINARY, ROOT, SANITIZED, scratch

GOLDEN = os.path.join(ROOT, 'reports', 'bundled')
JOB = os.path.join(ROOT, 'jobs', 'bundled.job')

# run.json keys whose values are timings or facts of the host, not of the
# input: wall time, throughput, peak memory, worker count, the simdjson
# kernel the CPU chose. The bundled job puts them in host.json (timings =
# host.json), so a run of it leaves run.json the same bytes but for `job`,
# the job file's path (a temp copy here). A merge knows no job's timings
# setting: its run.json has them, and how many state folders it folded.
HOST_FACTS = ('seconds', 'json_mb_per_s', 'peak_rss_kib', 'threads', 'simdjson_kernel')
RUN_MASK = ('job',)
MERGE_MASK = HOST_FACTS + ('host_facts_in', 'job', 'merged_folders')


def job_into(outdir, path):
    """The bundled job with its output redirected to OUTDIR, written to PATH,
    which must be in jobs/ beside it: its relative paths are taken from the
    job file's folder."""
    with open(JOB, encoding='utf-8') as f:
        lines = f.read().splitlines()
    out = [l for l in lines if not re.match(r'\s*output\s*=', l)]
    assert len(out) == len(lines) - 1, 'bundled.job names no output'
    out.append('output = ' + outdir)
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


def masked(text, keys):
    """TEXT's lines, each line of one of KEYS cut to its key; host_facts_in,
    which only a job's run writes, dropped when it is one of KEYS."""
    key = re.compile(r'^(\s*"(%s)": ).*$' % '|'.join(keys))
    return [key.sub(r'\1', l) for l in text.splitlines()
            if not ('host_facts_in' in keys and l.lstrip().startswith('"host_facts_in": '))]


def diff_run_json(golden, fresh, keys):
    """Line by line, a line of one of KEYS compared by its key alone."""
    g, n = masked(golden, keys), masked(fresh, keys)
    problems = []
    if len(g) != len(n):
        problems.append('run.json: %d lines, golden has %d' % (len(n), len(g)))
    for i, (a, b) in enumerate(zip(g, n), 1):
        if a != b:
            problems.append('run.json:%d: golden %r, now %r' % (i, a, b))
    return problems


def outputs(folder):
    """The output files of FOLDER less host.json, which is not committed."""
    return sorted(n for n in os.listdir(folder) if n != 'host.json')


def compare(outdir, how, keys=RUN_MASK):
    golden, fresh = outputs(GOLDEN), outputs(outdir)
    problems = []
    if golden != fresh:
        problems.append('%s: files: golden %s, now %s' % (how, golden, fresh))
    for name in sorted(set(golden) & set(fresh)):
        with open(os.path.join(GOLDEN, name), encoding='utf-8') as f:
            a = f.read()
        with open(os.path.join(outdir, name), encoding='utf-8') as f:
            b = f.read()
        if name == 'run.json':
            problems += ['%s: %s' % (how, p) for p in diff_run_json(a, b, keys)]
        elif a != b:
            al, bl = a.splitlines(), b.splitlines()
            first = next((i for i, (x, y) in enumerate(zip(al, bl)) if x != y), min(len(al), len(bl)))
            problems.append('%s: %s differs from line %d (golden %d lines, now %d)'
                            % (how, name, first + 1, len(al), len(bl)))
    return problems


def run(args, how):
    p = subprocess.run([BINARY, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit('%s failed (%d): %s' % (how, p.returncode, p.stderr))


def main():
    tmp = scratch('tc-golden-')
    job = os.path.join('jobs', '.golden-%d.job' % os.getpid())
    try:
        check_all(tmp, job)
    finally:
        if os.path.exists(os.path.join(ROOT, job)):
            os.remove(os.path.join(ROOT, job))


def check_merge(tmp, job):
    """The job's four shards merged in reverse order write the same outputs;
    under a sanitizer test_state_e2e's shards and merges run that code."""
    problems = []
    shards = [os.path.join(tmp, 'shard-%d' % i) for i in range(4)]
    for i, st in enumerate(shards):
        run(['run', '-q', '-T', '2', '--state', st, '--shard', '%d/4' % i, job], 'shard %d/4' % i)
    merged = os.path.join(tmp, 'merged')
    run(['merge', '-q', '-o', merged, *reversed(shards)], 'merge')
    # A merge prints by the default --value-sites and knows no job's timings.
    problems += compare(merged, 'merged', MERGE_MASK)
    # It read no trace, so it claims no throughput: the four folders instead.
    with open(os.path.join(merged, 'run.json'), encoding='utf-8') as f:
        facts = json.load(f)
    if (facts['merged_folders'], facts['json_mb_per_s']) != (4, None):
        problems.append('merged run.json: merged_folders %r, json_mb_per_s %r (want 4, null)'
                        % (facts['merged_folders'], facts['json_mb_per_s']))
    # The merge's end line (the merge above was -q).
    p = subprocess.run([BINARY, 'merge', '-o', merged + '-line', *shards], capture_output=True,
                       text=True, timeout=600)
    if not re.search(r'MB of JSON merged from 4 state folders in [0-9.]+ s -> ', p.stderr) or \
            'MB/s' in p.stderr:
        problems.append('merge end line: %r' % p.stderr)
    return problems


def check_all(tmp, job):
    problems = []
    state = os.path.join(tmp, 'state')
    # Under a sanitizer, each code path once: -T 2 saving its state (the
    # release run repeats it at -T 1 and without state).
    runs = ((('2', ['--state', state], '-T 2'),) if SANITIZED else
            (('2', [], '-T 2'), ('1', ['--state', state], '-T 1')))
    for threads, extra, how in runs + (('2', ['--state', state], 'resumed'),):
        outdir = os.path.join(tmp, 'out-' + how.replace(' ', ''))
        job_into(outdir, os.path.join(ROOT, job))
        run(['run', '-q', '-T', threads, *extra, job], how)
        problems += compare(outdir, how)
    # A run of the job: its host facts in host.json, null in run.json.
    with open(os.path.join(outdir, 'run.json'), encoding='utf-8') as f:
        facts = json.load(f)
    with open(os.path.join(outdir, 'host.json'), encoding='utf-8') as f:
        host = json.load(f)
    if facts['merged_folders'] != 0 or facts['host_facts_in'] != 'host.json' or \
            any(facts[k] is not None for k in HOST_FACTS):
        problems.append('run.json of a run: %r' % {k: facts.get(k) for k in
                                                   HOST_FACTS + ('merged_folders', 'host_facts_in')})
    if sorted(host) != sorted(HOST_FACTS) or not host['json_mb_per_s'] > 0 or \
            not host['seconds'] > 0 or not host['peak_rss_kib'] > 0 or host['threads'] != 2:
        problems.append('host.json of a run at -T 2: %r' % host)
    if not SANITIZED:
        problems += check_merge(tmp, job)
    subprocess.run(['rm', '-rf', tmp], check=False)
    if problems:
        sys.exit('reports/bundled differs:\n  ' + '\n  '.join(problems[:40]))
    print('golden: reports/bundled identical at %s, resumed%s (run.json less its job path)'
          % (', '.join(how for _, _, how in runs), '' if SANITIZED else ' and merged'))


if __name__ == '__main__':
    main()
