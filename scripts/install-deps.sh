#!/bin/sh
# Installs what rackscale needs from Debian 12 packages only (apt-get, as root or through sudo).
#   sh scripts/install-deps.sh               build and run rackscale, inspect and plot its results
#   sh scripts/install-deps.sh --for-bench   and Google Benchmark, for bench/ (make bench)
#   sh scripts/install-deps.sh --for-tests   and everything the test suite needs (make test): GoogleTest,
#                                            Google Benchmark (make test builds bench/ too), and Slurm
#                                            with munge for the job scripts' test (tests/slurm)
#   sh scripts/install-deps.sh --for-fuzz    and clang with its libFuzzer and sanitizer runtimes, for the
#                                            fuzz preset (make fuzz)
# Slurm and munge stay off a machine that only runs rackscale: their packages start daemons.
# Idempotent: prints nothing and changes nothing when every package is already installed.
set -eu

RUN="
  build-essential cmake make git pkg-config openssh-client
  openmpi-bin libopenmpi-dev
  libboost-mpi-dev libboost-serialization-dev
  libhdf5-openmpi-dev hdf5-tools
  libfmt-dev libspdlog-dev libcli11-dev libyaml-cpp-dev nlohmann-json3-dev
  libmetis-dev librandom123-dev libmimalloc-dev
  protobuf-compiler libprotobuf-dev
  python3 python3-h5py python3-matplotlib
"
BENCH="libbenchmark-dev"
TESTS="libgtest-dev $BENCH slurmctld slurmd slurm-client munge"
FUZZ="clang libclang-rt-dev"

PACKAGES=$RUN
for option in "$@"; do
  case "$option" in
    --for-bench) PACKAGES="$PACKAGES $BENCH" ;;
    --for-tests) PACKAGES="$PACKAGES $TESTS" ;;
    --for-fuzz) PACKAGES="$PACKAGES $FUZZ" ;;
    *) echo "install-deps: unknown option '$option': expected --for-bench, --for-tests or --for-fuzz" >&2; exit 2 ;;
  esac
done

missing=""
for package in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1; then
  as_root="sudo"
else
  echo "install-deps: missing packages:$missing" >&2
  echo "install-deps: run this script as root or install sudo" >&2
  exit 1
fi

echo "install-deps: installing$missing"
$as_root apt-get update -qq
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
