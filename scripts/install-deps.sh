#!/bin/sh
# Installs every Debian package dgtd needs to build, test and plot, and the GPU vendors'
# offline compilers scripts/gpu_isa.py uses (clang-14/llc-14 with libclc for NVIDIA and AMD;
# Intel's ocloc unpacked into $BUILD/intel, never registered as an OpenCL ICD; where no CUDA
# toolkit provides ptxas, the PyPI wheel nvidia-cuda-nvcc-cu12 unpacked into
# $BUILD/cuda-nvcc). Idempotent: what is already there is skipped.
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
  gmsh gnuplot-nox python3-vtk9 python3-scipy \
  clang-14 llvm-14 libclc-14"

if [ "${1:-}" = "--list" ]; then
  echo $PACKAGES
  exit 0
fi

BUILD_DIR=${BUILD:-build}
# Intel's OpenCL compiler (ocloc) and the libraries it loads, from Debian's packages, unpacked
# (not installed: an installed intel-opencl-icd registers an ICD that breaks make asan).
INTEL_DEBS="intel-opencl-icd libigdfcl1 libigc1 libigdgmm12 libopencl-clang14 libllvmspirvlib14"
intel_ocloc() {
  [ -x "$BUILD_DIR/intel/usr/bin/ocloc" ] && return 0
  tmp=$(mktemp -d)
  if (cd "$tmp" && apt-get download $INTEL_DEBS > /dev/null 2>&1); then
    mkdir -p "$BUILD_DIR/intel"
    for d in "$tmp"/*.deb; do dpkg -x "$d" "$BUILD_DIR/intel"; done
    echo "install-deps: Intel's ocloc unpacked into $BUILD_DIR/intel"
  else
    echo "install-deps: could not download $INTEL_DEBS (apt-get download); the Intel part of" \
         "scripts/gpu_isa.py will be skipped" >&2
  fi
  rm -rf "$tmp"
}
# ptxas: the CUDA toolkit's, else the pinned PyPI wheel.
NVCC_WHEEL="nvidia-cuda-nvcc-cu12==12.6.85"
cuda_ptxas() {
  command -v ptxas > /dev/null 2>&1 && return 0
  [ -x /usr/local/cuda/bin/ptxas ] && return 0
  [ -x "$BUILD_DIR/cuda-nvcc/nvidia/cuda_nvcc/bin/ptxas" ] && return 0
  tmp=$(mktemp -d)
  if python3 -m pip download --no-deps --only-binary=:all: -d "$tmp" "$NVCC_WHEEL" \
       > /dev/null 2>&1; then
    mkdir -p "$BUILD_DIR/cuda-nvcc"
    python3 -m zipfile -e "$tmp"/*.whl "$BUILD_DIR/cuda-nvcc"
    chmod +x "$BUILD_DIR/cuda-nvcc/nvidia/cuda_nvcc/bin/"* 2> /dev/null || true
    echo "install-deps: ptxas from $NVCC_WHEEL in $BUILD_DIR/cuda-nvcc"
  else
    echo "install-deps: no ptxas and could not fetch $NVCC_WHEEL from PyPI; the NVIDIA part" \
         "of scripts/gpu_isa.py will be skipped" >&2
  fi
  rm -rf "$tmp"
}

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
else
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
fi
intel_ocloc
cuda_ptxas
