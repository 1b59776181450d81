#!/usr/bin/env bash
# The batch a lent GPU machine runs (device time is short: everything in one command).
# Writes everything under $OUT (default /tmp/dgtd-out): where NVIDIA's OpenCL library was
# found, `dgtd devices`, the variant verification tests in float and double, then (unless
# QUICK=1) limits, tuning and benchmarks for N = 1..8 in both precisions.
#   usage (on the device): tar xzf .gpu/dgtd-gpu.tar.gz -C /tmp && bash /tmp/dgtd-gpu/gpu-run.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/dgtd-out}
mkdir -p "$out"
export DGTD_CACHE_DIR="$out/cache"
{
  echo "== nvidia-smi"; nvidia-smi 2>&1 | head -20
  echo "== libnvidia-opencl"; ldconfig -p 2>/dev/null | grep -i -E "opencl|nvidia-opencl"
  find / -name 'libnvidia-opencl*' -not -path '/proc/*' 2>/dev/null | head
  ls /etc/OpenCL/vendors 2>/dev/null
} > "$out/opencl-setup.txt" 2>&1
# shellcheck source=/dev/null
source "$here/env.sh"
dgtd devices > "$out/devices.txt" 2>&1
dgtd devices --json > "$out/devices.json" 2>&1
# Verification: every covering variant, the defaults, sources, LSERK steps.
for t in "$here"/bin/test_*; do
  [ -x "$t" ] || continue
  CMOCKA_MESSAGE_OUTPUT=TAP timeout 300 "$t" > "$out/$(basename "$t").tap" 2>&1
  echo "$(basename "$t"): exit $?" >> "$out/verification.txt"
done
start() { date +%s.%N; }
t0=$(start); dgtd run --quiet --tune never > "$out/run-cold.txt" 2>&1; t1=$(start)
dgtd run --quiet --tune never > "$out/run-warm.txt" 2>&1; t2=$(start)
echo "start-up + default run: cold $(echo "$t1 - $t0" | bc) s, warm $(echo "$t2 - $t1" | bc) s" > "$out/startup.txt"
[ "${QUICK:-0}" = 1 ] && exit 0
dgtd tune --measure-limits > "$out/limits.txt" 2>&1
dgtd tune --order 1-8 --precision both --csv "$out/tune.csv" --plot "$out/tune.png" \
  > "$out/tune.txt" 2> "$out/tune.log"
cp "$DGTD_CACHE_DIR"/*.json "$out/" 2>/dev/null
for p in float double; do
  dgtd bench --order 1-8 --precision "$p" --save "$out/bench-$p.json" --plot "$out/bench-$p" \
    > "$out/bench-$p.txt" 2>&1
done
# MPI on one GPU with 2 ranks (same device) vs 1 rank.
if command -v mpiexec.mpich > /dev/null; then
  dgtd run --quiet --tune never --json > "$out/mpi-1.json" 2>&1
  mpiexec.mpich -n 2 dgtd run --quiet --tune never --json > "$out/mpi-2.json" 2>&1
fi
