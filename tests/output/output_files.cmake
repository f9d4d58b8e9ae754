# `rackscale run --output` and existing or unwritable files, as users meet them:
# - an existing file is refused without --force: exit 2 before simulating, a message naming it, the
#   file untouched; with --force it is replaced by a complete HDF5 file;
# - a run that fails leaves no file under the final name and no partial file;
# - a missing directory is created.
# GROUP names a group every file of the config's workload has (links, stages, collective); FAILING, the
# settings (comma-separated) that make the topology impossible to build (default: 1,024 nodes on a 2-tier
# tree, more than 64-port switches can hold in two tiers).
#   cmake -DMPIRUN=... -DRACKSCALE=... -DH5DUMP=... -DCONFIG=... [-DSETTINGS=key=value,...] -DGROUP=links
#         -DWORK=dir -P output_files.cmake
include(${CMAKE_CURRENT_LIST_DIR}/script_helpers.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
overrides_of(overrides "${SETTINGS}")

include(${CMAKE_CURRENT_LIST_DIR}/run_expectations.cmake)

# expect(EXIT code [STDERR regex] ARGS ...): runs rackscale on 2 ranks.
function(expect)
  cmake_parse_arguments(E "" "EXIT;STDERR" "ARGS" ${ARGN})
  expect_run(EXIT ${E_EXIT} STDERR "${E_STDERR}"
             COMMAND ${MPIRUN} -np 2 ${RACKSCALE} run ${CONFIG} ${overrides} ${E_ARGS})
endfunction()

function(expect_readable file)
  execute_process(COMMAND ${H5DUMP} -H ${file} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT out MATCHES "GROUP \"${GROUP}\"")
    message(FATAL_ERROR "h5dump -H ${file} exited with ${code}:\n${out}\n${err}")
  endif()
endfunction()

# Refused, then replaced.
set(out ${WORK}/out.h5)
file(WRITE ${out} "an earlier result")
expect(EXIT 2 STDERR "^rackscale run: --output ${out}: the file exists \\(--force replaces it\\)\n" ARGS --output ${out})
file(READ ${out} kept)
if(NOT kept STREQUAL "an earlier result")
  message(FATAL_ERROR "the refused run changed ${out}")
endif()
expect(EXIT 0 ARGS --output ${out} --force)
expect_readable(${out})
expect_no_partial_files(${WORK})

# A run that fails after the output was accepted (the topology cannot be built): no file.
if(NOT DEFINED FAILING)
  set(FAILING cluster.nodes=1024,cluster.scale_out.fat_tree.tiers=2)
endif()
overrides_of(failing "${FAILING}")
set(failed ${WORK}/failed.h5)
expect(EXIT 2 STDERR "cluster.scale_out.fat_tree.tiers" ARGS --output ${failed} ${failing})
if(EXISTS ${failed})
  message(FATAL_ERROR "a failed run left ${failed}")
endif()
expect_no_partial_files(${WORK})

# A directory in the way, even with --force.
file(MAKE_DIRECTORY ${WORK}/taken.h5)
expect(EXIT 2 STDERR "--output ${WORK}/taken.h5: is a directory\n" ARGS --output ${WORK}/taken.h5 --force)

# Missing directories are made.
expect(EXIT 0 ARGS --output ${WORK}/new/sub/out.h5)
expect_readable(${WORK}/new/sub/out.h5)
expect_no_partial_files(${WORK})
file(REMOVE_RECURSE ${WORK})
