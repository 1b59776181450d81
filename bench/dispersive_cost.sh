#!/bin/sh
# The cost of a dispersive element-step against a plain one: the same box mesh (CELLS^3 x 6
# tetrahedra, order N, PEC walls, one dipole) with every element plain (eps = 2) or
# dispersive (eps_inf = 2 and one Debye, one Drude, one Lorentz pole, or all three), a fixed
# number of LSERK4 steps, on one backend; ROUNDS rounds, the media interleaved within each
# round so that a shared machine's load hits them alike. Prints per medium the median wall
# time of the stepping (the run's wall_s, set-up excluded) per element-step in
# microseconds, its ratio to plain, and the min and max over the rounds.
#   usage: bench/dispersive_cost.sh OUT_DIR STEPS [DGTD_RUN_ARGS...]
#   e.g.   bench/dispersive_cost.sh /tmp/dc 20 --backend ref
#          bench/dispersive_cost.sh /tmp/dc 200 --precision float --tune never
# CELLS (default 8), ORDER (default 3) and ROUNDS (default 3) set the mesh, the order and
# the rounds. Each run's JSON summary is kept in OUT_DIR/MEDIUM-ROUND.json.
set -eu
bin="${BIN:-bin}"
out="$1"
steps="$2"
shift 2
cells="${CELLS:-8}"
order="${ORDER:-3}"
rounds="${ROUNDS:-3}"
mkdir -p "$out"
debye='{"type": "debye", "delta_eps": 3.0, "tau": 0.25}'
drude='{"type": "drude", "omega_p": 5.0, "gamma": 1.0}'
lorentz='{"type": "lorentz", "delta_eps": 2.0, "omega_0": 6.0, "delta": 0.5}'
for m in plain debye drude lorentz all3; do
  case $m in
    plain) mat='{"volume": "domain", "eps": 2.0}' ;;
    debye) mat="{\"volume\": \"domain\", \"eps_inf\": 2.0, \"poles\": [$debye]}" ;;
    drude) mat="{\"volume\": \"domain\", \"eps_inf\": 2.0, \"poles\": [$drude]}" ;;
    lorentz) mat="{\"volume\": \"domain\", \"eps_inf\": 2.0, \"poles\": [$lorentz]}" ;;
    all3) mat="{\"volume\": \"domain\", \"eps_inf\": 2.0, \"poles\": [$debye, $drude, $lorentz]}" ;;
  esac
  cat > "$out/$m.case.json" <<JSON
{"mesh": {"box": {"cells": [$cells, $cells, $cells]}}, "order": $order, "default_boundary": "pec",
 "materials": [$mat],
 "sources": [{"type": "dipole", "position": [0.43, 0.51, 0.47], "direction": [0, 0, 1],
              "pulse": {"shape": "ricker", "frequency": 1}}]}
JSON
done
r=1
while [ "$r" -le "$rounds" ]; do
  for m in plain debye drude lorentz all3; do
    "$bin/dgtd" run "$out/$m.case.json" --steps "$steps" --json --quiet "$@" > "$out/$m-$r.json"
  done
  r=$((r + 1))
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
res = {}
for m in ("plain", "debye", "drude", "lorentz", "all3"):
    runs = [json.load(open("%s/%s-%d.json" % (out, m, r))) for r in range(1, rounds + 1)]
    per = [1e6 * j["wall_s"] / (j["K"] * j["steps"]) for j in runs]
    res[m] = (statistics.median(per), min(per), max(per), runs[0])
j = res["plain"][3]
print("# %s %s, K = %d, N = %d, %d steps, %d rounds: us per element-step (median, min-max)"
      % (j["backend"], j.get("precision", ""), j["K"], j["N"], j["steps"], rounds))
for m, (med, lo, hi, _) in res.items():
    print("%-8s %9.3f  x %.2f   (%.3f - %.3f)" % (m, med, med / res["plain"][0], lo, hi))
PY
