#!/bin/sh
# Launches Open MPI's mpirun for the tests, the Makefile and the benchmark scripts.
# Open MPI refuses to start as root without an explicit opt-in; give it only when we really are
# root, so that as any other user a misconfiguration still shows. --oversubscribe lets a 2-core
# machine run 3 or 4 ranks for the determinism tests.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
exec "${MPIEXEC:-mpirun}" --oversubscribe "$@"
