# What a job script does once it runs: sourced by the *.sbatch scripts (bash), which source
# arguments.sh and environment.sh through it.
#
#   rs_start_job STUDY           makes the job's results directory RS_JOB_DIR,
#                                $RACKSCALE_RESULTS/JOBID (the array's id for an array task), and
#                                records the study (run, strong-scaling, weak-scaling, sweep) in it
#   rs_array_rank_count          the rank count of a scaling study's array task (its task id)
#   rs_simulate NAME RANKS       runs rackscale on RANKS ranks with srun: the parsed RS_CONFIG,
#                                RS_SETS and RS_PARTITION, then RS_RUN_SETS (this run's own
#                                overrides: a sweep point, the sizes of a weak-scaling step). Writes
#                                RS_JOB_DIR/NAME.h5 (results, docs/output.md), NAME.log (the
#                                summary), NAME.json (its --json line) and NAME.overrides (RS_RUN_SETS,
#                                one KEY=VALUE a line, read by jobs/collect). Returns rackscale's
#                                exit code.

rs_lib_dir=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=arguments.sh
. "$rs_lib_dir/arguments.sh"
# shellcheck source=environment.sh
. "$rs_lib_dir/environment.sh"

RS_RUN_SETS=()

# Writes standard input to FILE through a temporary name, so that array tasks writing the same file
# at once never leave a torn one.
rs_write_atomically() {
  local file=$1
  cat >"$file.tmp-$$" && mv -f "$file.tmp-$$" "$file"
}

rs_start_job() {
  [ -n "${SLURM_JOB_ID:-}" ] || rs_bad_input "this is a Slurm batch script: submit it with jobs/submit (or sbatch), see docs/hpc.md"
  rs_setup_environment
  RS_JOB_DIR=$RACKSCALE_RESULTS/${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}
  mkdir -p "$RS_JOB_DIR"
  echo "$1" | rs_write_atomically "$RS_JOB_DIR/study"
}

# The rank count of a scaling study's array task: its task id, which must fit the allocation.
rs_array_rank_count() {
  local ranks=${SLURM_ARRAY_TASK_ID:-}
  [ -n "$ranks" ] || rs_bad_input "expected a job array whose task ids are the rank counts, such as --array=1,2,4 (jobs/submit sets it), found no array task id"
  [ "$ranks" -le "${SLURM_NTASKS:-0}" ] ||
    rs_bad_input "array task $ranks needs $ranks ranks but the job has ${SLURM_NTASKS:-no} tasks: --ntasks must be the largest rank count"
  echo "$ranks"
}

rs_simulate() {
  local name=$1 ranks=$2 base=$RS_JOB_DIR/$1 set code
  local -a command=("$RACKSCALE" run "$RS_CONFIG")
  for set in "${RS_SETS[@]}" "${RS_RUN_SETS[@]}"; do command+=(--set "$set"); done
  [ -z "$RS_PARTITION" ] || command+=(--partition "$RS_PARTITION")
  command+=(--output "$base.h5" --json)
  # A requeued job (node failure, preemption) redoes its own runs: only then may it replace a file.
  [ "${SLURM_RESTART_COUNT:-0}" -eq 0 ] || command+=(--force)
  printf '%s\n' "${RS_RUN_SETS[@]}" | sed '/^$/d' | rs_write_atomically "$base.overrides"
  # PMIx is how Open MPI's ranks find each other under srun; RACKSCALE_MPI=pmi2 for an MPI that
  # wants PMI-2 instead (`srun --mpi=list` shows what the site's Slurm offers).
  local -a launch=(srun --mpi="${RACKSCALE_MPI:-pmix}" --ntasks="$ranks")
  echo "rackscale job ${SLURM_JOB_ID}: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname): ${launch[*]} ${command[*]}"
  set +e
  "${launch[@]}" "${command[@]}" | tee "$base.log"
  code=${PIPESTATUS[0]}
  set -e
  if [ "$code" -eq 0 ]; then
    tail -n 1 "$base.log" | rs_write_atomically "$base.json"
  else
    echo "rackscale job ${SLURM_JOB_ID}: rackscale exited with $code (2: bad input, 3: the job does not fit, 1: internal error)" >&2
  fi
  return "$code"
}
