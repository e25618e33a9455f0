#!/usr/bin/env bash
# Submits a sim run to Slurm as N shards and a merge job that waits for
# them (--dependency=afterok; a failed shard cancels the merge).
#
#   scripts/slurm/submit.sh N STATE_DIR SIM COMMAND...
#   scripts/slurm/submit.sh 16 states/flip7-1B sim flip7 --games 1B --seed 1
#
# Prints the two job IDs. Extra sbatch options (a partition, an account, a
# time limit) go in SBATCH_* environment variables, which sbatch reads,
# e.g. SBATCH_PARTITION=short SBATCH_TIMELIMIT=1:00:00.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 4 ]; then
    echo "usage: $0 N STATE_DIR SIM COMMAND..." >&2
    exit 2
fi
n=$1
dir=$2
shift 2
sim=$1
case "$n" in
    '' | *[!0-9]* | 0) echo "N must be a whole number of shards, at least 1; got '$n'" >&2; exit 2 ;;
esac
case " $* " in
    *" --seed "* | *" --seed="*) ;;
    *) echo "the command needs --seed: every shard must play the same run" >&2; exit 2 ;;
esac
mkdir -p "$dir"
array=$(sbatch --parsable --array="1-$n" "$here/shard.sbatch" "$dir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" "$here/merge.sbatch" "$dir" "$sim")
merge=${merge%%;*}
echo "shards: job $array (array 1-$n); merge: job $merge (after every shard succeeds)"
