"""Writes seeds of fuzz_state's partial kinds into OUTDIR: real partials
that the built tracecensus (build/tracecensus, or $TRACECENSUS) writes for
three small third-party traces with --state, each whole (kinds 7 and 8) and
as its bare payload (kinds 9 and 10: the bytes between the 32-byte file and
section head and the 4-byte checksum). Without a binary it writes none."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
SHARED = os.environ.get('TC_SHARED', os.path.abspath(os.path.join(ROOT, '..', 'shared')))
THIRD_PARTY = os.path.join(SHARED, 'traces', 'third-party')
BINARY = os.environ.get('TRACECENSUS', os.path.join(ROOT, 'build', 'tracecensus'))


def main(outdir):
    if not os.path.exists(BINARY) or not os.path.isdir(THIRD_PARTY):
        return
    traces = sorted(os.path.join(THIRD_PARTY, f) for f in os.listdir(THIRD_PARTY))
    small = sorted(traces, key=os.path.getsize)[:3]
    with tempfile.TemporaryDirectory(prefix='tc-seeds-state-') as tmp:
        state = os.path.join(tmp, 'state')
        subprocess.run([BINARY, 'census', '-q', '-T', '1', '--state', state, '--shard', '0/1', *small],
                       capture_output=True, timeout=300)
        n = 0
        for name in sorted(os.listdir(state)) if os.path.isdir(state) else []:
            with open(os.path.join(state, name), 'rb') as f:
                data = f.read()
            whole, bare = (8, 10) if name.endswith('.tcr') else (7, 9)
            for kind, body in ((whole, data), (bare, data[32:-4])):
                with open(os.path.join(outdir, 'partial-%d-%d' % (n, kind)), 'wb') as f:
                    f.write(bytes([kind]) + body)
            n += 1


if __name__ == '__main__':
    main(sys.argv[1])
