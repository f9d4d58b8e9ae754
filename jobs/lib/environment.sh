# Where things are, for jobs/submit and the job scripts. Sourced by bash, after arguments.sh.
#
#   rs_setup_environment   sources the site's environment file, finds the rackscale binary and the
#                          results directory, and exports:
#     RACKSCALE_HOME     the rackscale checkout holding jobs/ (jobs/submit sets it; a job started
#                        with plain sbatch falls back to the directory it was submitted from)
#     RACKSCALE          the rackscale binary: $RACKSCALE if set, else $RACKSCALE_HOME/build/rackscale,
#                        else `rackscale` on PATH (a module or Spack environment)
#     RACKSCALE_RESULTS  where results go, one directory per job id inside it (default: results/ in
#                        the directory the job is submitted from)
#   The environment file is $RACKSCALE_ENV if set, else jobs/env.sh if it exists: a few lines such
#   as `module load openmpi hdf5` or `spack env activate ...` (jobs/env.sh.example).

rs_setup_environment() {
  local submit_dir=${SLURM_SUBMIT_DIR:-$PWD}
  RACKSCALE_HOME=${RACKSCALE_HOME:-$submit_dir}
  if [ -n "${RACKSCALE_ENV:-}" ]; then
    [ -f "$RACKSCALE_ENV" ] || rs_bad_input "RACKSCALE_ENV=$RACKSCALE_ENV: expected an environment file, found no such file"
    # shellcheck disable=SC1090
    . "$RACKSCALE_ENV"
  elif [ -f "$RACKSCALE_HOME/jobs/env.sh" ]; then
    # shellcheck disable=SC1091
    . "$RACKSCALE_HOME/jobs/env.sh"
  fi
  if [ -n "${RACKSCALE:-}" ]; then
    [ -x "$RACKSCALE" ] || rs_bad_input "RACKSCALE=$RACKSCALE: expected the rackscale binary, found no executable file"
  elif [ -x "$RACKSCALE_HOME/build/rackscale" ]; then
    RACKSCALE=$RACKSCALE_HOME/build/rackscale
  elif command -v rackscale >/dev/null 2>&1; then
    RACKSCALE=$(command -v rackscale)
  else
    rs_bad_input "cannot find rackscale: expected $RACKSCALE_HOME/build/rackscale or rackscale on PATH; build it (docs/hpc.md) or set RACKSCALE=/path/to/rackscale"
  fi
  RACKSCALE_RESULTS=${RACKSCALE_RESULTS:-$submit_dir/results}
  export RACKSCALE_HOME RACKSCALE RACKSCALE_RESULTS
}
