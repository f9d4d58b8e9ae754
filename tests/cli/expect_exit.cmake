# Runs a command and checks its exit code and output.
#   cmake -DCOMMAND="a@@b@@c" -DEXIT_CODE=2 [-DSTDERR_MATCH=regex] [-DSTDOUT_MATCH=regex] [-DSTDOUT_EMPTY=ON]
#         -P expect_exit.cmake
string(REPLACE "@@" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${COMMAND}")
if(NOT code STREQUAL EXIT_CODE)
  message(FATAL_ERROR "`${shown}` exited with ${code}, expected ${EXIT_CODE}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDERR_MATCH AND NOT err MATCHES "${STDERR_MATCH}")
  message(FATAL_ERROR "`${shown}`: stderr does not match '${STDERR_MATCH}':\n${err}")
endif()
if(DEFINED STDOUT_MATCH AND NOT out MATCHES "${STDOUT_MATCH}")
  message(FATAL_ERROR "`${shown}`: stdout does not match '${STDOUT_MATCH}':\n${out}")
endif()
if(STDOUT_EMPTY AND NOT out STREQUAL "")
  message(FATAL_ERROR "`${shown}`: expected no standard output, got:\n${out}")
endif()
