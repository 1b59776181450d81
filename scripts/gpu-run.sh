#!/usr/bin/env bash
# The batches a lent GPU machine runs. Device time is short and a machine goes back 30 s
# after a call, so each call runs a list of stages, each under its own time limit, and
# always ends by packing everything into $OUT/gpu-results.tar.gz (the device tool returns at
# most 8 files). The tuning cache travels between calls in .gpu/cache (carry .gpu).
#   usage (on the device, from the project root):
#     tar xzf .gpu/dgtd-gpu.tar.gz -C /tmp && bash /tmp/dgtd-gpu/gpu-run.sh STAGE...
#   stages: setup verify startup limits tune:PREC[:ORDERS[:LIMIT]]
#           bench:PREC[:ORDERS[:LIMIT[:DOFS]]] (DOFS: the problem size, default the tuner's)
#           libp:PREC:ORDERS:DOFS[:LIMIT] (libparanumal's maxwell on the same box mesh as
#           `dgtd bench --dofs DOFS`, stepping timed by bench/libparanumal/libp_bench.cpp;
#           needs the bundle made with bench/libparanumal/build.sh's tree; CLMEM_CHECK=1
#           preloads its memory checker, LIBP_SECONDS=1e-9 runs a fixed 3+3+3+6 steps)
#           dump:PREC:ORDERS (tuned winners' source, build log with -cl-nv-verbose, and
#           CL_KERNEL_* info) mpi variants:PREC:N:SPEC[;SPEC...] (bench of extra variants)
#           pml:PREC[:ORDERS[:LIMIT[:CELLS]]] (bench --pml: the PML kernels per PML element)
#           multirate (the sphere case under global LSERK4, MRAB3 and multirate LSERK4, two of
#           them again with --profile, and what --time-stepping auto chooses)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
res=${RESULTS:-/tmp/dgtd-results}
# A machine still warm from the last call keeps /tmp: start from an empty results folder.
rm -rf "$res"
mkdir -p "$res" .gpu/cache
export DGTD_CACHE_DIR=$PWD/.gpu/cache
# shellcheck source=/dev/null
source "$here/env.sh"
# No gnuplot there: a stand-in that does nothing, so `bench --plot` still writes every .gp
# script; render them on the CPU machine with scripts/plot_bench.sh.
command -v gnuplot > /dev/null || { printf '#!/bin/sh\nexit 0\n' > "$here/bin/gnuplot"; chmod +x "$here/bin/gnuplot"; }
exec 3>&1 # the terminal's stdout, for stage lines (a stage's own output goes to its files)
log() { echo "[$(date +%T)] $*" | tee -a "$res/stages.txt" >&3; }
stage() { # name limit command...
  local name=$1 lim=$2; shift 2
  local t0; t0=$(date +%s)
  timeout --kill-after=5 "$lim" "$@"
  local rc=$?
  log "$name: exit $rc in $(( $(date +%s) - t0 )) s (limit $lim s)"
}
for s in "$@"; do
  IFS=: read -r what a b c e <<< "$s"
  case $what in
  setup)
    {
      echo "== nvidia-smi"; nvidia-smi 2>&1 | head -20
      echo "== libnvidia-opencl"; ldconfig -p 2>/dev/null | grep -i -E "opencl"
      find / -name 'libnvidia-opencl*' -not -path '/proc/*' 2>/dev/null | head
      ls -la /etc/OpenCL/vendors 2>&1; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
      echo "== CUDA toolkit (OCCA's CUDA mode needs nvcc)"; command -v nvcc; ls -d /usr/local/cuda* 2>&1
    } > "$res/opencl-setup.txt" 2>&1
    stage devices 60 dgtd devices > "$res/devices.txt" 2>&1
    timeout 30 clinfo > "$res/clinfo.txt" 2>&1 # cache sizes and the rest dgtd does not print
    dgtd devices --json > "$res/devices.json" 2>&1 ;;
  verify)
    # Every GPU-relevant test binary, 6 at a time (the CPU references use the host's cores).
    mkdir -p "$res/verify"
    ls "$here"/bin/test_* | timeout 110 xargs -P 6 -I{} sh -c \
      'CMOCKA_MESSAGE_OUTPUT=TAP timeout 150 {} > "$0/verify/$(basename {}).tap" 2>&1; echo "$(basename {}): exit $?" >> "$0/verification.txt"' "$res"
    log "verify: $(grep -c 'exit 0' "$res/verification.txt") of $(wc -l < "$res/verification.txt") binaries passed" ;;
  startup)
    cold=$(mktemp -d)
    t0=$(date +%s.%N)
    # cold: neither dgtd's binary cache nor the driver's JIT cache (CUDA_CACHE_DISABLE)
    CUDA_CACHE_DISABLE=1 DGTD_CACHE_DIR=$cold dgtd run --quiet --tune never > "$res/run-cold.txt" 2>&1
    t1=$(date +%s.%N)
    DGTD_CACHE_DIR=$cold dgtd run --quiet --tune never > "$res/run-warm.txt" 2>&1
    t2=$(date +%s.%N)
    echo "start-up + default run (make run's case): cold cache $(awk "BEGIN{print $t1 - $t0}") s, warm $(awk "BEGIN{print $t2 - $t1}") s" | tee "$res/startup.txt" ;;
  limits) stage limits 120 dgtd tune --measure-limits > "$res/limits.txt" 2>&1 ;;
  tune)
    # --budget 20 s inside the stage's limit, so the search ends with its winners cached
    lim=${c:-300}
    stage "tune $a ${b:-1-8}" "$lim" dgtd tune --order "${b:-1-8}" --precision "$a" \
      --budget $((lim - 20)) --csv "$res/tune-$a.csv" > "$res/tune-$a.txt" 2> "$res/tune-$a.log" ;;
  bench)
    f=bench-$a${e:+-$e}
    stage "bench $a ${b:-1-8}${e:+ at $e DOFs}" "${c:-150}" dgtd bench --order "${b:-1-8}" \
      --precision "$a" ${e:+--dofs "$e"} --save "$res/$f.json" --plot "$res/$f" \
      > "$res/$f.txt" 2>&1 ;;
  pml) # what the CFS-PML costs per PML element beside the stage (the largest kernel of the
    # open-region cases on PoCL): bench's --pml rows, CELLS cells of layer (default 2)
    stage "pml $a ${b:-2-4}" "${c:-150}" dgtd bench --order "${b:-2-4}" --precision "$a" \
      --pml "${e:-2}" > "$res/pml-$a.txt" 2>&1 ;;
  libp)
    # libparanumal's tree must sit where it was built (it compiles its path in): unpack once
    if [ ! -e "$here/libp.tar.gz" ]; then log "libp: not in this bundle"; continue; fi
    lp=$(cat "$here/libp.path")
    [ -d "$lp" ] || tar xzf "$here/libp.tar.gz" -C /
    export LIBP_CACHE_DIR=/tmp/libp-occa-cache # OCCA's kernel cache: not a result
    stage "libp $a $b at $c DOFs" "${e:-300}" bash "$here/libp_run.sh" "$lp" "$a" "$b" "$c" \
      "$res/libp-$a-$c" "${LIBP_PLATFORM:-0}" "${LIBP_DEVICE:-0}" "${LIBP_SECONDS:-1}" \
      > "$res/libp-$a-$c.txt" 2>&1 ;;
  dump)
    for n in $(seq "${b%-*}" "${b#*-}"); do
      DGTD_CL_OPTIONS=-cl-nv-verbose stage "dump $a N=$n" 60 dgtd run --quiet --order "$n" \
        --precision "$a" --steps 1 --box 8 --dump-kernels "$res/dump-$a-N$n" > /dev/null 2>&1
    done ;;
  variants)
    args=(); IFS=';' read -ra specs <<< "$c"
    for v in "${specs[@]}"; do args+=(--variant "$v"); done
    stage "variants $a N=$b" 200 dgtd bench --order "$b" --precision "$a" "${args[@]}" \
      --save "$res/variants-$a-N$b.json" > "$res/variants-$a-N$b.txt" 2>&1 ;;
  multirate) # the shipped sphere case to t = 1, each scheme (issue 37), float, tuned variant,
    # no snapshots (their count differs between schemes); then global and multirate LSERK4
    # once more with each kernel's device time (--profile), and what auto predicts
    for ts in lserk4 multirate multirate-lserk4; do
      stage "multirate $ts" 240 dgtd run configs/sphere_plane_wave.json --final-time 1 \
        --precision float --time-stepping "$ts" --output "$res/mr-$ts" --vtu-every 0 --quiet \
        --json > "$res/multirate-$ts.json" 2>&1
    done
    for ts in lserk4 multirate-lserk4; do
      stage "multirate $ts profiled" 240 dgtd run configs/sphere_plane_wave.json --final-time 1 \
        --precision float --time-stepping "$ts" --output "$res/mr-$ts" --vtu-every 0 --profile \
        > "$res/multirate-$ts-profile.txt" 2>&1
    done
    stage "multirate auto" 120 dgtd run configs/sphere_plane_wave.json --final-time 0.05 \
      --precision float --time-stepping auto --output "$res/mr-auto" --vtu-every 0 \
      > "$res/multirate-auto.txt" 2>&1
    rm -rf "$res"/mr-* ;;
  mpi)
    stage "mpi 1 rank" 60 dgtd run --quiet --json --order 3 --box 8 > "$res/mpi-1.json" 2>&1
    stage "mpi 2 ranks" 90 mpiexec.mpich -n 2 dgtd run --quiet --json --order 3 --box 8 \
      > "$res/mpi-2.json" 2>&1 ;;
  *) log "unknown stage '$s'" ;;
  esac
done
cp -r .gpu/cache "$res/cache" # the whole cache; the next call carries it back in .gpu/cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv \
  > "$res/gpu-state.csv" 2>&1
mkdir -p "${OUT:-/tmp}"
tar czf "${OUT:-/tmp}/gpu-results.tar.gz" -C "$(dirname "$res")" "$(basename "$res")"
