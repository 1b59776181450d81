#!/usr/bin/env bash
# Time libparanumal's maxwell solver (built by bench/libparanumal/build.sh) on the box mesh
# `dgtd bench --dofs DOFS` uses at each order: n = round(cbrt(DOFS / (36 Np))) (n >= 2),
# K = 6 n^3 tetrahedra, LSERK4, OpenCL. Prints each run's `libp_bench:` line (the stepping
# rate, counted as dgtd counts: 6 Np K DOFs x 5 RHS evaluations per step per second).
#   usage: run.sh LIBP PREC ORDERS DOFS [OUTDIR [PLATFORM [DEVICE [SECONDS [LIMIT]]]]]
#   LIBP: build.sh's DEST; PREC float|double; ORDERS 3, 1-6 or 1,3,5; SECONDS: about how
#   long the first timed run takes (default 1; the second takes twice as long, and the rate
#   is from their difference); LIMIT: seconds per run, set-up included (default 300)
# CLMEM_CHECK=1 preloads LIBP/clmem_check.so (build.sh makes it): each run then also prints its
# `clmem_check:` line (OpenCL sub-buffers leaked, buffers used while mapped, host memory given
# to a kernel, sub-buffers made and released every step; the log has its per-kernel, per-step
# and API-time lines) and fails unless verdict=ok. A check, not a timing: the preloaded
# library slows every launch a little.
set -uo pipefail
libp=${1:?usage: run.sh LIBP PREC ORDERS DOFS [OUTDIR [PLATFORM [DEVICE [SECONDS [LIMIT]]]]]}
prec=${2:?precision}; orders=${3:?orders}; dofs=${4:?DOFs}
out=${5:-$(mktemp -d)}; plat=${6:-0}; dev=${7:-0}
seconds=${8:-1}
limit=${9:-300}
tree=$libp/$prec/libparanumal
exe=$tree/solvers/maxwell/maxwellMain
[ -x "$exe" ] || { echo "run.sh: no $exe (run bench/libparanumal/build.sh)" >&2; exit 2; }
mkdir -p "$out"
preload=()
if [ "${CLMEM_CHECK:-0}" = 1 ]; then
  [ -e "$libp/clmem_check.so" ] || { echo "run.sh: no $libp/clmem_check.so (run build.sh)" >&2; exit 2; }
  preload=(env "LD_PRELOAD=$libp/clmem_check.so")
fi
list=()
for part in ${orders//,/ }; do
  if [[ $part == *-* ]]; then list+=($(seq "${part%-*}" "${part#*-}")); else list+=("$part"); fi
done
export OCCA_OPENCL_C_VERSION=1.2 OCCA_DIR=$tree/occa LIBP_CACHE_DIR=${LIBP_CACHE_DIR:-$out/occa-cache} OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
fail=0
for N in "${list[@]}"; do
  n=$(awk -v d="$dofs" -v N="$N" 'BEGIN { np = (N+1)*(N+2)*(N+3)/6;
        x = d / (36*np); n = int(exp(log(x)/3) + 0.5); print (n < 2 ? 2 : n) }')
  rc=$out/setup-$prec-N$N.rc
  # the solver's own case (setups/setupTet3D.rc) with the box, order, OpenCL and LSERK4 set;
  # no output or error evaluation during the timed steps
  {
    printf '[FORMAT]\n2.0\n[DATA FILE]\ndata/maxwellMode3D.h\n[MESH FILE]\nBOX\n'
    printf '[MESH DIMENSION]\n3\n[ELEMENT TYPE]\n6\n'
    printf '[BOX NX]\n%d\n[BOX NY]\n%d\n[BOX NZ]\n%d\n' "$n" "$n" "$n"
    printf '[BOX DIMX]\n2\n[BOX DIMY]\n2\n[BOX DIMZ]\n2\n[BOX BOUNDARY FLAG]\n1\n'
    printf '[POLYNOMIAL DEGREE]\n%d\n[THREAD MODEL]\nOpenCL\n' "$N"
    printf '[PLATFORM NUMBER]\n%d\n[DEVICE NUMBER]\n%d\n' "$plat" "$dev"
    printf '[TIME INTEGRATOR]\nLSERK4\n[START TIME]\n0\n[FINAL TIME]\n1\n'
    printf '[OUTPUT INTERVAL]\n1e9\n[OUTPUT TO FILE]\nFALSE\n[OUTPUT FILE NAME]\nmaxwell\n'
    printf '[COMPUTE ERROR]\nFALSE\n'
  } > "$rc"
  t0=$(date +%s.%N)
  (cd "$tree/solvers/maxwell" && timeout --kill-after=5 "$limit" "${preload[@]}" "$exe" "$rc" "$seconds") \
    > "$out/libp-$prec-N$N.log" 2>&1
  st=$?
  t1=$(date +%s.%N)
  line=$(grep '^libp_bench:' "$out/libp-$prec-N$N.log")
  if [ "$st" -eq 0 ] && [ -n "$line" ]; then
    echo "$line wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
    # a zero or non-finite state means the solver did not run correctly: not a measurement
    [[ $line == *valid=1* ]] || { echo "libp N=$N $prec: state not valid, rate not usable"; fail=1; }
    if [ ${#preload[@]} -gt 0 ]; then
      chk=$(grep '^clmem_check: buffers' "$out/libp-$prec-N$N.log" | tail -1)
      echo "${chk:-libp N=$N $prec: no clmem_check line}"
      [[ $chk == *verdict=ok* ]] || fail=1
    fi
  else
    echo "libp N=$N $prec: exit $st (log: $out/libp-$prec-N$N.log)"; tail -5 "$out/libp-$prec-N$N.log"
    fail=1
  fi
done
exit $fail
