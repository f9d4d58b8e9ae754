# What test-jobs.sh and test-local.sh share; sourced by bash once they have set `source_dir`,
# `rackscale`, `work` and `fail`. The job scripts' environment holds nothing of the caller's site:
# results under WORK/submit/results, which is the directory the studies are submitted from, and Open
# MPI's opt-in to run as root (the jobs inherit it). Sets `submit` and `config` (the studies' config).
export RACKSCALE=$rackscale RACKSCALE_RESULTS=$work/submit/results
unset RACKSCALE_ENV RACKSCALE_LAUNCHER RACKSCALE_MPIRUN RACKSCALE_PYTHON SBATCH_ACCOUNT SBATCH_PARTITION
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$work/submit"
cd "$work/submit"
submit=$source_dir/jobs/submit
config=$source_dir/configs/examples/fat-tree-128.yaml

# expect_exit_2 PATTERN COMMAND...: COMMAND exits with 2 (bad input) and its standard error matches PATTERN.
expect_exit_2() {
  local pattern=$1 code=0 errors
  shift
  errors=$("$@" 2>&1 >/dev/null) || code=$?
  [ "$code" -eq 2 ] || fail "$*: exit code $code, expected 2; it said: $errors"
  grep -qE -- "$pattern" <<<"$errors" || fail "$*: expected a message matching '$pattern', found: $errors"
}
