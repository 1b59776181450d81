#!/usr/bin/env bash
# Build libparanumal's maxwell solver, OpenCL only, in double and in float, with dgtd's timing
# driver (libp_bench.cpp) as its main program, outside the repository. bench/libparanumal/run.sh
# times it; scripts/gpu-pack.sh bundles it when DEST exists.
#   usage: bench/libparanumal/build.sh SOURCE.tar.gz [DEST]      (DEST: default /tmp/libp)
# SOURCE is a tarball of libparanumal's `staging` branch at d3078f9 with its OCCA submodule
# (9866ea5) checked out in libparanumal/occa (bench/README.md, "libparanumal"). The result:
# DEST/{double,float}/libparanumal/solvers/maxwell/maxwellMain (the driver). libparanumal
# compiles its own absolute path in (LIBP_DIR), so the tree runs only at DEST: the GPU bundle
# unpacks it there. About 10 minutes on 2 cores (OCCA once, libparanumal twice).
set -euo pipefail
src=${1:?usage: build.sh SOURCE.tar.gz [DEST]}
dest=${2:-/tmp/libp}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
# OpenCL only (OCCA's CUDA mode does not build against CUDA 13's headers); GITHUB_ACTIONS
# makes OCCA drop -march=native, and libparanumal's flags are its own (make.top) with a
# portable x86-64-v3 in place of -march=native: the build machine's CPU is not the GPU
# machine's. MPICH's compilers, not the `mpic++` alternative (OpenMPI on Debian): dgtd's
# bundle carries MPICH's library, and OpenMPI loads plug-ins from its install folder.
export OCCA_CUDA_ENABLED=0 OCCA_HIP_ENABLED=0 OCCA_METAL_ENABLED=0 OCCA_DPCPP_ENABLED=0 \
       OCCA_OPENCL_ENABLED=1 GITHUB_ACTIONS=1
flags="-fopenmp -O3 -Wall -Wshadow -Wno-unused-function -march=x86-64-v3 -ftree-vectorize -DGLIBCXX_PARALLEL"
# Mends to OCCA 9866ea5's OpenCL memory pool for NVIDIA's OpenCL (PoCL forgives all of them):
# a re-pointed sub-buffer gets the size of the whole pool instead of the slice's
# (modes/opencl/memoryPool.cpp), slices sit at 128-byte offsets where NVIDIA asks
# CL_DEVICE_MEM_BASE_ADDR_ALIGN = 512 bytes (core/memoryPool.cpp), and (the patch below, the
# one that made libparanumal fail there: a zero norm, then CL_MEM_OBJECT_ALLOCATION_FAILURE
# after some steps) sub-buffers are never released. None touches a kernel.
# The files the mends touch, as the source has them (a tree mended by an earlier form of the
# patch gets them back before the current one is applied).
occa_files="modes/opencl/memory.cpp modes/opencl/memoryPool.cpp modes/opencl/buffer.cpp core/memoryPool.cpp"
fix_occa() { # tree
  local o=$1/occa/src/occa/internal f
  grep -q 'dgtdSubBuffer' "$o/modes/opencl/memory.cpp" && return 0 # the current mends
  if grep -q 'dgtd mend' "$o/modes/opencl/memory.cpp"; then
    for f in $occa_files; do
      tar xzf "$src" -C "$(dirname "$1")" "libparanumal/occa/src/occa/internal/$f" ||
        { echo "build.sh: could not restore $f from $src" >&2; exit 1; }
      touch "$o/$f" # newer than its object, so that OCCA's make rebuilds it
    done
  fi
  sed -i 's/^\( *info\.size *= *\)size;/\1m->size;/' "$o/modes/opencl/memoryPool.cpp"
  sed -i 's/^\( *alignment(\)128),/\1512),/' "$o/core/memoryPool.cpp"
  grep -q 'info.size *= *m->size;' "$o/modes/opencl/memoryPool.cpp" &&
    grep -q 'alignment(512),' "$o/core/memoryPool.cpp" ||
    { echo "build.sh: could not apply the OCCA memory-pool fixes in $1" >&2; exit 1; }
  # The third (occa-opencl-memory.patch; docs/notes/libparanumal-memory-pool.md): OCCA never
  # releases the sub-buffer each pool reservation makes, so two leak per LSERK4 step, and
  # NVIDIA fails once the leaked reservations add up to about its memory; and it copies into
  # the pinned host pool while that stays mapped, which NVIDIA never shows the host
  # (libparanumal's reductions, its norm, read 0). Releasing each sub-buffer at once (the
  # patch's first form) made the H100's step ~25x slower: the patch keeps one sub-buffer per
  # region instead, for the next reservation of that region, and releases them with the parent.
  patch -p2 -d "$1" --dry-run --quiet < "$here/occa-opencl-memory.patch" >/dev/null &&
    patch -p2 -d "$1" --quiet < "$here/occa-opencl-memory.patch" ||
    { echo "build.sh: could not apply occa-opencl-memory.patch in $1" >&2; exit 1; }
  [ "$(grep -c 'dgtd mend' "$o/modes/opencl/memory.cpp" "$o/modes/opencl/memoryPool.cpp" \
         "$o/modes/opencl/buffer.cpp" | awk -F: '{ s += $2 } END { print s }')" -eq 11 ] ||
    { echo "build.sh: occa-opencl-memory.patch is not (wholly) applied in $1" >&2; exit 1; }
}
# libparanumal asks OpenCL C 2.0 (-cl-std=CL2.0, and OCCA appends its own -cl-std=CL2.0),
# where unqualified pointers are generic: NVIDIA's OpenCL has OpenCL C 1.2 and 3.0 without
# the generic address space. Ask 1.2, where they are private, which every device has (run.sh
# sets OCCA_OPENCL_C_VERSION=1.2 for OCCA's flag).
fix_clstd() { # tree
  sed -i 's/-cl-std=CL2\.0/-cl-std=CL1.2/' "$1/libs/core/platformProperties.cpp"
  grep -q 'cl-std=CL1.2' "$1/libs/core/platformProperties.cpp" ||
    { echo "build.sh: could not set OpenCL C 1.2 in $1" >&2; exit 1; }
}
build() { # tree
  fix_occa "$1"
  fix_clstd "$1"
  make -C "$1/occa" -j"$(nproc)" # OCCA only rebuilds what the fixes changed
  cp "$here/libp_bench.cpp" "$1/solvers/maxwell/maxwellMain.cpp"
  make -C "$1" -j"$(nproc)" maxwell LIBP_CC=mpicc.mpich LIBP_CXX=mpicxx.mpich \
    LIBP_LD=mpicxx.mpich LIBP_BLAS_DIR=/usr/lib/x86_64-linux-gnu \
    LIBP_BLAS_LIB="-llapack -lblas" LIBP_CFLAGS="$flags" LIBP_CXXFLAGS="$flags -std=c++17"
}
mkdir -p "$dest/double"
if [ ! -x "$dest/double/libparanumal/solvers/maxwell/maxwellMain" ] ||
   ! grep -q 'alignment(512)' "$dest/double/libparanumal/occa/src/occa/internal/core/memoryPool.cpp" ||
   ! grep -q 'cl-std=CL1.2' "$dest/double/libparanumal/libs/core/platformProperties.cpp" ||
   ! grep -q 'dgtdSubBuffer' "$dest/double/libparanumal/occa/src/occa/internal/modes/opencl/memory.cpp"; then
  [ -d "$dest/double/libparanumal" ] || tar xzf "$src" -C "$dest/double"
  build "$dest/double/libparanumal"
fi
if [ ! -x "$dest/float/libparanumal/solvers/maxwell/maxwellMain" ] ||
   ! grep -q 'alignment(512)' "$dest/float/libparanumal/occa/src/occa/internal/core/memoryPool.cpp" ||
   ! grep -q 'cl-std=CL1.2' "$dest/float/libparanumal/libs/core/platformProperties.cpp" ||
   ! grep -q 'dgtdSubBuffer' "$dest/float/libparanumal/occa/src/occa/internal/modes/opencl/memory.cpp"; then
  if [ ! -d "$dest/float/libparanumal" ]; then
    # OCCA does not depend on the precision: copy the double tree with OCCA built, switch
    # dfloat (the first `#if 0` of include/types.h selects float) and rebuild libparanumal.
    mkdir -p "$dest/float"
    cp -a "$dest/double/libparanumal" "$dest/float/"
    t=$dest/float/libparanumal
    sed -i '0,/^#if 0$/s//#if 1/' "$t/include/types.h"
    grep -A1 '^#if 1$' "$t/include/types.h" | grep -q 'define dfloat float' \
      || { echo "build.sh: could not switch $t/include/types.h to float" >&2; exit 1; }
    find "$t/libs" "$t/solvers/maxwell" -name '*.o' -delete
    find "$t/libs" -name '*.a' -delete
    rm -f "$t/solvers/maxwell/maxwellMain"
  fi
  build "$dest/float/libparanumal"
fi
# the checker run.sh preloads with CLMEM_CHECK=1, and a check of OCCA's OpenCL pool on its own
# (in DEST, so scripts/gpu-pack.sh packs them; docs/notes/libparanumal-memory-pool.md)
gcc -O2 -Wall -shared -fPIC -o "$dest/clmem_check.so" "$here/clmem_check.c" -ldl -lpthread
occa=$dest/float/libparanumal/occa
g++ -O2 -Wall -std=c++17 -o "$dest/pool_check" "$here/pool_check.cpp" -I"$occa/include" \
  -L"$occa/lib" -locca -Wl,-rpath,"$occa/lib"
echo "libparanumal built in $dest/{double,float}/libparanumal"
