#!/bin/sh
# Global LSERK4 against the multirate schemes (local time stepping: multirate AB3 and
# multirate LSERK4) on one case, in the same invocation so a shared machine's load hits them
# alike: wall time, L2 error (when the case has an exact solution), RHS element-evaluations
# and their ratios to global LSERK4's.
#   usage: bench/multirate_vs_lserk4.sh OUT_DIR DGTD_RUN_ARGS...
#   e.g.   bench/multirate_vs_lserk4.sh /tmp/mr configs/sphere_plane_wave.json --backend ref --final-time 2
#          bench/multirate_vs_lserk4.sh /tmp/mr --mesh configs/meshes/graded_box.msh --backend ref --order 2
# SCHEMES (default "multirate multirate-lserk4") picks the multirate schemes. REPEAT (default
# 1) runs that many rounds, each global LSERK4 then every scheme, so slow spells of a shared
# machine fall on all of them; with more than one round the wall times are the medians over
# the rounds and "global / it" the median of the rounds' own ratios (each round's times are
# printed too). Each run's JSON summary is kept in OUT_DIR/SCHEME.json (round R > 1:
# SCHEME.R.json) and its probes and energy under OUT_DIR/SCHEME/ when the case writes them.
set -eu
bin="${BIN:-bin}"
out="$1"
shift
mkdir -p "$out"
schemes="${SCHEMES:-multirate multirate-lserk4}"
repeat="${REPEAT:-1}"
r=1
while [ "$r" -le "$repeat" ]; do
  sfx=""
  [ "$r" -gt 1 ] && sfx=".$r"
  "$bin/dgtd" run "$@" --output "$out/lserk4" --time-stepping lserk4 --json --quiet > "$out/lserk4$sfx.json"
  for s in $schemes; do
    "$bin/dgtd" run "$@" --output "$out/$s" --time-stepping "$s" --json --quiet > "$out/$s$sfx.json"
  done
  r=$((r + 1))
done
# shellcheck disable=SC2086
python3 - "$out" "$repeat" lserk4 $schemes <<'PY'
import json, statistics, sys
out, repeat, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
load = lambda n, r: json.load(open("%s/%s%s.json" % (out, n, "" if r == 1 else ".%d" % r)))
rounds = [[load(n, r) for n in names] for r in range(1, repeat + 1)]
runs = rounds[0]
g = runs[0]
row = lambda label, cells: print("%-13s" % label + "".join(" %21s" % c for c in cells))
row("", names)
row("steps", [r["steps"] for r in runs])
row("dt", ["%.6g" % r["dt"] for r in runs])
row("finest step", ["-"] + ["%.6g" % r["h0"] for r in runs[1:]])
row("levels", ["-"] + ["/".join(str(c) for c in r["levels"]) for r in runs[1:]])
row("RHS evals", [r["rhs_evals"] for r in runs])
row("  global / it", ["%.3f" % (g["rhs_evals"] / r["rhs_evals"]) for r in runs])
if repeat > 1:
    for i, rd in enumerate(rounds):
        row("wall s, #%d" % (i + 1), ["%.3f" % r["wall_s"] for r in rd])
med = lambda xs: statistics.median(xs)
walls = [med([rd[j]["wall_s"] for rd in rounds]) for j in range(len(names))]
ratios = [med([rd[0]["wall_s"] / rd[j]["wall_s"] for rd in rounds]) for j in range(len(names))]
row("wall s" if repeat == 1 else "wall s, median", ["%.3f" % w for w in walls])
row("  global / it", ["%.3f" % x for x in ratios])
if "l2_error" in g:
    row("L2 error", ["%.6e" % r["l2_error"] for r in runs])
row("energy end", ["%.8e" % r["energy_end"] for r in runs])
PY
