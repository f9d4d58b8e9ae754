# `rackscale run --trace` as users meet it (the first runs on 2 ranks, the others on 1): a valid JSON
# file; an existing file refused without --force (exit 2 before simulating, untouched) and replaced
# with it; missing directories made; a directory in the way refused; bad SPECs and too many spans
# refused with exit 2 and no file; no partial files left behind.
#   cmake -DMPIRUN=... -DRACKSCALE=... -DCONFIG=laptop-64.yaml -DWORK=dir -P trace_files.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/run_expectations.cmake)

# expect(EXIT code [RANKS n] [STDERR regex] ARGS ...): a small, quick version of the laptop example.
function(expect)
  cmake_parse_arguments(E "" "EXIT;STDERR;RANKS" "ARGS" ${ARGN})
  if(NOT DEFINED E_RANKS)
    set(E_RANKS 1)
  endif()
  expect_run(EXIT ${E_EXIT} STDERR "${E_STDERR}"
             COMMAND ${MPIRUN} -np ${E_RANKS} ${RACKSCALE} run ${CONFIG} --set workload.parallel.global_batch=32
                     --set network.fidelity=analytical --set workload.iterations=1 ${E_ARGS})
endfunction()

function(expect_trace file devices)
  file(READ ${file} text)
  string(JSON events ERROR_VARIABLE error GET "${text}" traceEvents)
  if(error)
    message(FATAL_ERROR "${file} is not a trace: ${error}")
  endif()
  string(JSON traced GET "${text}" otherData devices_traced)
  if(NOT traced EQUAL devices)
    message(FATAL_ERROR "${file}: ${traced} devices traced, expected ${devices}")
  endif()
endfunction()

set(out ${WORK}/trace.json)
expect(EXIT 0 RANKS 2 ARGS --trace ${out})
expect_trace(${out} 2)  # first-of-each-stage, 2 stages

file(WRITE ${out} "an earlier trace")
expect(EXIT 2 RANKS 2 STDERR "^rackscale run: --trace ${out}: the file exists \\(--force replaces it\\)\n" ARGS --trace ${out})
file(READ ${out} kept)
if(NOT kept STREQUAL "an earlier trace")
  message(FATAL_ERROR "the refused run changed ${out}")
endif()
expect(EXIT 0 ARGS --trace ${out} --trace-devices 0-3 --force)
expect_trace(${out} 4)

expect(EXIT 0 ARGS --trace ${WORK}/new/sub/trace.json --trace-devices 63)
expect_trace(${WORK}/new/sub/trace.json 1)

file(MAKE_DIRECTORY ${WORK}/taken.json)
expect(EXIT 2 STDERR "--trace ${WORK}/taken.json: is a directory\n" ARGS --trace ${WORK}/taken.json --force)

set(refused ${WORK}/refused.json)
expect(EXIT 2 STDERR "^rackscale run: --trace-devices 1,x: expected a comma-separated list of device ids .*; found 'x'\n"
       ARGS --trace ${refused} --trace-devices 1,x)
expect(EXIT 2 STDERR "^rackscale run: --trace-devices 60-70: expected device ids below 64 \\(the job's devices\\); found 70\n"
       ARGS --trace ${refused} --trace-devices 60-70)
expect(EXIT 2 STDERR "^rackscale run: --trace-devices all: would record up to [0-9,]+ spans \\(64 devices x 1 iteration\\(s\\)\\), more than the limit of 100 \\(--trace-max-spans\\)"
       ARGS --trace ${refused} --trace-devices all --trace-max-spans 100)
if(EXISTS ${refused})
  message(FATAL_ERROR "a refused run left ${refused}")
endif()
expect_no_partial_files(${WORK})
file(REMOVE_RECURSE ${WORK})
