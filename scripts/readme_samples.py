#!/usr/bin/env python3
"""The README's sample outputs, made from the bundled crawl by the current
binary, so that none can go stale.

A sample in README.md is a fenced block right after a line
`<!-- sample NAME -->`; SAMPLES below says what each NAME shows. Without
options the blocks are rewritten in place; with --check nothing is written
and the exit status is 1 when a block differs from what the binary prints
now (tests/e2e runs that). Timings and throughput differ from run to run and
from host to host, so --check compares them as placeholders only, and a
rewrite keeps them unless --host is given (run that on a quiet machine).

Usage: scripts/readme_samples.py [--check | --host]   (TRACECENSUS names the
binary; default build/tracecensus)
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, 'README.md')
MARK = re.compile(r'^<!-- sample ([a-z0-9-]+) -->$')
# The figures of the end-of-run line that are facts of this run's host.
HOST = re.compile(r'in [0-9.]+ s \([0-9]+ MB/s on disk, [0-9]+ MB/s of JSON, ')
# The README's own quick-start command, run in a folder where corpus/ is the
# repository's: its output names OUTDIR as the reader would type it.
COMMAND = ['census', '-T', '2', '--manifest', 'corpus/crawl/manifest.tsv', '-o', 'out',
           'corpus/crawl']


def between(text, first, last):
    """The lines of TEXT from the line FIRST through the first line after it
    that starts with LAST."""
    lines = text.splitlines()
    start = lines.index(first)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(last))
    return '\n'.join(lines[start:end + 1])


def table_head(text, heading, rows):
    """The table under HEADING in TEXT: its header, rule and first ROWS rows."""
    lines = text.splitlines()
    start = next(i for i in range(lines.index(heading), len(lines)) if lines[i].startswith('|'))
    return '\n'.join(lines[start:start + 2 + rows])


def samples(binary):
    """NAME -> the sample's text, from one run of the quick start."""
    with tempfile.TemporaryDirectory(prefix='tc-readme-') as tmp:
        os.symlink(os.path.join(ROOT, 'corpus'), os.path.join(tmp, 'corpus'))
        p = subprocess.run([binary, *COMMAND], cwd=tmp, capture_output=True, text=True,
                           timeout=600)
        if p.returncode != 0:
            sys.exit('readme_samples: %s failed (%d): %s' % (' '.join(COMMAND), p.returncode,
                                                             p.stderr))
        with open(os.path.join(tmp, 'out', 'census.md'), encoding='utf-8') as f:
            census_md = f.read()
        with open(os.path.join(tmp, 'out', 'metrics.md'), encoding='utf-8') as f:
            metrics_md = f.read()
    return {
        'quick-start': '$ tracecensus ' + ' '.join(COMMAND) + '\n' + p.stderr.rstrip('\n'),
        'end-line': p.stderr.rstrip('\n'),
        'census-entry': between(census_md, '## ParseHTML', '**duration**'),
        'metrics-corpus': table_head(metrics_md, '## Corpus', 6),
    }


def blocks(lines):
    """(name, first line, end line) of each sample block's contents."""
    out = []
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith('```'):
            sys.exit('readme_samples: README.md:%d: a sample mark must precede a fenced block'
                     % (i + 1))
        end = next((k for k in range(i + 2, len(lines)) if lines[k].startswith('```')), None)
        if end is None:
            sys.exit('readme_samples: README.md:%d: the block is never closed' % (i + 2))
        out.append((m.group(1), i + 2, end))
    return out


def main():
    # --host also rewrites the run's host figures (seconds, MB/s), which a
    # rewrite otherwise leaves as they are: run it on a quiet machine.
    check = sys.argv[1:] == ['--check']
    host = sys.argv[1:] == ['--host']
    if sys.argv[1:] not in ([], ['--check'], ['--host']):
        sys.exit('usage: scripts/readme_samples.py [--check | --host]')
    binary = os.path.abspath(os.environ.get('TRACECENSUS') or os.path.join(ROOT, 'build', 'tracecensus'))
    fresh = samples(binary)
    with open(README, encoding='utf-8') as f:
        lines = f.read().split('\n')
    found = blocks(lines)
    unknown = sorted({n for n, _, _ in found} - set(fresh))
    if unknown:
        sys.exit('readme_samples: README.md names samples no one makes: ' + ', '.join(unknown))
    stale = []
    for name, first, end in reversed(found):
        old = '\n'.join(lines[first:end])
        if (old != fresh[name]) if host else (HOST.sub('in S', old) != HOST.sub('in S', fresh[name])):
            stale.append((name, old, fresh[name]))
            lines[first:end] = fresh[name].split('\n')
    if check:
        for name, old, new in stale:
            sys.stdout.writelines(difflib.unified_diff(
                (old + '\n').splitlines(True), (new + '\n').splitlines(True),
                'README.md sample ' + name, 'now'))
        print('readme_samples: %d samples, %d stale%s' % (
            len(found), len(stale), ' (run scripts/readme_samples.py)' if stale else ''))
        return 1 if stale else 0
    if stale:
        with open(README + '.tmp', 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines))
        os.replace(README + '.tmp', README)
    print('readme_samples: %d samples, %d rewritten' % (len(found), len(stale)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
