# Checks for scripts (cmake -P) that run rackscale as users do and look at the files it leaves.
#
# expect_run(EXIT code [STDERR regex] COMMAND ...): runs the command and fails unless it exits with
# `code` and its standard error matches `regex`; a refused run (code != 0) must print nothing on
# standard output.
function(expect_run)
  cmake_parse_arguments(E "" "EXIT;STDERR" "COMMAND" ${ARGN})
  execute_process(COMMAND ${E_COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE ";" " " shown "${E_COMMAND}")
  if(NOT code STREQUAL E_EXIT)
    message(FATAL_ERROR "${shown}: exit ${code}, expected ${E_EXIT}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  if(DEFINED E_STDERR AND NOT err MATCHES "${E_STDERR}")
    message(FATAL_ERROR "${shown}: stderr does not match '${E_STDERR}':\n${err}")
  endif()
  if(NOT E_EXIT EQUAL 0 AND NOT out STREQUAL "")
    message(FATAL_ERROR "${shown}: a refused run printed a summary:\n${out}")
  endif()
endfunction()

# expect_no_partial_files(dir): no "<file>.partial-<pid>" left anywhere under dir.
function(expect_no_partial_files dir)
  file(GLOB_RECURSE partial ${dir}/*.partial-*)
  if(partial)
    message(FATAL_ERROR "partial files left behind: ${partial}")
  endif()
endfunction()
