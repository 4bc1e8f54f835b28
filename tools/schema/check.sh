#!/bin/sh
# CI check for the DevTools schema: install the pinned packages, regenerate the
# committed data files, compare them byte for byte, run the tests.
# Exits non-zero on any difference or failure.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

status=0
compare() { # generated committed regenerate-command
    if ! cmp -s "$1" "$2"; then
        echo "check.sh: $2 is out of date; regenerate with: $3" >&2
        diff -u "$2" "$1" | head -40 >&2 || true
        status=1
    fi
}
node "$here/generate.js" > "$tmp/schema.json"
compare "$tmp/schema.json" "$root/data/devtools-schema.json" \
    "node tools/schema/generate.js > data/devtools-schema.json"
node "$here/tsv.js" "$tmp/schema.json" > "$tmp/schema.tsv"
compare "$tmp/schema.tsv" "$root/data/devtools-schema.tsv" \
    "node tools/schema/tsv.js > data/devtools-schema.tsv"
node "$here/manual_expectations.js" > "$tmp/expect.json"
compare "$tmp/expect.json" "$root/tests/schema/manual_expectations.json" \
    "node tools/schema/manual_expectations.js > tests/schema/manual_expectations.json"
node "$here/manual_expectations.js" --examples > "$tmp/examples.json"
compare "$tmp/examples.json" "$root/tests/schema/manual_examples.json" \
    "node tools/schema/manual_expectations.js --examples > tests/schema/manual_examples.json"

(cd "$root" && node --test tools/schema/test/*.test.js) || status=1
exit $status
