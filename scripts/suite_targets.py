#!/usr/bin/env python3
"""The ninja targets the tests of some suites need, so a sanitizer build
compiles only what its suites run (meson test --no-rebuild after).

Usage: scripts/suite_targets.py BUILDDIR [--suite S | --no-suite S]... [--also DIR]...
Prints the targets' paths relative to BUILDDIR, one per line: every
dependency and executable of each selected test (the --suite ones, else all
but the --no-suite ones), and every target under each --also folder (the
fuzz targets, which no test runs)."""
import json
import os
import subprocess
import sys


def introspect(build, what):
    out = subprocess.run(['meson', 'introspect', build, what], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def main(argv):
    if not argv:
        sys.exit(__doc__)
    build, rest = os.path.abspath(argv[0]), argv[1:]
    want, skip, also = set(), set(), []
    while rest:
        if len(rest) < 2 or rest[0] not in ('--suite', '--no-suite', '--also'):
            sys.exit(__doc__)
        {'--suite': want.add, '--no-suite': skip.add, '--also': also.append}[rest[0]](rest[1])
        rest = rest[2:]
    targets = {t['id']: t for t in introspect(build, '--targets')}
    paths = set()
    for test in introspect(build, '--tests'):
        suites = {s.split(':', 1)[-1] for s in test['suite']}
        for s in list(suites):
            suites.update(s.split('+'))
        if (want and not suites & want) or suites & skip:
            continue
        for dep in test['depends']:
            paths.update(targets[dep]['filename'])
        if test['cmd'] and test['cmd'][0].startswith(build + os.sep):
            paths.add(test['cmd'][0])
    for t in targets.values():
        for f in t['filename']:
            if any(f.startswith(os.path.join(build, a) + os.sep) for a in also):
                paths.add(f)
    for p in sorted(paths):
        print(os.path.relpath(p, build))


if __name__ == '__main__':
    main(sys.argv[1:])
