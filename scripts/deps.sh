#!/usr/bin/env bash
# Installs what tracecensus needs on a fresh Debian bookworm machine, only what
# is missing. With --slurm, also Slurm and munge, for a test cluster on this
# machine (tests/slurm/cluster.sh). With --test, also what the test suite
# needs: Chromium for the recorder test and the HTML report's browser test,
# pandas for the test that loads the tables as an analyst would,
# Node for the schema and Lighthouse oracles and for playwright-core,
# shellcheck and Slurm for the Slurm suite, pandas to read census_args.csv back.
set -euo pipefail
# cmake only lets meson find libdragonbox-dev, which ships a CMake package and
# no pkg-config file. protobuf-c unpacks Perfetto traces (src/proto), its
# compiler makes the C from src/proto/tc_perfetto.proto.
pkgs=(meson ninja-build pkg-config cmake clang lld libzstd-dev libsimdjson-dev libdragonbox-dev
      zlib1g-dev libcmocka-dev libprotobuf-c-dev protobuf-c-compiler zstd gzip python3)
slurm=(slurmctld slurmd slurm-client munge)
for arg in "$@"; do
  case $arg in
    --slurm) pkgs+=("${slurm[@]}") ;;
    --test)
      pkgs+=(chromium libclang-rt-14-dev jq shellcheck python3-pandas "${slurm[@]}")
      # Node may come from elsewhere than Debian (as on the project's machines,
      # whose nodejs bundles npm and conflicts with Debian's npm package).
      command -v node >/dev/null || pkgs+=(nodejs)
      command -v npm >/dev/null || pkgs+=(npm)
      ;;
    *) echo "usage: scripts/deps.sh [--test] [--slurm]" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}" >&2
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
