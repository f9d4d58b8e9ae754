# `rackscale partition` started on several MPI ranks: one process does the work, so the report (and its
# JSON line) must appear exactly once, and every rank must exit 0.
#   cmake -DMPIRUN=... -DRACKSCALE=... -DCONFIG=... -P partition_ranks.cmake
execute_process(COMMAND ${MPIRUN} -np 2 ${RACKSCALE} partition ${CONFIG} --ranks 3 --json
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "exited with ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
string(REGEX MATCHALL "\"per_rank\":" json_lines "${out}")
list(LENGTH json_lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one JSON report, found ${count}:\n${out}")
endif()
string(REGEX MATCHALL "imbalance \\(max / mean LPs" tables "${out}")
list(LENGTH tables count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one table, found ${count}:\n${out}")
endif()
