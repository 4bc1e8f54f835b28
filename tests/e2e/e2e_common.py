"""Shared set-up of the end-to-end tests: where the binary, the repository
and the third-party traces are, and how to run a census into a temp dir."""
import atexit
import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
SHARED = os.environ.get('TC_SHARED', os.path.abspath(os.path.join(ROOT, '..', 'shared')))
THIRD_PARTY = os.path.join(SHARED, 'traces', 'third-party')
BINARY = os.environ.get('TRACECENSUS', os.path.join(ROOT, 'build', 'tracecensus'))
# Under a sanitizer build (scripts/test.sh sets it) a test runs each code
# path once rather than every repetition of it: the release run checks the
# repetitions, the sanitizer the memory and the threads on those paths.
SANITIZED = os.environ.get('TC_SANITIZED') == '1'
# Under TSan (scripts/test.sh sets it too) only the paths where threads
# share data: runs at -T 2. The one-worker paths (signals, resume after a
# kill) are the release and ASan runs' to check.
TSAN = os.environ.get('TC_TSAN') == '1'


def scratch(prefix):
    """A new temp dir, removed when the test process ends (TC_KEEP_TMP=1
    keeps it, to read what a failing test left)."""
    d = tempfile.mkdtemp(prefix=prefix)
    if os.environ.get('TC_KEEP_TMP') != '1':
        atexit.register(shutil.rmtree, d, True)
    return d


def run_census(inputs, threads=2, extra=(), outdir=None):
    """Runs `tracecensus census`; returns (returncode, stderr, outdir)."""
    outdir = outdir or scratch('tc-e2e-')
    cmd = [BINARY, 'census', '-T', str(threads), '-o', outdir, *extra, *inputs]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stderr, outdir


def load(outdir, name='census.json'):
    with open(os.path.join(outdir, name), encoding='utf-8') as f:
        return json.load(f)


def third_party_files():
    return sorted(os.path.join(THIRD_PARTY, f) for f in os.listdir(THIRD_PARTY))


def read_trace(path):
    """A trace file's JSON bytes (gunzipped) and its events (the array, or
    traceEvents of the object form)."""
    import gzip
    with open(path, 'rb') as f:
        raw = f.read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    return raw, (doc.get('traceEvents', []) if isinstance(doc, dict) else doc)
