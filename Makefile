# Entry points for people and CI; CMake presets do the real work (CMakePresets.json).
#   make run    install what rackscale needs, build the rackscale command only, run the default
#               example on 2 MPI ranks
#   make test   install what the tests need too (scripts/install-deps.sh --for-tests), build
#               everything, run every test
#   make bench  install Google Benchmark, build, run the benchmarks in bench/ (figures go to
#               docs/performance.md)
# WERROR=ON turns compiler warnings into errors. CI sets it (.ci/run); it is off by default so that a
# newer compiler's new warnings do not stop a user's build.
JOBS ?= $(shell nproc)
WERROR ?= OFF
MPIRUN = scripts/mpirun.sh
CONFIGURE = cmake --preset release -DRACKSCALE_WERROR=$(WERROR)
# make run needs neither GoogleTest nor Google Benchmark: the first configure of build/ leaves the tests
# and benchmarks out, and later ones keep what build/ has (make test and make bench turn them on).
FIRST_TIME = $(if $(wildcard build/CMakeCache.txt),,-DRACKSCALE_BUILD_TESTS=OFF -DRACKSCALE_BUILD_BENCH=OFF)

.PHONY: run test bench clean

run:
	@sh scripts/install-deps.sh
	@$(CONFIGURE) $(FIRST_TIME) >/dev/null
	@cmake --build --preset release -j $(JOBS) --target rackscale
	$(MPIRUN) -np 2 build/rackscale run configs/training/laptop-64.yaml

test:
	@sh scripts/install-deps.sh --for-tests
	@$(CONFIGURE) -DRACKSCALE_BUILD_TESTS=ON -DRACKSCALE_BUILD_BENCH=ON >/dev/null
	@cmake --build --preset release -j $(JOBS)
	ctest --preset release -j $(JOBS)

bench:
	@sh scripts/install-deps.sh --for-bench
	@$(CONFIGURE) $(FIRST_TIME) -DRACKSCALE_BUILD_BENCH=ON >/dev/null
	@cmake --build --preset release -j $(JOBS)
	sh bench/run_all.sh

clean:
	rm -rf build build-debug build-asan
