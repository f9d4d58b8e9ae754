# Fails if a tracked file of the repository points at files that only exist beside the developers'
# clone (a sibling folder that held the reference figures and the design): a user's clone has none,
# so such a path is a broken link in a doc or preset, or a test that cannot run. The figures are in
# data/reference/, the design in docs/design.md.
#   cmake -DSOURCE=<clone> -P stands_alone.cmake
# The pattern is written so that it does not match this file.
set(pattern [=[\.\./shared|shared/(reference|DESIGN)|/work/share[d]]=])
find_program(GIT git)
if(NOT GIT)
  message("not a git checkout: git is not installed")
  return()
endif()
execute_process(COMMAND ${GIT} -C ${SOURCE} rev-parse --is-inside-work-tree
                RESULT_VARIABLE code OUTPUT_QUIET ERROR_QUIET)
if(NOT code EQUAL 0)
  message("not a git checkout: ${SOURCE}")
  return()
endif()
execute_process(COMMAND ${GIT} -C ${SOURCE} grep -n -I -E "${pattern}"
                RESULT_VARIABLE code OUTPUT_VARIABLE found ERROR_VARIABLE err)
if(code EQUAL 0)
  message(FATAL_ERROR "tracked files point outside the repository (use data/reference/... or docs/design.md):\n${found}")
elseif(NOT code EQUAL 1)
  message(FATAL_ERROR "git grep failed (${code}): ${err}")
endif()
