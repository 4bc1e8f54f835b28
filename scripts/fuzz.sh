#!/usr/bin/env bash
# Every fuzz target for longer than CI's 30 s, two at a time, on the ASan +
# UBSan build that scripts/test.sh makes (build-asan). CI's short runs keep
# what the seeds reach from regressing; deeper states take longer (a
# partial decoder's -0 that read back as 0 took fuzz_state 1.15 M runs,
# about six minutes). Ends with "fuzz: N clean, M failed".
#
#   scripts/fuzz.sh [SECONDS]   each target SECONDS (default 600); an input
#                               that breaks one is kept in
#                               build-asan/fuzz-artifacts/TARGET-crash-...
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
source scripts/fuzz_run.sh
secs=${1:-600}
[[ $secs =~ ^[1-9][0-9]*$ && $# -le 1 ]] || { echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2; }
# No suite is named "none": the selection is the fuzz targets alone.
# shellcheck disable=SC2086 # the options are words on purpose
bash scripts/build.sh build-asan --for "--suite none --also tests/fuzz" $asan_options || exit 1
export FUZZ_SECONDS=$secs FUZZ_ARTIFACTS=$PWD/build-asan/fuzz-artifacts
mkdir -p "$FUZZ_ARTIFACTS"
results=$(mktemp)
# What the targets and seed scripts make in $TMPDIR goes with the run, even
# after a crash (scripts/test.sh does the same for CI).
scratch=$(mktemp -d)
trap 'rm -rf "$results" "$scratch"' EXIT
export TMPDIR=$scratch
fuzz_all "$results"
cat "$results"
ok=$(grep -c ': ok (' "$results")
bad=$(grep -c ': FAILED$' "$results")
echo "fuzz: $ok clean, $bad failed"
[[ $bad -eq 0 ]]
