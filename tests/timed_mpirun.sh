#!/bin/sh
# mpirun for the tests, with a time limit: scripts/mpirun.sh under `timeout`, so that a deadlocked MPI
# test ends by itself, before CTest's TIMEOUT, and its output is kept.
#   RACKSCALE_TEST_MPI_TIMEOUT=SECONDS tests/timed_mpirun.sh -np N PROGRAM ARGS...
# CTest sets the limit per test below the test's TIMEOUT (rackscale_test_limits in tests/CMakeLists.txt).
# Why not leave it to CTest: at its TIMEOUT, CTest SIGKILLs the test's whole process tree at once. That
# stops the ranks too, but a test that is a `cmake -P` script loses everything it had captured of the
# run's output, and mpirun gets no chance to pass on what the ranks last wrote. Here mpirun gets SIGTERM
# first, stops its ranks and exits; SIGKILL follows only if it has not gone 10 s later (--kill-after),
# and the ranks, children of mpirun, die with it.
limit=${RACKSCALE_TEST_MPI_TIMEOUT:-300}
timeout --kill-after=10 "$limit" "$(dirname "$0")/../scripts/mpirun.sh" "$@"
code=$?
case "$code" in
  124) echo "timed_mpirun: stopped after $limit s (RACKSCALE_TEST_MPI_TIMEOUT), a deadlock or a far too slow run: mpirun $*" >&2 ;;
  137) echo "timed_mpirun: mpirun was killed (SIGKILL: 10 s after the $limit s limit if it had not exited, or by something else): mpirun $*" >&2 ;;
esac
exit "$code"
