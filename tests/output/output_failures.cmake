# `rackscale run --output` when writing the results file fails, on some ranks or all (docs/reliability.md,
# "Parallel output failures"): every rank stops together, exit 1, one message naming the file and the
# cause, no file left (neither the results file nor its partial), no deadlock and no crash at
# MPI_Finalize. Runs at 1, 2 and 4 ranks.
#   MODE=disk_full: a 1 MiB tmpfs filled to leave too little room (at two levels: before the first
#     dataset, and after some were written). Needs root and permission to mount; says "skipped:" (which
#     the test's SKIP_REGULAR_EXPRESSION turns into a skip) where mount is refused.
#   MODE=injected: the test hook RACKSCALE_TEST_RESULTS_FAILURE fails one call on one rank, for each of
#     the three writers (training, traffic, collective).
#   cmake -DMPIRUN=... -DRACKSCALE=... -DCONFIGS=configs -DMODE=disk_full|injected -DWORK=dir -P output_failures.cmake
set(CONFIG ${CONFIGS}/training/laptop-64.yaml)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

set(mounted OFF)
# Stops the script (after unmounting) with `message`.
function(give_up message)
  if(mounted)
    execute_process(COMMAND umount ${WORK})
  endif()
  message(FATAL_ERROR "${message}")
endfunction()

# expect_failure(RANKS n CAUSE regex [ENV var=value] [CONFIG file]): the run fails as promised. Each run
# has a time limit (timed_mpirun.sh) below the test's: the code before these checks deadlocked on 2
# ranks. The training config runs at analytical fidelity, the quickest, with the same results file.
function(expect_failure)
  cmake_parse_arguments(E "" "RANKS;CAUSE;ENV;CONFIG" "" ${ARGN})
  if(NOT E_CONFIG)
    set(E_CONFIG ${CONFIG} --set network.fidelity=analytical)
  endif()
  set(out ${WORK}/x.h5)
  set(command ${CMAKE_COMMAND} -E env ${E_ENV} ${MPIRUN} -np ${E_RANKS} ${RACKSCALE} run ${E_CONFIG} --output ${out})
  execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  string(REPLACE ";" " " shown "${command}")
  set(expected "rackscale run: cannot write the results file ${out}: [^\n]*${E_CAUSE}")
  if(NOT code STREQUAL "1")
    give_up("${shown}: exit ${code}, expected 1\nstdout:\n${stdout}\nstderr:\n${stderr}")
  endif()
  if(NOT stderr MATCHES "${expected}")
    give_up("${shown}: stderr does not match '${expected}':\n${stderr}")
  endif()
  if(stderr MATCHES "Segmentation|signal [0-9]|timed_mpirun")
    give_up("${shown}: crashed or hung:\n${stderr}")
  endif()
  string(REGEX MATCHALL "cannot write the results file" messages "${stderr}")
  list(LENGTH messages count)
  if(NOT count EQUAL 1)
    give_up("${shown}: ${count} messages, expected one (rank 0's):\n${stderr}")
  endif()
  file(GLOB left ${WORK}/x.h5*)
  if(left)
    give_up("${shown}: left ${left}")
  endif()
endfunction()

if(MODE STREQUAL "disk_full")
  execute_process(COMMAND mount -t tmpfs -o size=1M tmpfs ${WORK} RESULT_VARIABLE code ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message("skipped: cannot mount a tmpfs here (needs root and permission to mount): ${err}")
    return()
  endif()
  set(mounted ON)
  # The default example's results file is about 100 KiB.
  foreach(fill_kib 980 920)
    file(REMOVE ${WORK}/fill)
    execute_process(COMMAND dd if=/dev/zero of=${WORK}/fill bs=1024 count=${fill_kib} ERROR_QUIET RESULT_VARIABLE code)
    foreach(ranks 1 2 4)
      expect_failure(RANKS ${ranks} CAUSE "No space left on device \\(ENOSPC\\)")
    endforeach()
  endforeach()
  execute_process(COMMAND umount ${WORK})
elseif(MODE STREQUAL "injected")
  set(eio "Input/output error \\(EIO\\) \\[injected by RACKSCALE_TEST_RESULTS_FAILURE\\]")
  expect_failure(RANKS 1 ENV RACKSCALE_TEST_RESULTS_FAILURE=0:H5Dwrite:3 CAUSE "H5Dwrite failed .*${eio}")
  expect_failure(RANKS 2 ENV RACKSCALE_TEST_RESULTS_FAILURE=1:H5Dwrite CAUSE "H5Dwrite failed .*${eio} \\(on rank 1\\)")
  expect_failure(RANKS 2 ENV RACKSCALE_TEST_RESULTS_FAILURE=1:H5Acreate2:5 CAUSE "H5Acreate2 failed .*${eio}")
  expect_failure(RANKS 4 ENV RACKSCALE_TEST_RESULTS_FAILURE=3:H5Fflush CAUSE "H5Fflush failed .*${eio} \\(on rank 3\\)")
  expect_failure(RANKS 4 ENV RACKSCALE_TEST_RESULTS_FAILURE=3:H5Dcreate2:2 CAUSE "H5Dcreate2 failed .*${eio}")
  # The traffic and collective writers go through the same path.
  expect_failure(RANKS 2 ENV RACKSCALE_TEST_RESULTS_FAILURE=1:H5Dwrite:2 CAUSE "H5Dwrite failed .*${eio} \\(on rank 1\\)"
                 CONFIG ${CONFIGS}/examples/fat-tree-128.yaml)
  expect_failure(RANKS 2 ENV RACKSCALE_TEST_RESULTS_FAILURE=0:H5Fflush CAUSE "H5Fflush failed .*${eio} \\(on rank 0\\)"
                 CONFIG ${CONFIGS}/examples/nccl-allreduce-8xh100.yaml)
else()
  message(FATAL_ERROR "MODE must be disk_full or injected; got '${MODE}'")
endif()
file(REMOVE_RECURSE ${WORK})
