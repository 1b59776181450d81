#!/bin/sh
# Where the fused right-hand side's time goes: each shipped Intel winner (N = 1..3, the
# 24 576-element box) timed beside copies of itself with one part of rhsres replaced by a
# no-op (element-probes.patch: -DEXP_NOGATHER own traces instead of the neighbours',
# -DEXP_NOFLUX no face loop, -DEXP_NOVOL / -DEXP_NOLIFT one term of the volume / lift sums),
# all interleaved in one process (stagetime.c: no verification; the probes are wrong on
# purpose). Not part of the build: run from the repository root on a clean tree.
#   usage: sh bench/results/<this dir>/run.sh > OUT.txt
set -eu
d=$(dirname "$0")
git apply "$d/element-probes.patch"
trap 'git checkout cl_templates/element.cl' EXIT
make -s -j2 build/libdgtd.a
pk="OpenCL clblast libcjson lapacke mpich"
cc -std=c11 -O2 -D_XOPEN_SOURCE=700 -DCL_TARGET_OPENCL_VERSION=120 -Isrc $(pkg-config --cflags $pk) \
  -I/usr/include/scotch -o /tmp/dgtd-stagetime "$d/stagetime.c" build/libdgtd.a \
  $(pkg-config --libs $pk) -lscotch -lscotcherr -lm
for cfg in "1 float path=kernels,work=vec,vw=16,kb=16,unroll=1,lift=separate,lnpw=2,fuse=res" \
           "2 float path=kernels,work=vec,vw=16,kb=4,unroll=4,lift=separate,lnpw=2,fuse=res" \
           "3 float path=kernels,work=vec,vw=16,kb=4,unroll=4,lift=separate,lnpw=2,fuse=res" \
           "1 double path=kernels,work=vec,vw=8,kb=16,unroll=full,lift=separate,fuse=res" \
           "2 double path=kernels,work=vec,vw=8,kb=16,unroll=4,lift=separate,lnpw=2,fuse=res" \
           "3 double path=kernels,work=vec,vw=8,kb=8,unroll=4,ops=literal,lift=separate,lnpw=2,fuse=res"; do
  set -- $cfg
  for run in 1 2; do
    echo "== N=$1 $2 run $run"
    DGTD_BINARY_CACHE=0 /tmp/dgtd-stagetime "$1" "$2" 16 "$3" "-DEXP_NOGATHER|$3" "-DEXP_NOFLUX|$3" \
      "-DEXP_NOVOL|$3" "-DEXP_NOLIFT|$3" "-DEXP_NOVOL -DEXP_NOLIFT -DEXP_NOFLUX|$3"
  done
done
