#!/bin/sh
# same-results.sh OUT: a digest of what a refactoring of the OpenCL operator must not change,
# to compare before and after (diff the two OUT files; every line must match):
# - the rendered kernel sources of `dgtd kernels` (every profile, family, order and
#   precision), one sha256 per file;
# - the default case's verification difference, L2 error and energies (float and double);
# - short runs of the example cases (PML and dipoles, dispersive poles, a TF/SF plane wave,
#   curved elements with surface DFTs, device DFTs) under several kernel variants, both
#   precisions, global and multirate LSERK4 and multirate AB3, and two MPI ranks: the
#   sha256 of every CSV a run writes, and its verification difference;
# - `dgtd bench`'s verification differences (rel_diff) on a small box with a PML.
# All on this machine's OpenCL device (PoCL), with --tune never or forced variants.
# Takes a few minutes on 2 cores. Run from the repository root with bin/dgtd built.
set -eu
out=${1:?usage: scripts/same-results.sh OUT}
dgtd=${DGTD:-bin/dgtd}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$out"
export POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-2}

# one run: a label, then dgtd run's arguments; records its CSVs and rel_diff
run() {
  label=$1
  shift
  d="$work/run"
  rm -rf "$d"
  if ! "$dgtd" run "$@" --quiet --json --output "$d" >"$work/run.json" 2>"$work/run.err"; then
    echo "$label FAILED: $(tail -1 "$work/run.err")" >>"$out"
    return
  fi
  /usr/bin/python3 - "$label" "$work/run.json" >>"$out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[2]))
keys = ["verify_rel_diff", "energy_start", "energy_end", "l2_error", "steps", "dt"]
print(sys.argv[1], " ".join("%s=%r" % (k, d[k]) for k in keys if k in d))
EOF
  for f in "$d"/*.csv; do
    if [ -f "$f" ]; then echo "$label $(basename "$f") $(sha256sum <"$f" | cut -c1-16)" >>"$out"; fi
  done
}

"$dgtd" kernels --out "$work/kernels" >/dev/null
(cd "$work/kernels" && find . -name '*.cl' | sort | xargs sha256sum | sed 's/^/kernels /') >>"$out"

for p in float double; do
  run "default-$p" --tune never --precision "$p"
done

steps=4
variants="default
work=vec,vw=8,fuse=res
work=vec,vw=8,fuse=step,unroll=full
work=node,kb=4,fuse=rhs
work=node,kb=2,fuse=step
lift=fused,kb=2,vplace=matrix
lift=separate,flux=point,lkb=2,lplace=field,lnpw=2
path=clblast"
for c in dipole_pml tissue_dipole sphere_plane_wave sphere_rcs dipole_dft; do
  for p in float double; do
    echo "$variants" | while read -r v; do
      if [ "$v" = default ]; then
        run "$c-$p-$v" "configs/$c.json" --steps $steps --precision $p --tune never
      else
        run "$c-$p-$v" "configs/$c.json" --steps $steps --precision $p --variant "$v,prec=$p"
      fi
    done
  done
done

for ts in multirate-lserk4 multirate; do
  for v in default "work=vec,vw=8,fuse=step" "work=node,kb=2,fuse=res"; do
    if [ "$v" = default ]; then set -- --tune never; else set -- --variant "$v"; fi
    run "sphere_plane_wave-$ts-$v" configs/sphere_plane_wave.json --steps 2 \
      --time-stepping "$ts" "$@"
    run "dipole_pml-$ts-$v" configs/dipole_pml.json --steps 2 --time-stepping "$ts" "$@"
  done
done

if command -v mpiexec.mpich >/dev/null 2>&1; then
  for v in default "work=vec,vw=8,fuse=step"; do
    if [ "$v" = default ]; then set -- --tune never; else set -- --variant "$v"; fi
    d="$work/mpi"
    rm -rf "$d"
    POCL_MAX_PTHREAD_COUNT=1 mpiexec.mpich -n 2 "$dgtd" run tests/fixtures/mpi_pml_tfsf_case.json \
      --quiet --output "$d" "$@" >/dev/null 2>"$work/mpi.err" || echo "mpi-$v FAILED" >>"$out"
    for f in "$d"/*.csv; do
      if [ -f "$f" ]; then echo "mpi-$v $(basename "$f") $(sha256sum <"$f" | cut -c1-16)" >>"$out"; fi
    done
  done
fi

"$dgtd" bench --order 1-4 --elements 400 --repeats 3 --pml 1 --variant work=vec,vw=8,fuse=step \
  --json >"$work/bench.json" 2>"$work/bench.err" || { tail -3 "$work/bench.err"; exit 1; }
/usr/bin/python3 - "$work/bench.json" >>"$out" <<'EOF'
import json, sys
def walk(x, path):
    """every rel_diff, named by the orders, PML cells and variant specs above it"""
    if isinstance(x, dict):
        tag = ",".join("%s=%s" % (k, x[k]) for k in ("N", "pml_cells", "spec") if k in x)
        here = path + "/" + tag if tag else path
        for k, v in x.items():
            if k == "rel_diff":
                print("bench", here, "rel_diff=%r" % v)
            elif isinstance(v, (dict, list)):
                walk(v, here)
    elif isinstance(x, list):
        for v in x:
            walk(v, path)
walk(json.load(open(sys.argv[1])), "")
EOF
echo "same-results: $(wc -l <"$out") lines in $out"
