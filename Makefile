# Entry points for people and CI; CMake presets do the real work (CMakePresets.json).
#   make run    install dependencies, build, run the default example on 2 MPI ranks
#   make test   install dependencies, build, run every test
#   make bench  build and run the benchmarks in bench/ (figures go to docs/performance.md)
JOBS ?= $(shell nproc)
MPIRUN = scripts/mpirun.sh

.PHONY: deps build run test bench clean

deps:
	@sh scripts/install-deps.sh

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

run: build
	$(MPIRUN) -np 2 build/rackscale run configs/training/laptop-64.yaml

test: build
	ctest --preset release -j $(JOBS)

bench: build
	sh bench/run_all.sh

clean:
	rm -rf build build-debug build-asan
