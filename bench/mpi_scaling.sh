#!/bin/sh
# MPI scaling of one case: time per step, time in the face-trace exchange, time blocked
# waiting for it, and the fraction of the exchange hidden behind the volume kernel, for
# P = 1, 2, ... ranks (MPICH's mpiexec.mpich; one PoCL thread per rank when P > 1, so P
# ranks use P cores; P = 1 uses every core).
#   usage: bench/mpi_scaling.sh [MAX_RANKS] [extra dgtd run options...]
# Default case: box 12^3 (10368 tets), N = 3, float, 30 steps, OpenCL on the default device.
set -eu
max=${1:-2}
[ $# -gt 0 ] && shift
bin=${BIN:-bin}
out=$(mktemp -d)
echo "host: $(nproc) cores; device: $($bin/dgtd devices | sed -n 2p | cut -c8-40)"
printf '%-5s %-12s %-12s %-14s %-14s %-8s %s\n' ranks "ms/step" "DOF/s" "exchange ms" "waiting ms" hidden "cut faces"
p=1
while [ "$p" -le "$max" ]; do
  if [ "$p" -eq 1 ]; then threads=""; else threads="POCL_MAX_PTHREAD_COUNT=1"; fi
  env $threads mpiexec.mpich -n "$p" "$bin/dgtd" run --box 12 --order 3 --steps 30 --quiet --json "$@" \
    > "$out/p$p.json"
  python3 - "$out/p$p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
steps = d["steps"]
ms = 1e3 * d["wall_s"] / steps
ex = 1e3 * d.get("exchange_s", 0.0) / steps
wait = 1e3 * d.get("exchange_wait_s", 0.0) / steps
hidden = (1 - wait / ex) if ex > 0 else float("nan")
print(f'{d["ranks"]:<5} {ms:<12.2f} {d["dofs_per_s"]:<12.3g} {ex:<14.3f} {wait:<14.3f} '
      f'{hidden:<8.0%} {d.get("cut_faces", 0)}')
PY
  p=$((p + 1))
done
rm -rf "$out"
echo "exchange = from posting the non-blocking sends/receives to their completion (rank 0, per step,"
echo "5 exchanges a step); waiting = the part of it rank 0 spent blocked in MPI_Waitall after"
echo "queuing the volume kernel; hidden = 1 - waiting/exchange."
