#!/bin/sh
# Installs every Debian package dgtd needs to build, test and plot. Idempotent: packages
# already present are skipped, and nothing is done when all are there.
#   usage: scripts/install-deps.sh          (as root, or with sudo available)
#          scripts/install-deps.sh --list   (print the package names and exit)
set -eu

PACKAGES="build-essential pkg-config \
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo \
  libclblast-dev \
  mpich libmpich-dev \
  libscotch-dev \
  libcjson-dev \
  liblapacke-dev liblapack-dev libblas-dev \
  libcmocka-dev \
  oclgrind \
  gmsh gnuplot-nox python3-vtk9 python3-scipy"

if [ "${1:-}" = "--list" ]; then
  echo $PACKAGES
  exit 0
fi

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
  exit 0
fi

echo "install-deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-deps: not root and no sudo; run as root:" >&2
    echo "  apt-get install -y$missing" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
