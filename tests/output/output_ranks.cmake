# `rackscale run --output` at 1, 2 and 4 ranks, with a different partition method each time, in each
# of the given network fidelities: every results dataset (all but /partition and /engine, which
# describe the placement) has the same bytes, as h5dump writes them out raw, and so do the attributes
# of the groups GROUP (comma-separated; printed with 17 significant digits). h5dump must read every file whole.
#   cmake -DMPIRUN=... -DRACKSCALE=... -DH5DUMP=... -DH5LS=... -DCONFIG=... -DWORK=dir
#         [-DSETTINGS=key=value,...] -DFIDELITIES=analytical,chunk -DGROUP=traffic -DMIN_DATASETS=29
#         -P output_ranks.cmake
include(${CMAKE_CURRENT_LIST_DIR}/script_helpers.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
overrides_of(overrides "${SETTINGS}")

string(REPLACE "," ";" FIDELITIES "${FIDELITIES}")
foreach(fidelity IN LISTS FIDELITIES)
  set(files)
  foreach(run 1:block 2:round_robin 4:metis)
    string(REPLACE ":" ";" parts ${run})
    list(GET parts 0 ranks)
    list(GET parts 1 method)
    set(file ${WORK}/${fidelity}-${ranks}.h5)
    run_or_fail(${MPIRUN} -np ${ranks} ${RACKSCALE} run ${CONFIG} --set network.fidelity=${fidelity}
                ${overrides} --partition ${method} --output ${file})
    run_or_fail(${H5DUMP} ${file})  # the whole file, data included
    list(APPEND files ${file})
  endforeach()

  list(GET files 0 reference)
  run_or_fail(${H5LS} -r ${reference})
  set(listing "${output}")
  string(REGEX MATCHALL "\n/[^ \n]+ +Dataset" lines "\n${listing}")
  set(compared 0)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^\n(/[^ ]+) +Dataset$" "\\1" dataset "${line}")
    if(dataset MATCHES "^/(partition|engine)/")
      continue()
    endif()
    set(reference_hash "")
    foreach(file IN LISTS files)
      run_or_fail(${H5DUMP} -d ${dataset} -b LE -o ${file}.bin ${file})
      file(SHA256 ${file}.bin hash)
      if(reference_hash STREQUAL "")
        set(reference_hash ${hash})
      elseif(NOT hash STREQUAL reference_hash)
        message(FATAL_ERROR "${fidelity}: dataset ${dataset} differs between ${reference} and ${file}")
      endif()
    endforeach()
    math(EXPR compared "${compared} + 1")
  endforeach()
  if(compared LESS MIN_DATASETS)
    message(FATAL_ERROR "${fidelity}: only ${compared} datasets found in ${reference}:\n${listing}")
  endif()

  string(REPLACE "," ";" groups "${GROUP}")
  foreach(group IN LISTS groups)
    set(reference_attributes "")
    foreach(file IN LISTS files)
      run_or_fail(${H5DUMP} -A -m %.17g -g /${group} ${file})
      string(REGEX REPLACE "^HDF5 \"[^\"]*\"" "" attributes "${output}")
      if(reference_attributes STREQUAL "")
        set(reference_attributes "${attributes}")
      elseif(NOT attributes STREQUAL reference_attributes)
        message(FATAL_ERROR "${fidelity}: /${group} attributes differ between ${reference} and ${file}:\n"
                            "${reference_attributes}\n---\n${attributes}")
      endif()
    endforeach()
  endforeach()
  message(STATUS "${fidelity}: ${compared} datasets and the attributes of ${GROUP} identical on 1, 2 and 4 ranks")
endforeach()
file(REMOVE_RECURSE ${WORK})
