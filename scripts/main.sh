#!/usr/bin/env bash
# README's first command: install what is missing, build, and run the main
# job (the census and metrics of the bundled corpus into reports/bundled/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
./build/tracecensus run jobs/bundled.job
