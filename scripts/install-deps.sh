#!/bin/sh
# Installs what rackscale needs to build, test and run, from Debian 12 packages only.
# Idempotent: prints nothing and changes nothing when every package is already installed.
set -eu

PACKAGES="
  build-essential cmake make git pkg-config openssh-client
  openmpi-bin libopenmpi-dev
  libboost-mpi-dev libboost-serialization-dev
  libhdf5-openmpi-dev hdf5-tools
  libfmt-dev libspdlog-dev libcli11-dev libyaml-cpp-dev nlohmann-json3-dev
  libmetis-dev librandom123-dev libmimalloc-dev
  libgtest-dev libbenchmark-dev
  slurmctld slurmd slurm-client munge python3 python3-h5py python3-matplotlib
"

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
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
