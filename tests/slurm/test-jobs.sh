#!/bin/bash
# The job scripts in jobs/ against a real Slurm: starts a private single-node cluster on localhost
# (local-cluster.sh), checks that bad submissions fail at once without queueing anything, submits
# every script (one run, a strong- and a weak-scaling array, a sweep array, each study with its
# dependent collect job) on the traffic example fat-tree-128, waits for them, and checks what they
# wrote (check_results.py). Stops every daemon it started, whatever happens.
#
#   tests/slurm/test-jobs.sh RACKSCALE_BINARY [WORK_DIR]
#
# WORK_DIR (default: a new temporary directory) holds the cluster and the results; it is removed
# after a success unless SLURM_TEST_KEEP is set.
# Needs the Debian packages slurmctld, slurmd, slurm-client, munge, python3-h5py, python3-matplotlib
# (scripts/install-deps.sh) and root (slurmd starts jobs as their owner).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(dirname "$(dirname "$here")")
rackscale=$(realpath "${1:?usage: test-jobs.sh RACKSCALE_BINARY [WORK_DIR]}")
work=${2:-$(mktemp -d /tmp/rackscale-slurm-test.XXXXXX)}
# A whole test must finish in a few minutes; a job still queued after this is a failure.
timeout_s=${SLURM_TEST_TIMEOUT:-300}

for command in slurmctld slurmd sbatch munged mungekey; do
  command -v "$command" >/dev/null || { echo "test-jobs: $command not found: run scripts/install-deps.sh" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "test-jobs: skipped: slurmd needs root" >&2; exit 77; }

# shellcheck source=local-cluster.sh
. "$here/local-cluster.sh"
finish() {
  code=$?
  local_cluster_stop
  if [ "$code" -eq 0 ] && [ -z "${SLURM_TEST_KEEP:-}" ]; then rm -rf "$work"; else echo "test-jobs: files kept in $work" >&2; fi
}
trap finish EXIT
trap 'exit 1' INT TERM

fail() { echo "test-jobs: FAILED: $*" >&2; exit 1; }

mkdir -p "$work/submit"
local_cluster_start "$work/cluster" || fail "the local Slurm cluster did not start"
export RACKSCALE=$rackscale RACKSCALE_RESULTS=$work/submit/results
unset RACKSCALE_ENV SBATCH_ACCOUNT SBATCH_PARTITION
cd "$work/submit"
submit=$source_dir/jobs/submit
config=$source_dir/configs/examples/fat-tree-128.yaml

# expect_refused PATTERN ARGS...: jobs/submit exits with 2, says PATTERN, and queues nothing.
expect_refused() {
  local pattern=$1 code=0 errors
  shift
  errors=$("$submit" "$@" 2>&1 >/dev/null) || code=$?
  [ "$code" -eq 2 ] || fail "jobs/submit $*: exit code $code, expected 2; it said: $errors"
  grep -qE -- "$pattern" <<<"$errors" || fail "jobs/submit $*: expected a message matching '$pattern', found: $errors"
  [ -z "$(squeue --noheader)" ] || fail "jobs/submit $*: refused but queued a job: $(squeue)"
}
expect_refused "expected what to submit" frobnicate "$config"
# The scripts check their arguments too, for those who call sbatch themselves.
code=0
errors=$(bash "$source_dir/jobs/strong-scaling.sbatch" "$config" --ranks 1,2 2>&1) || code=$?
[ "$code" -eq 2 ] && grep -q -- "--ranks is an option of jobs/submit" <<<"$errors" ||
  fail "strong-scaling.sbatch --ranks: exit $code: $errors"
expect_refused "missing --ranks" strong-scaling "$config"
expect_refused "--ranks: 2 appears twice" strong-scaling "$config" --ranks 1,2,2
expect_refused "--partition: best not in \{block,round_robin,metis\}" run "$config" --partition best
expect_refused "CONFIG 'no-such.yaml': no such file" run no-such.yaml
expect_refused "missing --per-rank" weak-scaling "$config" --ranks 1,2
expect_refused "^jobs/submit: run: .*unknown key 'nodez' in cluster; did you mean 'nodes'" run "$config" --set cluster.nodez=4
expect_refused "weak-scaling \(8 ranks, cluster.nodes=1024\): .*fat-tree-128.yaml:[0-9]+:[0-9]+: cluster.scale_out.fat_tree.tiers" \
  weak-scaling "$config" --ranks 1,8 --per-rank cluster.nodes=128
expect_refused "bad-sweep.txt:1: workload.bytes: expected values separated by '\|', found an empty value" \
  sweep "$config" "$here/bad-sweep.txt"
printf 'network.routing: ecmp | sprey\n' >"$work/misspelt-sweep.txt"
expect_refused "point 1: network.routing=sprey\): .*routing" sweep "$config" "$work/misspelt-sweep.txt"

# Every script, on the small example; the studies queue their collect job themselves.
submitted() { sed -n 's/^results: //p' <<<"$1"; }
run=$(submitted "$("$submit" run "$config" --ranks 2 --set network.fidelity=analytical)")
strong=$(submitted "$("$submit" strong-scaling "$config" --ranks 1,2 --metric /traffic@messages_delivered \
  --metric /traffic@completion_p99_ps)")
weak=$(submitted "$("$submit" weak-scaling "$config" --ranks 1,2 --per-rank cluster.nodes=8 \
  --metric /traffic@messages_planned)")
sweep=$(submitted "$("$submit" sweep "$config" "$here/sweep.txt" --ranks 2 --metric /traffic@bytes_delivered \
  --metric /traffic@line_rate_fraction)")
[ -n "$run" ] && [ -n "$strong" ] && [ -n "$weak" ] && [ -n "$sweep" ] || fail "jobs/submit printed no results directory"

waited=0
while [ -n "$(squeue --noheader)" ]; do
  [ "$waited" -lt "$timeout_s" ] || { squeue; fail "jobs still queued after ${timeout_s} s"; }
  sleep 1
  waited=$((waited + 1))
done
echo "test-jobs: every job left the queue after ${waited} s"

# Every job, array task and collect job ended well (scontrol keeps finished jobs for MinJobAge).
states=$(scontrol --oneliner show job | sed -n 's/^JobId=\([0-9]*\) .*JobName=\([^ ]*\) .*JobState=\([A-Z]*\) .*ExitCode=\([0-9:]*\).*/\1 \2 \3 \4/p')
echo "$states"
# 1 run; 2 + 2 + 4 array tasks; 3 collect jobs.
[ "$(wc -l <<<"$states")" -eq 12 ] || fail "expected 12 jobs, found: $states"
if grep -v ' COMPLETED 0:0$' <<<"$states"; then
  tail -n 30 "$RACKSCALE_RESULTS"/logs/* >&2
  fail "jobs that did not complete"
fi

/usr/bin/python3 "$here/check_results.py" "$run" "$strong" "$weak" "$sweep" "$here/sweep.txt"

# The collector as a command: a metric no file has is bad input, and says what there is.
code=0
errors=$("$source_dir/jobs/collect" "$strong" --metric /traffic@nope 2>&1 >/dev/null) || code=$?
[ "$code" -eq 2 ] && grep -q "no results file has it; /traffic: its attributes are .*makespan_ps" <<<"$errors" ||
  fail "jobs/collect --metric /traffic@nope: exit $code: $errors"
echo "test-jobs: passed"
