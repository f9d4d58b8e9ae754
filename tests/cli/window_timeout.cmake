# The window watchdog (docs/reliability.md, "Watchdog"): one rank stalls at a window's exchange (the test
# hook RACKSCALE_TEST_STALL_RANK makes it sleep for good); the others must report, within the timeout
# and some slack, which rank they wait for, and abort the job with exit 5. For every synchronizer, at 2
# and 4 ranks, and once through `rackscale run`. Each run has a time limit (timed_mpirun.sh): without
# the watchdog it would wait forever.
#   cmake -DMPIRUN=timed_mpirun.sh -DRACKSCALE=... -DCONFIG=laptop-64.yaml -P window_timeout.cmake
set(timeout_s 3)
# Startup under mpirun, and ranks sharing 2 busy cores: the abort must come well before the run's limit.
set(slack_s 40)

# expect_abort(RANKS n STALLED rank WHOM regex ARGS ...): the run aborts as promised.
function(expect_abort)
  cmake_parse_arguments(E "" "RANKS;STALLED;WHOM" "ARGS" ${ARGN})
  set(command ${CMAKE_COMMAND} -E env RACKSCALE_TEST_STALL_RANK=${E_STALLED}:20 RACKSCALE_TEST_MPI_TIMEOUT=120
              ${MPIRUN} -np ${E_RANKS} ${RACKSCALE} ${E_ARGS} --window-timeout ${timeout_s}s --progress off)
  string(REPLACE ";" " " shown "${command}")
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  string(TIMESTAMP end "%s")
  math(EXPR took "${end} - ${start}")
  if(NOT code STREQUAL "5")
    message(FATAL_ERROR "${shown}: exit ${code}, expected 5 (after ${took} s)\nstdout:\n${stdout}\nstderr:\n${stderr}")
  endif()
  set(expected "rackscale: window timeout: rank [0-9]+ has waited more than ${timeout_s} s \\(--window-timeout\\) "
               "at the exchange of window 20 \\([a-z_]+\\) for ${E_WHOM}, which may be stopped, hung")
  string(CONCAT expected ${expected})
  if(NOT stderr MATCHES "${expected}")
    message(FATAL_ERROR "${shown}: stderr does not match '${expected}':\n${stderr}")
  endif()
  math(EXPR limit "${timeout_s} + ${slack_s}")
  if(took GREATER limit)
    message(FATAL_ERROR "${shown}: aborted after ${took} s, more than ${limit} s")
  endif()
  message(STATUS "${shown}: exit 5 after ${took} s")
endfunction()

set(phold phold --end 1e12)
expect_abort(RANKS 2 STALLED 1 WHOM "rank 1" ARGS ${phold} --sync shared_memory)
expect_abort(RANKS 2 STALLED 0 WHOM "rank 0" ARGS ${phold} --sync dense)
expect_abort(RANKS 2 STALLED 1 WHOM "rank 1" ARGS ${phold} --sync sparse)
expect_abort(RANKS 4 STALLED 2 WHOM "rank 2" ARGS ${phold} --sync shared_memory)
expect_abort(RANKS 4 STALLED 3 WHOM "rank 3" ARGS ${phold} --sync dense)
expect_abort(RANKS 4 STALLED 0 WHOM "rank 0" ARGS ${phold} --sync sparse)
expect_abort(RANKS 2 STALLED 1 WHOM "rank 1" ARGS run ${CONFIG})
