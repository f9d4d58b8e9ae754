#!/bin/bash
# The job scripts in jobs/ against a real Slurm: starts a private single-node cluster on localhost
# (local-cluster.sh) whose slurmd sees no /sys/fs/cgroup (LOCAL_CLUSTER_CGROUP, default absent),
# checks that bad submissions fail at once without queueing anything, that a rank list past Slurm's
# MaxArraySize (1001) makes an array of list indices, then submits every script (one run, a
# strong- and a weak-scaling array, a sweep array, each study with its dependent collect job) on
# the traffic example fat-tree-128, waits for them, and checks what they wrote (check_results.py).
# The weak-scaling jobs start their ranks with mpirun (RACKSCALE_LAUNCHER), the others with srun;
# the sweep and its collect job load a site environment file that reads an unset variable (as some
# module systems do) and puts its own python3 first on PATH. Stops every daemon it started,
# whatever happens.
#
#   tests/slurm/test-jobs.sh RACKSCALE_BINARY [WORK_DIR]
#
# WORK_DIR (default: a new temporary directory) holds the cluster and the results; it is removed
# after a success unless SLURM_TEST_KEEP is set.
# Needs the Debian packages slurmctld, slurmd, slurm-client, munge, python3-h5py, python3-matplotlib
# (scripts/install-deps.sh --for-tests) and root (slurmd starts jobs as their owner).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(dirname "$(dirname "$here")")
rackscale=$(realpath "${1:?usage: test-jobs.sh RACKSCALE_BINARY [WORK_DIR]}")
work=${2:-$(mktemp -d /tmp/rackscale-slurm-test.XXXXXX)}
# A whole test must finish in a few minutes; a job still queued after this is a failure.
timeout_s=${SLURM_TEST_TIMEOUT:-300}

for command in slurmctld slurmd sbatch munged mungekey; do
  command -v "$command" >/dev/null || { echo "test-jobs: $command not found: run scripts/install-deps.sh --for-tests" >&2; exit 1; }
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

mkdir -p "$work"
local_cluster_start "$work/cluster" || fail "the local Slurm cluster did not start"
cgroup_seen=$(local_cluster_cgroup_seen)
echo "test-jobs: slurmd and its jobs see /sys/fs/cgroup: $cgroup_seen (LOCAL_CLUSTER_CGROUP=${LOCAL_CLUSTER_CGROUP:-absent})"
# shellcheck source=job-test-setup.sh
. "$here/job-test-setup.sh"

# expect_refused PATTERN ARGS...: jobs/submit exits with 2, says PATTERN, and queues nothing.
expect_refused() {
  local pattern=$1
  shift
  expect_exit_2 "$pattern" "$submit" "$@"
  [ -z "$(squeue --noheader)" ] || fail "jobs/submit $*: refused but queued a job: $(squeue)"
}
expect_refused "expected what to submit" frobnicate "$config"
# The scripts check their arguments too, for those who call sbatch themselves.
code=0
errors=$(bash "$source_dir/jobs/strong-scaling.sbatch" "$config" --ranks 1,2 --metric /traffic@makespan_ps 2>&1) || code=$?
[ "$code" -eq 2 ] && grep -q -- "--metric is an option of jobs/submit" <<<"$errors" ||
  fail "strong-scaling.sbatch --metric: exit $code: $errors"
RACKSCALE_LAUNCHER=prun expect_refused "RACKSCALE_LAUNCHER=prun: expected srun or mpirun" run "$config"
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

# Rank counts past Slurm's default MaxArraySize (1001) as array task ids: this cluster refuses them...
code=0
errors=$(sbatch --hold --array=1,2,1024,2048 --wrap=true 2>&1) || code=$?
[ "$code" -ne 0 ] || fail "sbatch --array=1,2,1024,2048 was accepted: this cluster's MaxArraySize is not 1001, the next check proves nothing"
# ... so the array numbers the list: jobs/submit --dry-run shows the array and which rank count each
# task runs (rs_plan_task, what the job runs too) ...
large=$("$submit" --dry-run strong-scaling "$config" --ranks 1,2,1024,2048 2>/dev/null)
for expected in " --array=0-3 " " --ntasks=2048 " "strong-scaling.sbatch [^ ]*fat-tree-128.yaml --ranks 1,2,1024,2048" \
  "task 0: ranks-1 on 1 rank" "task 2: ranks-1024 on 1024 rank" "task 3: ranks-2048 on 2048 rank"; do
  grep -q -- "$expected" <<<"$large" || fail "jobs/submit --dry-run --ranks 1,2,1024,2048: no '$expected' in: $large"
done
[ -z "$(squeue --noheader)" ] || fail "jobs/submit --dry-run queued a job: $(squeue)"
# ... and Slurm takes it (held, on 2 tasks so that this node can hold it; then cancelled).
held=$("$submit" strong-scaling "$config" --ranks 1,2,1024,2048 --no-collect -- --hold --ntasks=2 2>/dev/null |
  sed -n 's/^submitted: job \([0-9]*\) .*/\1/p')
[ -n "$held" ] || fail "jobs/submit strong-scaling --ranks 1,2,1024,2048 was not submitted"
held_job=$(scontrol --oneliner show job "$held")
grep -q "ArrayTaskId=0-3 " <<<"$held_job" || fail "the held array: expected ArrayTaskId=0-3, found: $held_job"
scancel "$held"
echo "test-jobs: --ranks 1,2,1024,2048 became array $held with ArrayTaskId=0-3"

# Every script, on the small example; the studies queue their collect job themselves.
submitted() { sed -n 's/^results: //p' <<<"$1"; }
run=$(submitted "$("$submit" run "$config" --ranks 2 --set network.fidelity=analytical)")
# Task 0 runs 2 ranks, task 1 one: the list's order, not the task id, gives the rank count.
strong=$(submitted "$("$submit" strong-scaling "$config" --ranks 2,1 --metric /traffic@messages_delivered \
  --metric /traffic@completion_p99_ps)")
weak=$(submitted "$(RACKSCALE_LAUNCHER=mpirun "$submit" weak-scaling "$config" --ranks 1,2 --per-rank cluster.nodes=8 \
  --metric /traffic@messages_planned)")
# A site environment as some module systems make it: it reads a variable nobody set (which aborts a
# script under set -u) and puts the site's python3 first on PATH; the sweep and its collect job use it.
mkdir -p "$work/site-python"
cat >"$work/site-env.sh" <<ENV
: "\$RACKSCALE_TEST_UNSET_VARIABLE"
echo "\${SLURM_JOB_NAME:-login}" >>"$work/env-sourced"
PATH=$work/site-python:\$PATH
ENV
cat >"$work/site-python/python3" <<PYTHON
#!/bin/sh
echo "\${SLURM_JOB_NAME:-login}" >>"$work/python-used"
exec /usr/bin/python3 "\$@"
PYTHON
chmod +x "$work/site-python/python3"
unset RACKSCALE_TEST_UNSET_VARIABLE
sweep=$(submitted "$(RACKSCALE_ENV=$work/site-env.sh "$submit" sweep "$config" "$here/sweep.txt" --ranks 2 \
  --metric /traffic@bytes_delivered --metric /traffic@line_rate_fraction)")
[ -n "$run" ] && [ -n "$strong" ] && [ -n "$weak" ] && [ -n "$sweep" ] || fail "jobs/submit printed no results directory"

waited=0
while [ -n "$(squeue --noheader)" ]; do
  [ "$waited" -lt "$timeout_s" ] || { squeue; fail "jobs still queued after ${timeout_s} s"; }
  sleep 1
  waited=$((waited + 1))
done
echo "test-jobs: every job left the queue after ${waited} s"

# Every job, array task and collect job ended well (scontrol keeps finished jobs for MinJobAge), but
# for the held array cancelled above.
states=$(scontrol --oneliner show job | grep -v "^JobId=$held " |
  sed -n 's/^JobId=\([0-9]*\) .*JobName=\([^ ]*\) .*JobState=\([A-Z]*\) .*ExitCode=\([0-9:]*\).*/\1 \2 \3 \4/p')
echo "$states"
# 1 run; 2 + 2 + 4 array tasks; 3 collect jobs.
[ "$(wc -l <<<"$states")" -eq 12 ] || fail "expected 12 jobs, found: $states"
if grep -v ' COMPLETED 0:0$' <<<"$states"; then
  tail -n 30 "$RACKSCALE_RESULTS"/logs/* >&2
  fail "jobs that did not complete"
fi

/usr/bin/python3 "$here/check_results.py" run="$run" strong="$strong" weak="$weak" sweep="$sweep"

# Each study's launcher, from the job logs' first line; the site environment in the sweep's jobs.
grep -q "srun --mpi=pmix --ntasks=2 .*rackscale run" "$RACKSCALE_RESULTS"/logs/rackscale-strong-*_0.out ||
  fail "the strong-scaling task 0 did not start 2 ranks with srun: $(head -n 1 "$RACKSCALE_RESULTS"/logs/rackscale-strong-*_0.out)"
for task in 0 1; do
  grep -q "mpirun -np $((task + 1)) .*rackscale run" "$RACKSCALE_RESULTS"/logs/rackscale-weak-*_$task.out ||
    fail "RACKSCALE_LAUNCHER=mpirun: weak-scaling task $task: $(head -n 1 "$RACKSCALE_RESULTS"/logs/rackscale-weak-*_$task.out)"
done
grep -qx rackscale-sweep "$work/env-sourced" && grep -qx rackscale-collect "$work/env-sourced" ||
  fail "RACKSCALE_ENV was not sourced in every sweep and collect job; sourced in: $(sort "$work/env-sourced" | uniq -c)"
grep -qx rackscale-collect "$work/python-used" ||
  fail "the sweep's collect job did not run the site environment's python3; it ran in: $(cat "$work/python-used" 2>/dev/null)"

# The collector as a command: a metric no file has is bad input, and says what there is.
code=0
errors=$("$source_dir/jobs/collect" "$strong" --metric /traffic@nope 2>&1 >/dev/null) || code=$?
[ "$code" -eq 2 ] && grep -q "no results file has it; /traffic: its attributes are .*makespan_ps" <<<"$errors" ||
  fail "jobs/collect --metric /traffic@nope: exit $code: $errors"
echo "test-jobs: passed"
