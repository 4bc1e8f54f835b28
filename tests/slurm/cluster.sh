#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, for tests.
#
#   cluster.sh up DIR        start munged, slurmctld and slurmd with all their
#                            state in DIR (created, must be new or empty); waits
#                            until the node is idle, prints SLURM_CONF=... (also
#                            written to DIR/env) for the client commands
#   cluster.sh down DIR      cancel its jobs, stop the three daemons by the pids
#                            recorded in DIR, remove DIR
#   cluster.sh run -- CMD..  up in a new temporary DIR, run CMD with SLURM_CONF
#                            exported, down whatever happens; exits with CMD's
#                            status (the daemons' logs are printed if CMD fails)
#
# There is no systemd on the project's machines, so nothing here goes through
# init scripts or /etc: the daemons run in the foreground in the background of
# this shell with their own config, munge key, socket, ports (free ones, picked
# at start) and spool folders, so two clusters, or a system Slurm, never meet.
# Debian's packages are installed by scripts/deps.sh --slurm when missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
daemons=(munged slurmctld slurmd) # start order; stopped in reverse
idle_wait_s=${TC_SLURM_IDLE_WAIT_S:-60}

say() { echo "cluster: $*" >&2; }
die() { say "$*"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

install_if_missing() {
  local bin missing=0
  for bin in munged mungekey slurmctld slurmd sinfo sbatch; do
    command -v "$bin" >/dev/null || missing=1
  done
  ((missing)) || return 0
  local t0; t0=$(now)
  bash "$root/scripts/deps.sh" --slurm || die "installing Slurm and munge failed"
  say "installed Slurm and munge in $(since "$t0") s"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Writes DIR/slurm.conf for one node, this host, with the CPUs and memory
# slurmd itself detects.
write_conf() {
  local dir=$1 node=$2 hw
  hw=$(slurmd -C | head -1 | sed -e 's/^NodeName=[^ ]* //')
  [[ $hw == *CPUs=* && $hw == *RealMemory=* ]] || die "slurmd -C gave no CPUs/RealMemory: $hw"
  cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/cluster.sh for a throw-away test cluster.
ClusterName=tctest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/slurmd
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups in these containers: track processes by parentage, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
# Cores only, not memory: jobs that ask for no memory would otherwise each
# take the whole node and run one at a time.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# FIFO, no backfill pass to wait for; and batch jobs scheduled at once
# rather than batched for up to 3 s (a 4-task array and its afterok job on a
# warm cluster: 2.8 s instead of 8.9 s). The first pass after slurmctld
# starts still comes 3 s later whatever these say.
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

# Starts one daemon in the foreground of a background job and records its pid.
# Its stderr, DIR/NAME.console, holds what it says before its log file is
# open (munged, in the foreground, logs only there).
spawn() {
  local dir=$1 name=$2
  shift 2
  "$@" </dev/null >"$dir/$name.console" 2>&1 &
  echo $! >"$dir/pids/$name"
}

show_logs() {
  local dir=$1 name f
  for name in "${daemons[@]}"; do
    f=$dir/$name.log
    [[ -s $f ]] || f=$dir/$name.console
    [[ -s $f ]] || continue
    echo "----- $f (last 40 lines)" >&2
    tail -n 40 "$f" >&2
  done
}

up() {
  local dir=$1 node t0 t_ctld state=""
  [[ $(id -u) -eq 0 ]] || die "needs root (slurmd starts each job as its user; SlurmUser=root)"
  [[ -e $dir/pids ]] && die "$dir already holds a cluster (cluster.sh down $dir first)"
  install_if_missing
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [[ -z $(ls -A "$dir") ]] || die "$dir is not empty"
  stop_at_exit=$dir
  t0=$(now)
  node=$(hostname -s)
  # munged checks every folder up to its socket: each must be executable by
  # all and writable by its owner only; the key must be 0600 or 0400.
  chmod 0755 "$dir"
  mkdir -m 0755 "$dir/munge"
  mkdir "$dir/pids" "$dir/ctld" "$dir/slurmd"
  mungekey --create --keyfile="$dir/munge/munge.key"
  chmod 0600 "$dir/munge/munge.key"
  write_conf "$dir" "$node"
  echo "SLURM_CONF=$dir/slurm.conf" >"$dir/env"
  export SLURM_CONF=$dir/slurm.conf

  spawn "$dir" munged munged --foreground --socket="$dir/munge/munge.sock" \
    --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed"
  local i
  for ((i = 0; i < 100; i++)); do
    [[ -S $dir/munge/munge.sock ]] && break
    sleep 0.1
  done
  if [[ ! -S $dir/munge/munge.sock ]]; then
    show_logs "$dir"; die "munged did not create its socket in 10 s"
  fi
  t_ctld=$(now)
  spawn "$dir" slurmctld slurmctld -D -f "$dir/slurm.conf"
  spawn "$dir" slurmd slurmd -D -f "$dir/slurm.conf" -N "$node"

  local deadline=$((SECONDS + idle_wait_s))
  while ((SECONDS < deadline)); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
    [[ $state == idle ]] && break
    for name in "${daemons[@]}"; do
      if ! kill -0 "$(cat "$dir/pids/$name")" 2>/dev/null; then
        show_logs "$dir"; die "$name exited during start-up (logs above)"
      fi
    done
    sleep 0.2
  done
  if [[ $state != idle ]]; then
    show_logs "$dir"
    die "node $node not idle after ${idle_wait_s} s (sinfo says '${state:-nothing}'; logs above)"
  fi
  say "up in $(since "$t0") s, node $node idle $(since "$t_ctld") s after slurmctld started ($dir)"
  echo "SLURM_CONF=$dir/slurm.conf"
}

# True if PID is still one of the daemons this DIR started (pids get reused).
ours() {
  local pid=$1 dir=$2
  [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$dir/"
}

# The step daemons of this cluster's jobs: slurmd's children, detached from it,
# recognisable by the SLURM_CONF that `up` exported before starting slurmd.
stepds() {
  local dir=$1 pid
  for pid in $(pgrep -x slurmstepd || true); do
    { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$dir/slurm.conf" &&
      echo "$pid"
  done
  return 0
}

stop_pid() {
  local pid=$1 dir=$2 i
  ours "$pid" "$dir" || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 100; i++)); do
    ours "$pid" "$dir" || return 0
    sleep 0.1
  done
  say "pid $pid ignored SIGTERM for 10 s, killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

down() {
  local dir=$1 i name pid
  [[ -d $dir/pids ]] || { rm -rf "$dir"; return 0; }
  dir=$(cd "$dir" && pwd)
  # Jobs first: slurmstepd outlives slurmd, so running jobs would be left
  # behind. scancel only reaches this cluster (SLURM_CONF).
  if [[ -f $dir/pids/slurmctld ]] && ours "$(cat "$dir/pids/slurmctld")" "$dir"; then
    export SLURM_CONF=$dir/slurm.conf
    # Bounded: a controller that does not answer is retried for MessageTimeout.
    timeout 10 scancel --quiet --user="$(id -un)" 2>/dev/null || true
    local deadline=$((SECONDS + 10))
    while ((SECONDS < deadline)) &&
      [[ -n $(timeout 5 squeue -h -t running,completing -o %i 2>/dev/null) ]]; do
      sleep 0.1
    done
  fi
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    name=${daemons[i]}
    [[ -f $dir/pids/$name ]] || continue
    pid=$(cat "$dir/pids/$name")
    stop_pid "$pid" "$dir"
  done
  for pid in $(stepds "$dir"); do
    say "slurmstepd $pid outlived its cluster, killing it"
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$dir"
}

run() {
  local dir rc=0
  dir=$(mktemp -d "${TMPDIR:-/tmp}/tc-slurm.XXXXXX")
  stop_at_exit=$dir
  up "$dir" >/dev/null
  export SLURM_CONF=$dir/slurm.conf
  "$@" || rc=$?
  if ((rc)); then
    say "command exited $rc; the daemons' logs follow"
    show_logs "$dir"
  fi
  return "$rc"
}

# A cluster this process started and must stop when it exits, whatever the
# reason: set from the first daemon on, cleared when `up` succeeds.
stop_at_exit=""
trap '[[ -z $stop_at_exit ]] || down "$stop_at_exit"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

case ${1:-} in
  up)
    [[ $# -eq 2 ]] || die "usage: cluster.sh up DIR"
    up "$2"
    stop_at_exit=""
    ;;
  down) [[ $# -eq 2 ]] || die "usage: cluster.sh down DIR"; down "$2" ;;
  run)
    shift
    [[ ${1:-} == -- ]] && shift
    [[ $# -gt 0 ]] || die "usage: cluster.sh run -- CMD [ARG...]"
    run "$@"
    ;;
  *) die "usage: cluster.sh up DIR | down DIR | run -- CMD [ARG...]" ;;
esac
