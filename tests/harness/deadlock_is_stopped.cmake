# A deadlocked MPI run under tests/timed_mpirun.sh: it must end soon after the limit, fail, keep what the
# ranks printed, say why it stopped, and leave no rank running.
#   cmake -DMPIRUN=timed_mpirun.sh -DPROGRAM=hang_on_one_rank -DLIMIT=seconds -P deadlock_is_stopped.cmake
set(ENV{RACKSCALE_TEST_MPI_TIMEOUT} ${LIMIT})
string(TIMESTAMP start "%s")
# The TIMEOUT here is only a safety net, should the wrapper itself hang: it would kill the whole tree.
execute_process(COMMAND ${MPIRUN} -np 2 ${PROGRAM} TIMEOUT 120
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP end "%s")
math(EXPR elapsed "${end} - ${start}")
set(shown "exit ${code} after ${elapsed} s\nstdout:\n${out}\nstderr:\n${err}")

# timeout(1) reports a command it stopped with 124 (137 had it needed SIGKILL, 10 s after the limit).
if(NOT code EQUAL 124)
  message(FATAL_ERROR "expected exit code 124 from timeout(1): ${shown}")
endif()
# Ended by the limit, not before it and not much after it (mpirun stops its ranks within a second or two;
# the margin is for a busy machine).
math(EXPR latest "${LIMIT} + 10")
if(elapsed LESS LIMIT OR elapsed GREATER latest)
  message(FATAL_ERROR "expected the run to end between ${LIMIT} and ${latest} s: ${shown}")
endif()
if(NOT err MATCHES "timed_mpirun: stopped after ${LIMIT} s")
  message(FATAL_ERROR "expected timed_mpirun's explanation on standard error: ${shown}")
endif()

# The output the ranks wrote before hanging is kept, and nothing after the deadlock was reached.
set(pids "")
foreach(rank 0 1)
  if(NOT out MATCHES "rank ${rank} pid ([0-9]+) started")
    message(FATAL_ERROR "rank ${rank}'s output was lost: ${shown}")
  endif()
  list(APPEND pids ${CMAKE_MATCH_1})
endforeach()
if(out MATCHES "passed the barrier")
  message(FATAL_ERROR "the program did not deadlock: ${shown}")
endif()

# No rank is left: each process is gone or a zombie waiting to be reaped by init (state Z), within 10 s.
foreach(pid IN LISTS pids)
  foreach(attempt RANGE 20)
    set(alive FALSE)
    if(EXISTS /proc/${pid}/stat)
      file(READ /proc/${pid}/stat stat)
      file(READ /proc/${pid}/cmdline cmdline)
      # "pid (name) state ...": alive unless zombie; a reused pid would run another program.
      if(stat MATCHES "^[0-9]+ \\([^)]*\\) [^Z]" AND cmdline MATCHES "hang_on_one_rank")
        set(alive TRUE)
      endif()
    endif()
    if(NOT alive)
      break()
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 0.5)
  endforeach()
  if(alive)
    message(FATAL_ERROR "rank process ${pid} still runs after the wrapper returned: ${shown}")
  endif()
endforeach()
message("stopped after ${elapsed} s as expected, output kept, no rank left:\n${out}${err}")
