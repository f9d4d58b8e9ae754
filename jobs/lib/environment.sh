# Where things are, for jobs/submit, the job scripts and jobs/collect. Sourced by bash, after
# arguments.sh.
#
#   rs_source_site_environment  sources the site's environment file: $RACKSCALE_ENV if set, else
#                               $RACKSCALE_HOME/jobs/env.sh if it exists; a few lines such as
#                               `module load openmpi hdf5` or `spack env activate ...`
#                               (jobs/env.sh.example)
#   rs_setup_environment        the above, then finds the rackscale binary, the results directory
#                               and the launcher, and exports:
#     RACKSCALE_HOME     the rackscale checkout holding jobs/ (jobs/submit sets it; a job started
#                        with plain sbatch falls back to the directory it was submitted from)
#     RACKSCALE          the rackscale binary: $RACKSCALE if set, else $RACKSCALE_HOME/build/rackscale,
#                        else `rackscale` on PATH (a module or Spack environment)
#     RACKSCALE_RESULTS  where results go, one directory per job id inside it (default: results/ in
#                        the directory the job is submitted from)
#     RACKSCALE_LAUNCHER how a Slurm job starts its ranks: srun (the default) or mpirun (inside
#                        the allocation, for an MPI that srun cannot start)

rs_source_site_environment() {
  local file="" strict=no
  RACKSCALE_HOME=${RACKSCALE_HOME:-${SLURM_SUBMIT_DIR:-$PWD}}
  export RACKSCALE_HOME
  if [ -n "${RACKSCALE_ENV:-}" ]; then
    [ -f "$RACKSCALE_ENV" ] || rs_bad_input "RACKSCALE_ENV=$RACKSCALE_ENV: expected an environment file, found no such file"
    file=$RACKSCALE_ENV
  elif [ -f "$RACKSCALE_HOME/jobs/env.sh" ]; then
    file=$RACKSCALE_HOME/jobs/env.sh
  fi
  [ -n "$file" ] || return 0
  # Some versions of Lmod and environment-modules read unset variables in `module load`, which
  # aborts a script running under `set -u`: the site's file runs without it.
  case $- in *u*) strict=yes ;; esac
  set +u
  # shellcheck disable=SC1090
  . "$file"
  [ "$strict" = no ] || set -u
}

rs_setup_environment() {
  rs_source_site_environment
  if [ -n "${RACKSCALE:-}" ]; then
    [ -x "$RACKSCALE" ] || rs_bad_input "RACKSCALE=$RACKSCALE: expected the rackscale binary, found no executable file"
  elif [ -x "$RACKSCALE_HOME/build/rackscale" ]; then
    RACKSCALE=$RACKSCALE_HOME/build/rackscale
  elif command -v rackscale >/dev/null 2>&1; then
    RACKSCALE=$(command -v rackscale)
  else
    rs_bad_input "cannot find rackscale: expected $RACKSCALE_HOME/build/rackscale or rackscale on PATH; build it (docs/hpc.md) or set RACKSCALE=/path/to/rackscale"
  fi
  RACKSCALE_RESULTS=${RACKSCALE_RESULTS:-${SLURM_SUBMIT_DIR:-$PWD}/results}
  RACKSCALE_LAUNCHER=${RACKSCALE_LAUNCHER:-srun}
  case $RACKSCALE_LAUNCHER in
    srun | mpirun) ;;
    *) rs_bad_input "RACKSCALE_LAUNCHER=$RACKSCALE_LAUNCHER: expected srun or mpirun" ;;
  esac
  export RACKSCALE RACKSCALE_RESULTS RACKSCALE_LAUNCHER
}
