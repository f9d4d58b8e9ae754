# layer_includes.cmake must fail on what it guards against: in copies of src/layers.cmake and one source
# file, (1) a collectives header that includes the accelerator's executor (the include cycle
# accelerator -> collectives -> accelerator it once had), (2) a table in which the network uses the
# workload (a cycle in the table), (3) a file in a directory of no layer. Each must fail with its message.
#   cmake -DSOURCE=<clone> -DWORK=<scratch directory> -DCHECK=<layer_includes.cmake> -P layer_includes_fail.cmake
function(expect_failure case message)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE=${WORK}/${case} -P ${CHECK}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(code EQUAL 0)
    message(FATAL_ERROR "${case}: the check passed; expected it to fail with \"${message}\"")
  endif()
  string(FIND "${out}" "${message}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${case}: the check failed without \"${message}\":\n${out}")
  endif()
  message("${case}: fails as it should: ${message}")
endfunction()

function(make_case case file text)
  file(REMOVE_RECURSE ${WORK}/${case})
  file(COPY ${SOURCE}/src/layers.cmake DESTINATION ${WORK}/${case}/src)
  file(WRITE ${WORK}/${case}/src/${file} "${text}")
endfunction()

make_case(upward models/collectives/engine.hpp "#pragma once\n#include \"models/accelerator/device_executor.hpp\"\n")
expect_failure(upward
  "src/models/collectives/engine.hpp: includes \"models/accelerator/device_executor.hpp\": layer collectives does not use layer accelerator")

make_case(cycle models/network/fabric.hpp "#pragma once\n#include \"models/hardware.hpp\"\n")
file(APPEND ${WORK}/cycle/src/layers.cmake "list(APPEND RACKSCALE_LAYER_network_USES workload)\n")
expect_failure(cycle "src/layers.cmake: layer network uses workload, listed after it")

make_case(unlisted models/graphs/graph.hpp "#pragma once\n")
expect_failure(unlisted "src/models/graphs/graph.hpp: belongs to no layer of src/layers.cmake")
