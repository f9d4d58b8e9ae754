# Helpers of the command-line scripts in this folder (include()d by them).

# run_or_fail(command args...): runs it; stops the script with its output unless it exits 0. Its
# standard output is left in `output`.
function(run_or_fail)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "`${shown}` exited with ${code}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

# overrides_of(out "key=value,key=value"): the --set options for a comma-separated list of settings
# (lists are given comma-separated because a ';' does not survive add_test).
function(overrides_of out list)
  string(REPLACE "," ";" list "${list}")
  set(result)
  foreach(setting IN LISTS list)
    list(APPEND result --set ${setting})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
