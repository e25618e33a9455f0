#!/usr/bin/env bash
# Proves the Slurm recipe on a real Slurm: brings up a one-node cluster on
# localhost, runs a sharded `sim flip7` and a sharded tournament as job
# arrays with their merge jobs (scripts/slurm/submit.sh), checks that the
# merged files are byte-identical to one process playing the same run, and
# stops the daemons it started.
#
#   scripts/slurm/test-local-cluster.sh [SIM]     (default target/release/sim)
#
# Installs Debian's slurmctld, slurmd, slurm-client and munge when they are
# missing (needs root and the package registry). Needs no systemd and no
# cgroups: everything (config, state, logs, a private munge key and
# socket) lives in one temporary folder. Exit 0 when every check passed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sim=$(realpath "${1:-$root/target/release/sim}")
[ -x "$sim" ] || { echo "no sim binary at $sim (cargo build --release)" >&2; exit 2; }

step() { printf '== %s\n' "$*"; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    step "installing slurmctld, slurmd, slurm-client and munge"
    if [ "$(id -u)" -ne 0 ]; then
        echo "Slurm is not installed and this is not root: install slurmctld slurmd slurm-client munge" >&2
        exit 2
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null; }
fi

work=$(mktemp -d /tmp/sim-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null || true
    done
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

step "munge with a private key and socket in $work"
mkdir -p "$work/munge" "$work/spool" "$work/state" "$work/log" "$work/run"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" \
    --seed-file="$work/munge/munge.seed" --force
for _ in $(seq 50); do [ -s "$work/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/munge/munged.pid")")

step "slurm.conf for one node ($(hostname -s))"
node=$(slurmd -C | head -1)
user=$(id -un)
cat >"$work/slurm.conf" <<CONF
ClusterName=simtest
SlurmctldHost=$(hostname -s)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
MailProg=/bin/true
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=46817
SlurmdPort=46818
$node State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf

step "starting slurmctld and slurmd"
slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
    [ -s "$work/run/slurmctld.pid" ] && [ -s "$work/run/slurmd.pid" ] && break
    sleep 0.1
done
pids+=("$(cat "$work/run/slurmd.pid")" "$(cat "$work/run/slurmctld.pid")")
for _ in $(seq 100); do
    sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed)' && break
    sleep 0.2
done
sinfo -h -o '%T' | grep -qE '^(idle|mixed)' || { echo "the node did not come up" >&2; tail "$work/log/"*.log >&2; exit 1; }

# Waits for job $1 to leave the queue; prints its final state (no sacct
# without accounting storage: scontrol keeps a finished job for a while).
wait_job() {
    local state=""
    for _ in $(seq 1200); do
        state=$(scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2)
        case "$state" in
            COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | DEADLINE) break ;;
        esac
        sleep 0.25
    done
    echo "$state"
}

cd "$work"
fail=0
check() { # name, merge job, then pairs of files that must be equal
    local name=$1 job=$2
    shift 2
    local state
    state=$(wait_job "$job")
    if [ "$state" != COMPLETED ]; then
        echo "FAIL $name: merge job $job ended $state" >&2
        cat sim-*.out >&2 || true
        fail=1
        return
    fi
    while [ $# -gt 0 ]; do
        if cmp -s "$1" "$2"; then echo "ok   $name: $2 = $1"; else echo "FAIL $name: $2 differs from $1" >&2; fail=1; fi
        shift 2
    done
}

step "sim flip7 as 4 shards + merge"
"$sim" flip7 --games 200K --seed 17 --no-progress --out one.csv >/dev/null
ids=$("$root/scripts/slurm/submit.sh" 4 st-flip7 "$sim" flip7 --games 200K --seed 17 --out merged.csv)
echo "$ids"
check "sim flip7" "$(echo "$ids" | sed 's/.*merge: job \([0-9]*\).*/\1/')" one.csv merged.csv

step "sim tournament ib-flip as 3 shards + merge"
"$sim" tournament ib-flip --policies lowest,counter,saver --players 3 --games 20K --seed 5 --no-progress \
    --out t-one >/dev/null
ids=$("$root/scripts/slurm/submit.sh" 3 st-tour "$sim" tournament ib-flip --policies lowest,counter,saver \
    --players 3 --games 20K --seed 5 --out t-merged)
echo "$ids"
check "sim tournament" "$(echo "$ids" | sed 's/.*merge: job \([0-9]*\).*/\1/')" \
    t-one/standings.csv t-merged/standings.csv t-one/pairwise.csv t-merged/pairwise.csv \
    t-one/standings.svg t-merged/standings.svg t-one/standings.png t-merged/standings.png

step "a failed shard cancels the merge instead of leaving it waiting"
ids=$("$root/scripts/slurm/submit.sh" 2 st-bad "$sim" flip7 --games 2K --seed 1 --players 99 --out never.csv)
merge=$(echo "$ids" | sed 's/.*merge: job \([0-9]*\).*/\1/')
state=$(wait_job "$merge")
if [ "$state" = CANCELLED ] && [ ! -e never.csv ]; then
    echo "ok   failed shards: merge job $merge was cancelled, nothing written"
else
    echo "FAIL failed shards: merge job $merge ended '$state'" >&2
    fail=1
fi

if [ "$fail" = 0 ]; then step "all checks passed"; else step "some checks failed"; fi
exit "$fail"
