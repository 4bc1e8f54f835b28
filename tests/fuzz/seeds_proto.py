"""Writes seeds of fuzz_proto into OUTDIR: small Perfetto traces made with
tests/e2e/pftrace.py (slices, instants, annotations nested and in arrays,
descriptors, metadata), and the first 16 KiB of each committed protobuf
fixture (real Chrome packets: interning, clock snapshots, defaults,
flows). Each seed starts with the byte that picks the piece sizes."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'e2e'))
import pftrace  # noqa: E402

FIXTURES = [os.path.join(ROOT, 'corpus', 'proto', 'crawl'),
            os.path.join(ROOT, 'corpus', 'truth', 'proto', 'crawl')]


def made():
    yield pftrace.renderer_trace(tasks=2)
    t = pftrace.Trace()
    t.process(1, 7, 'Renderer')
    t.thread(2, 1, 7, 8, 'CrRendererMain')
    t.child(3, 1)
    t.slice(3, 'async', 10, 20, cats=['a', 'b'], args={'d': {'k': [1, 2.5, 'x', True]}})
    t.instant(2, 'i', 30, args={'deep': {'a': {'b': {'c': {}}}}})
    t.event(40, 2, 1, 'open')
    yield t.bytes()


def main(outdir):
    n = 0
    for data in made():
        for first in (0, 7):
            with open(os.path.join(outdir, 'made-%d' % n), 'wb') as f:
                f.write(bytes([first]) + data)
            n += 1
    for crawl in FIXTURES:
        if not os.path.isdir(crawl):
            continue
        for s in sorted(os.listdir(crawl)):
            d = os.path.join(crawl, s)
            if not os.path.isdir(d):
                continue
            for f in sorted(os.listdir(d)):
                p = subprocess.run(['zstd', '-dc', '--long=31', os.path.join(d, f)],
                                   capture_output=True)
                if p.returncode == 0:
                    with open(os.path.join(outdir, 'fixture-%d' % n), 'wb') as o:
                        o.write(b'\x03' + p.stdout[:16384])
                    n += 1


if __name__ == '__main__':
    main(sys.argv[1])
