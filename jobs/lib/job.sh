# The tasks of a study and how one runs: sourced by the *.sbatch scripts and by jobs/submit (which
# plans the tasks to check them, prints them with --dry-run and runs them with --local). Sources
# arguments.sh, environment.sh and sweep.sh.
#
# A study is a list of tasks numbered from 0: one for run, one per rank count of --ranks for the
# scaling studies (task K runs the K-th count of the list, so the array's task ids stay 0..K-1
# however large the rank counts: Slurm's MaxArraySize, 1001 by default, bounds the ids), one per
# point for a sweep. The Slurm array task id is the task number.
#
#   rs_plan_task KIND TASK RANKS  sets RS_TASK_NAME (ranks-N, point-K, run), RS_TASK_RANKS and
#                                 RS_RUN_SETS (the task's own overrides: a sweep point, the sizes of
#                                 a weak-scaling step) from the parsed arguments. RANKS is what the
#                                 task has: the ranks of a run or sweep point, the allocation a
#                                 scaling task must fit in (Slurm: SLURM_NTASKS). A sweep needs
#                                 rs_sweep_read first.
#   rs_task_count KIND            the number of tasks
#   rs_start_study DIR KIND       makes the study's results directory RS_JOB_DIR=DIR and records
#                                 the study (run, strong-scaling, weak-scaling, sweep) in it
#   rs_run_task KIND TASK RANKS   plans the task and runs it (rs_simulate); returns rackscale's
#                                 exit code
#   rs_simulate NAME RANKS        runs rackscale on RANKS ranks with RS_LAUNCHER (srun or mpirun),
#                                 from NAME.checkpoint if an earlier attempt left one; Slurm's
#                                 warning signal stops it with a checkpoint and requeues the task:
#                                 the parsed RS_CONFIG, RS_SETS and RS_PARTITION, then RS_RUN_SETS.
#                                 Writes RS_JOB_DIR/NAME.h5 (results, docs/output.md), NAME.log (the
#                                 summary), NAME.json (its --json line) and NAME.overrides
#                                 (RS_RUN_SETS, one KEY=VALUE a line, read by jobs/collect)
#   rs_job_main KIND ARGS...      what a job script does: checks ARGS, finds the environment, runs
#                                 its array task (or the run) under Slurm

rs_lib_dir=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=arguments.sh
. "$rs_lib_dir/arguments.sh"
# shellcheck source=environment.sh
. "$rs_lib_dir/environment.sh"
# shellcheck source=sweep.sh
. "$rs_lib_dir/sweep.sh"

RS_RUN_SETS=()

# Writes standard input to FILE through a temporary name, so that array tasks writing the same file
# at once never leave a torn one.
rs_write_atomically() {
  local file=$1
  cat >"$file.tmp-$$" && mv -f "$file.tmp-$$" "$file"
}

rs_task_count() {
  case $1 in
    run) echo 1 ;;
    # Arithmetic drops the spaces that BSD's wc (macOS) puts before the count.
    strong-scaling | weak-scaling) echo $(($(tr ',' '\n' <<<"$RS_RANKS" | wc -l))) ;;
    sweep) rs_sweep_size ;;
  esac
}

rs_plan_task() {
  local kind=$1 task=$2 ranks=$3 count
  count=$(rs_task_count "$kind")
  rs_is_count "$task" || [ "$task" = 0 ] || rs_bad_input "task '$task': expected a task number from 0"
  [ "$task" -lt "$count" ] || case $kind in
    sweep) rs_bad_input "array task $task: $RS_SWEEP has only $count points (tasks 0-$((count - 1)))" ;;
    *) rs_bad_input "array task $task: --ranks $RS_RANKS has $count rank counts (tasks 0-$((count - 1)))" ;;
  esac
  RS_RUN_SETS=()
  case $kind in
    run) RS_TASK_NAME=run RS_TASK_RANKS=$ranks ;;
    strong-scaling | weak-scaling)
      RS_TASK_RANKS=$(tr ',' '\n' <<<"$RS_RANKS" | sed -n "$((task + 1))p")
      RS_TASK_NAME=ranks-$RS_TASK_RANKS
      [ "$RS_TASK_RANKS" -le "$ranks" ] ||
        rs_bad_input "array task $task runs $RS_TASK_RANKS ranks but the job has $ranks tasks: --ntasks must be the largest rank count"
      [ "$kind" = strong-scaling ] || mapfile -t RS_RUN_SETS < <(rs_per_rank_sets "$RS_TASK_RANKS")
      ;;
    sweep)
      RS_TASK_NAME=point-$task RS_TASK_RANKS=$ranks
      rs_sweep_point "$task"
      RS_RUN_SETS=("${RS_POINT_SETS[@]}")
      ;;
  esac
}

rs_start_study() {
  RS_JOB_DIR=$1
  mkdir -p "$RS_JOB_DIR"
  echo "$2" | rs_write_atomically "$RS_JOB_DIR/study"
}

rs_run_task() {
  local kind=$1
  rs_plan_task "$@"
  [ "$kind" != sweep ] || rs_write_atomically "$RS_JOB_DIR/sweep.txt" <"$RS_SWEEP"
  rs_simulate "$RS_TASK_NAME" "$RS_TASK_RANKS"
}

rs_simulate() {
  local name=$1 ranks=$2 base=$RS_JOB_DIR/$1 set code
  local -a command=("$RACKSCALE" run "$RS_CONFIG") launch
  for set in "${RS_SETS[@]}" "${RS_RUN_SETS[@]}"; do command+=(--set "$set"); done
  [ -z "$RS_PARTITION" ] || command+=(--partition "$RS_PARTITION")
  command+=(--output "$base.h5" --json)
  # A requeued job (node failure, preemption) redoes its own runs: only then may it replace a file.
  [ "${SLURM_RESTART_COUNT:-0}" -eq 0 ] || command+=(--force)
  printf '%s\n' "${RS_RUN_SETS[@]}" | sed '/^$/d' | rs_write_atomically "$base.overrides"
  if [ "$RS_LAUNCHER" = srun ]; then
    # PMIx is how Open MPI's ranks find each other under srun; RACKSCALE_MPI=pmi2 for an MPI that
    # wants PMI-2 instead (`srun --mpi=list` shows what the site's Slurm offers).
    launch=(srun --mpi="${RACKSCALE_MPI:-pmix}" --ntasks="$ranks")
  else
    # mpirun finds a Slurm allocation by itself and starts its own daemons in it. RACKSCALE_MPIRUN
    # may add options ("mpirun --oversubscribe") or name another launcher (mpiexec).
    read -r -a launch <<<"${RACKSCALE_MPIRUN:-mpirun}"
    launch+=(-np "$ranks")
  fi
  # Checkpoints (docs/hpc.md): a workload that can be checkpointed saves its state when the run is
  # stopped, and continues from it when the task runs again (a requeue).
  local checkpoint=$base.checkpoint
  if rs_can_checkpoint; then
    command+=(--checkpoint "$checkpoint")
    [ -z "${RACKSCALE_CHECKPOINT_EVERY:-}" ] || command+=(--checkpoint-every "$RACKSCALE_CHECKPOINT_EVERY")
    [ ! -f "$checkpoint" ] || command+=(--restart "$checkpoint")
  fi
  echo "rackscale ${SLURM_JOB_ID:+job $SLURM_JOB_ID }$name: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname): ${launch[*]} ${command[*]}"
  set +e
  # In the background, so that this shell can act on Slurm's warning (--signal=B:TERM@120): it passes
  # SIGUSR1 on to the launcher, which forwards it to every rank (mpirun stops its job on a SIGTERM
  # instead), and the ranks stop together at their next window boundary with a checkpoint (exit 4).
  rs_stop_requested=0
  "${launch[@]}" "${command[@]}" > >(tee "$base.log") &
  local pid=$!
  trap 'rs_stop_requested=1; kill -USR1 "$pid" 2>/dev/null' TERM
  wait "$pid"
  code=$?
  # A wait interrupted by the trap returns at once; the run's own status comes from waiting again.
  [ "$rs_stop_requested" = 0 ] || { wait "$pid"; code=$?; }
  trap - TERM
  wait  # tee's last lines
  set -e
  if [ "$code" -eq 0 ]; then
    tail -n 1 "$base.log" | rs_write_atomically "$base.json"
    rm -f "$checkpoint"
  elif [ "$code" -eq 4 ] && [ -f "$checkpoint" ] && [ "$rs_stop_requested" = 1 ] && [ -n "${SLURM_JOB_ID:-}" ]; then
    echo "rackscale: $name: stopped before the time limit with a checkpoint; requeueing to continue from $checkpoint" >&2
    scontrol requeue "${SLURM_ARRAY_JOB_ID:+${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}}${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}"
  else
    echo "rackscale: $name: rackscale exited with $code (2: bad input, 3: the job does not fit, 4: stopped, 1: internal error)" >&2
  fi
  return "$code"
}

# Whether the task's workload can be checkpointed (traffic, training and collective runs; docs/cli.md):
# asked of `rackscale validate`, which reads the config with the same --set overrides.
rs_can_checkpoint() {
  local -a check=("$RACKSCALE" validate "$RS_CONFIG" --json) set
  for set in "${RS_SETS[@]}" "${RS_RUN_SETS[@]}"; do check+=(--set "$set"); done
  "${check[@]}" 2>/dev/null | tail -n 1 | grep -Eq '"workload":"(traffic|training|collective)"'
}

rs_job_main() {
  local kind=$1 task=0
  shift
  rs_parse_arguments job "$kind" "$@"
  [ -n "${SLURM_JOB_ID:-}" ] || rs_bad_input "this is a Slurm batch script: submit it with jobs/submit (or sbatch), see docs/hpc.md"
  if [ "$kind" != run ]; then
    task=${SLURM_ARRAY_TASK_ID:-}
    [ -n "$task" ] || rs_bad_input "expected a job array whose task ids number the study's runs from 0, such as --array=0-3 (jobs/submit sets it), found no array task id"
  fi
  [ "$kind" != sweep ] || rs_sweep_read "$RS_SWEEP"
  rs_setup_environment
  RS_LAUNCHER=$RACKSCALE_LAUNCHER
  # Checked before anything is written, so a wrong task leaves no files behind.
  rs_plan_task "$kind" "$task" "${SLURM_NTASKS:-1}"
  rs_start_study "$RACKSCALE_RESULTS/${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}" "$kind"
  rs_run_task "$kind" "$task" "${SLURM_NTASKS:-1}"
}
