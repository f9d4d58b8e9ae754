# tools/plot_results.py as users run it: from a small training run's file it draws the stage breakdown
# and the link utilization, from a traffic run's the link utilization, from a collective sweep's the bus
# bandwidth against size, from a file with a /tco group
# (the TCO test's hand-filled report) the TCO breakdown; every PNG is a real picture (a PNG signature
# and more than a few kilobytes). A text file, a missing file, an HDF5 file that is not a results file
# and a results file of the old format version are refused with exit code 2 and a message naming the
# file. The units the axes and titles use are checked against values worked out by hand.
#   cmake -DMPIRUN=... -DRACKSCALE=... -DPYTHON=/usr/bin/python3 -DPLOT=tools/plot_results.py
#         -DTCO_TEST=test_collective_output -DCONFIGS=configs -DWORK=dir -P plot_results.cmake
include(${CMAKE_CURRENT_LIST_DIR}/script_helpers.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})


function(expect_pictures directory)
  foreach(name IN LISTS ARGN)
    set(png ${directory}/${name})
    if(NOT EXISTS ${png})
      message(FATAL_ERROR "${png} was not drawn")
    endif()
    file(SIZE ${png} size)
    file(READ ${png} signature LIMIT 8 HEX)
    if(size LESS 8000 OR NOT signature STREQUAL "89504e470d0a1a0a")
      message(FATAL_ERROR "${png} is not a real picture: ${size} bytes, signature ${signature}")
    endif()
  endforeach()
endfunction()

function(expect_refused file pattern)
  execute_process(COMMAND ${PYTHON} ${PLOT} ${file} -o ${WORK}/refused RESULT_VARIABLE code ERROR_VARIABLE err)
  if(NOT code EQUAL 2 OR NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "plotting ${file}: exit ${code}, expected 2 and stderr matching '${pattern}':\n${err}")
  endif()
endfunction()

run_or_fail(${MPIRUN} -np 1 ${RACKSCALE} run ${CONFIGS}/training/laptop-64.yaml --set cluster.nodes=4
            --set workload.model.layers=4 --set workload.parallel.global_batch=16 --output ${WORK}/training.h5)
run_or_fail(${PYTHON} ${PLOT} ${WORK}/training.h5 -o ${WORK}/training)
expect_pictures(${WORK}/training stage_breakdown.png link_utilization.png)

run_or_fail(${MPIRUN} -np 1 ${RACKSCALE} run ${CONFIGS}/examples/fat-tree-128.yaml --set workload.bytes=64KiB
            --output ${WORK}/traffic.h5)
run_or_fail(${PYTHON} ${PLOT} ${WORK}/traffic.h5 -o ${WORK}/traffic)
expect_pictures(${WORK}/traffic link_utilization.png)
if(EXISTS ${WORK}/traffic/stage_breakdown.png)
  message(FATAL_ERROR "a stage breakdown was drawn for a traffic run")
endif()

# A collective sweep whose first rows have 0 bytes (an all-gather of 16 halves over 16 ranks).
run_or_fail(${MPIRUN} -np 1 ${RACKSCALE} run ${CONFIGS}/examples/nccl-allreduce-2node-h100.yaml
            --set workload.op=all_gather --set workload.data_type=half --set workload.max_bytes=1MiB
            --output ${WORK}/collective.h5)
run_or_fail(${PYTHON} ${PLOT} ${WORK}/collective.h5 -o ${WORK}/collective)
expect_pictures(${WORK}/collective collective_busbw.png)

run_or_fail(${CMAKE_COMMAND} -E env RACKSCALE_TCO_SAMPLE=${WORK}/tco.h5
            ${MPIRUN} -np 1 ${TCO_TEST} --gtest_filter=TcoOutput.*)
run_or_fail(${PYTHON} ${PLOT} ${WORK}/tco.h5 -o ${WORK}/tco)
expect_pictures(${WORK}/tco tco_breakdown.png)

# The axis and title units: the largest value picks the unit; four significant figures as the summaries.
get_filename_component(tools ${PLOT} DIRECTORY)
run_or_fail(${PYTHON} -c "
import sys
sys.path.insert(0, sys.argv[1])
import plot_results as p
checks = [
    (p.unit_for(36.13, p.CARBON_UNITS_KG), ('kg', 1.0)),      # 36 kg is not '0.0 tCO2e'
    (p.unit_for(0.5, p.CARBON_UNITS_KG), ('g', 1e-3)),
    (p.unit_for(552e3, p.CARBON_UNITS_KG), ('t', 1e3)),
    (p.unit_for(1.66e11, p.TIME_UNITS_PS), ('ms', 1e9)),      # a 166 ms stage is drawn in ms, not ps
    (p.unit_for(3.2e6, p.TIME_UNITS_PS), ('us', 1e6)),
    (p.four_figures(36.13437), '36.13'), (p.four_figures(16.0), '16'), (p.four_figures(323.991), '324.0'),
    (p.four_figures(9.99951), '10.00'), (p.usd_text(167.436), '\$167.4'), (p.usd_text(4.569e6), '\$4.569 M'),
]
bad = [(got, want) for got, want in checks if got != want]
sys.exit(f'unit checks failed (got, expected): {bad}' if bad else 0)
" ${tools})

# A file of the previous format version: its figures had other names.
run_or_fail(${PYTHON} -c "
import shutil, sys, h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], 'a') as f:
    f.attrs['format_version'] = 1
" ${WORK}/tco.h5 ${WORK}/old.h5)
expect_refused(${WORK}/old.h5 "old.h5: format_version 1 is older than this script reads \\(2\\)")

file(WRITE ${WORK}/notes.txt "not a results file")
expect_refused(${WORK}/notes.txt "^plot_results.py: ${WORK}/notes.txt: not an HDF5 file")
expect_refused(${WORK}/missing.h5 "^plot_results.py: ${WORK}/missing.h5: no such file")
# An HDF5 file of another program: the partial file of a results file has no attributes yet, so an
# empty HDF5 file stands in, made by h5py.
run_or_fail(${PYTHON} -c "__import__('h5py').File(__import__('sys').argv[1], 'w').close()" ${WORK}/other.h5)
expect_refused(${WORK}/other.h5 "not a rackscale results file \\(expected the root attribute format = 'rackscale results', found no 'format' attribute\\)")
file(REMOVE_RECURSE ${WORK})
