# `rackscale search --json` under mpirun on 1, 2 and 3 ranks, and on 2 ranks with both simulating each
# finalist (--ranks-per-candidate 2): the ranked layouts, their estimates and simulated figures, the
# pruning counts and the rank correlation are the same (only the phases' wall times may differ).
#   cmake -DMPIRUN=... -DRACKSCALE=... -DCONFIG=... -P search_ranks.cmake
set(args search ${CONFIG} --space "tensor=1,2,4 pipeline=1,2 virtual=1,2 context=1 micro_batch=1,2 zero=1,3 recompute=selective"
    --simulate 3 --fidelity analytical --top 40 --json --quiet)
set(reference "")
foreach(run "1;1" "2;1" "3;1" "2;2")
  list(GET run 0 ranks)
  list(GET run 1 per_candidate)
  execute_process(COMMAND ${MPIRUN} -np ${ranks} ${RACKSCALE} ${args} --ranks-per-candidate ${per_candidate}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${ranks} ranks, ${per_candidate} per candidate: exit ${code}\n${out}\n${err}")
  endif()
  string(STRIP "${out}" out)
  string(REGEX REPLACE ".*\n" "" last_line "${out}")
  string(JSON simulated GET "${last_line}" simulated)
  if(NOT simulated EQUAL 3)
    message(FATAL_ERROR "${ranks} ranks: ${simulated} layouts simulated, expected 3: ${last_line}")
  endif()
  string(JSON last_line REMOVE "${last_line}" seconds)
  if(reference STREQUAL "")
    set(reference "${last_line}")
  elseif(NOT last_line STREQUAL reference)
    message(FATAL_ERROR "${ranks} ranks, ${per_candidate} per candidate:\n${last_line}\n1 rank:\n${reference}")
  endif()
endforeach()
message(STATUS "the same search result on 1, 2 and 3 ranks and with 2 ranks per candidate")
