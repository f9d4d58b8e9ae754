#!/bin/bash
# jobs/submit --local: every study (one run, a strong- and a weak-scaling study, a sweep) on this
# machine without Slurm, one run after the other with mpirun, on the traffic example fat-tree-128;
# checks that they write what the Slurm jobs write (check_results.py, the same checks as
# test-jobs.sh) and that jobs/collect read it. sbatch and srun on PATH are replaced by programs that
# fail, so a study that reached for Slurm fails. Also the job scripts' own checks of an array task
# (task id past the --ranks list, a rank count larger than the allocation), which need no Slurm.
#
#   tests/slurm/test-local.sh RACKSCALE_BINARY [WORK_DIR]
#
# WORK_DIR (default: a new temporary directory) is removed after a success unless SLURM_TEST_KEEP
# is set. Needs mpirun, python3-h5py and python3-matplotlib (scripts/install-deps.sh).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(dirname "$(dirname "$here")")
rackscale=$(realpath "${1:?usage: test-local.sh RACKSCALE_BINARY [WORK_DIR]}")
work=${2:-$(mktemp -d /tmp/rackscale-local-test.XXXXXX)}
finish() {
  code=$?
  if [ "$code" -eq 0 ] && [ -z "${SLURM_TEST_KEEP:-}" ]; then rm -rf "$work"; else echo "test-local: files kept in $work" >&2; fi
}
trap finish EXIT
fail() { echo "test-local: FAILED: $*" >&2; exit 1; }

mkdir -p "$work/no-slurm"
for program in sbatch srun salloc; do
  printf '#!/bin/sh\necho "%s called: $*" >>"%s/slurm-called"\nexit 1\n' "$program" "$work" >"$work/no-slurm/$program"
  chmod +x "$work/no-slurm/$program"
done
export PATH=$work/no-slurm:$PATH
unset SLURM_JOB_ID SLURM_ARRAY_TASK_ID SLURM_ARRAY_JOB_ID SLURM_NTASKS
# shellcheck source=job-test-setup.sh
. "$here/job-test-setup.sh"
# Two ranks on a machine that may have fewer cores.
export RACKSCALE_MPIRUN="mpirun --oversubscribe"

expect_exit_2 "--local runs without Slurm: found sbatch options after --: --time=5" "$submit" --local run "$config" -- --time=5
expect_exit_2 "--local and --dry-run: expected one of them" "$submit" --local --dry-run run "$config"
expect_exit_2 "--local goes before the study" "$submit" run "$config" --local
# A job script checks its array task against the list before writing anything.
task_refused() {
  local pattern=$1 task=$2 tasks=$3
  SLURM_JOB_ID=7 SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_ID=$task SLURM_NTASKS=$tasks \
    expect_exit_2 "$pattern" bash "$source_dir/jobs/strong-scaling.sbatch" "$config" --ranks 1,2,1024
}
task_refused "array task 3: --ranks 1,2,1024 has 3 rank counts \(tasks 0-2\)" 3 1024
task_refused "array task 2 runs 1024 ranks but the job has 2 tasks" 2 2
expect_exit_2 "missing --ranks N,N" bash "$source_dir/jobs/weak-scaling.sbatch" "$config" --per-rank cluster.nodes=8
[ ! -e "$RACKSCALE_RESULTS" ] || fail "a refused task wrote $(find "$RACKSCALE_RESULTS")"

# Every study, as test-jobs.sh submits them to Slurm. The results line comes first and last.
study() { "$submit" --local "$@" | tee -a "$work/studies.log" | sed -n 's/^results: //p' | tail -n 1; }
run=$(study run "$config" --ranks 2 --set network.fidelity=analytical)
strong=$(study strong-scaling "$config" --ranks 2,1 --metric /traffic@messages_delivered --metric /traffic@completion_p99_ps)
weak=$(study weak-scaling "$config" --ranks 1,2 --per-rank cluster.nodes=8 --metric /traffic@messages_planned)
sweep=$(study sweep "$config" "$here/sweep.txt" --ranks 2 --metric /traffic@bytes_delivered --metric /traffic@line_rate_fraction)
[ ! -e "$work/slurm-called" ] || fail "a --local study called Slurm: $(cat "$work/slurm-called")"
for directory in "$run" "$strong" "$weak" "$sweep"; do
  case $directory in "$RACKSCALE_RESULTS"/local-*) ;; *) fail "results directory '$directory' is not in $RACKSCALE_RESULTS/local-*" ;; esac
done
grep -q "mpirun --oversubscribe -np 2 .*rackscale run" "$work/studies.log" || fail "no 'mpirun --oversubscribe -np 2' in the studies' output"
/usr/bin/python3 "$here/check_results.py" run="$run" strong="$strong" weak="$weak" sweep="$sweep"
echo "test-local: passed"
