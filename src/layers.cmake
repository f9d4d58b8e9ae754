# The layers of src/ and what each may use (docs/design.md, "Layers"), bottom up. One table for two
# readers:
#   - the build (src/models/CMakeLists.txt) makes one static library rackscale_<layer> per layer under
#     models/ and links it with the libraries of the layers it uses, and nothing else, so that the linker
#     refuses a call into a layer that is not listed (tests/harness/links_alone.cpp);
#   - the test layers_keep_their_order (tests/harness/layer_includes.cmake) fails when a file of src/
#     includes a header of a layer its own does not use, directly or through the layers it uses, when a
#     layer uses one listed after it (a cycle), or when a file belongs to no layer.
# A file belongs to the layer whose PATHS entry (relative to src/) is the longest start of its path: a
# directory (ending in "/") holds everything below it unless a longer entry claims it
# (models/network/topology/ is a layer of its own inside models/network/); a file names itself.
#
# rackscale_layer(NAME [PATHS path...] [USES layer...])
macro(rackscale_layer name)
  cmake_parse_arguments(_layer "" "" "PATHS;USES" ${ARGN})
  list(APPEND RACKSCALE_LAYERS ${name})
  set(RACKSCALE_LAYER_${name}_PATHS ${_layer_PATHS})
  set(RACKSCALE_LAYER_${name}_USES ${_layer_USES})
endmacro()
set(RACKSCALE_LAYERS "")

rackscale_layer(pdes PATHS pdes/)
rackscale_layer(partition PATHS partition/ USES pdes)
# The models: the cluster's LPs and the job; no files, no command lines.
# Accelerator, link and switch specs: what the hardware presets fill in.
rackscale_layer(hardware PATHS models/hardware.hpp USES pdes)
# What the accelerator runs and the collectives implement: ops and programs, collective kinds, groups,
# algorithms, and how message tags are shared.
rackscale_layer(vocabulary PATHS models/vocabulary/)
# Cluster spec to topology. Its spec, graph and router interfaces sit in network/ beside the LPs that use
# them; their code is here.
rackscale_layer(topology
  PATHS models/network/topology/ models/network/cluster_spec.hpp models/network/topology.hpp
        models/network/router.hpp models/network/build_topology.hpp
  USES hardware pdes)
rackscale_layer(network PATHS models/network/ USES topology partition)
rackscale_layer(statistics PATHS models/statistics/ USES pdes)
rackscale_layer(phold PATHS models/phold/ USES pdes)
# A whole training run's interruptions, checkpoints and restarts, replicated (docs/goodput.md).
rackscale_layer(goodput PATHS models/goodput/ USES pdes)
rackscale_layer(power PATHS models/power/ USES topology)
rackscale_layer(tco PATHS models/tco/ USES power network)
rackscale_layer(collectives PATHS models/collectives/ USES vocabulary network)
rackscale_layer(accelerator PATHS models/accelerator/ USES collectives)
# Training jobs: layouts, the memory footprint, plans and programs, reports.
rackscale_layer(workload PATHS models/workload/ USES accelerator power tco goodput)
# Whether a job fits in memory, and what would make it fit.
rackscale_layer(memory PATHS models/memory/ USES workload)
rackscale_layer(scenario PATHS models/scenario.hpp models/scenario.cpp USES workload goodput)
rackscale_layer(traffic PATHS models/traffic/ USES scenario statistics)
# Above the models. sim/ (a run's Session, issue 24) is the layer between the models and io/.
rackscale_layer(sim PATHS sim/ USES memory traffic phold)
# Searching a training job's layouts: the space, the pruning rules and the estimate (docs/search.md).
rackscale_layer(search PATHS search/ USES memory goodput)
rackscale_layer(io PATHS io/ USES sim)
rackscale_layer(app PATHS app/ USES io search)

# rackscale_layer_of(PATH OUT): the layer the file src/PATH belongs to, "" when none.
function(rackscale_layer_of path out)
  set(best "")
  set(best_length 0)
  foreach(layer IN LISTS RACKSCALE_LAYERS)
    foreach(entry IN LISTS RACKSCALE_LAYER_${layer}_PATHS)
      string(LENGTH "${entry}" length)
      string(SUBSTRING "${path}" 0 ${length} start)
      if(length GREATER best_length AND ((entry MATCHES "/$" AND start STREQUAL entry) OR path STREQUAL entry))
        set(best ${layer})
        set(best_length ${length})
      endif()
    endforeach()
  endforeach()
  set(${out} "${best}" PARENT_SCOPE)
endfunction()

# rackscale_layer_reach(LAYER OUT): the layers LAYER may use, directly or through the layers it uses.
function(rackscale_layer_reach layer out)
  set(reach "")
  set(pending ${RACKSCALE_LAYER_${layer}_USES})
  while(pending)
    list(POP_FRONT pending next)
    if(NOT next IN_LIST reach)
      list(APPEND reach ${next})
      list(APPEND pending ${RACKSCALE_LAYER_${next}_USES})
    endif()
  endwhile()
  set(${out} "${reach}" PARENT_SCOPE)
endfunction()
