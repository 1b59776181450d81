#!/bin/sh
# Global LSERK4 against the multirate schemes (local time stepping: multirate AB3 and
# multirate LSERK4) on one case, one after the other in the same invocation so a shared
# machine's load hits them alike: wall time, L2 error (when the case has an exact solution),
# RHS element-evaluations and their ratios to global LSERK4's.
#   usage: bench/multirate_vs_lserk4.sh OUT_DIR DGTD_RUN_ARGS...
#   e.g.   bench/multirate_vs_lserk4.sh /tmp/mr configs/sphere_plane_wave.json --backend ref --final-time 2
#          bench/multirate_vs_lserk4.sh /tmp/mr --mesh configs/meshes/graded_box.msh --backend ref --order 2
# SCHEMES (default "multirate multirate-lserk4") picks the multirate schemes. Each run's JSON
# summary is kept in OUT_DIR/SCHEME.json and its probes and energy under OUT_DIR/SCHEME/ when
# the case writes them.
set -eu
bin="${BIN:-bin}"
out="$1"
shift
mkdir -p "$out"
schemes="${SCHEMES:-multirate multirate-lserk4}"
"$bin/dgtd" run "$@" --output "$out/lserk4" --json --quiet > "$out/lserk4.json"
for s in $schemes; do
  "$bin/dgtd" run "$@" --output "$out/$s" --time-stepping "$s" --json --quiet > "$out/$s.json"
done
# shellcheck disable=SC2086
python3 - "$out" lserk4 $schemes <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
runs = [json.load(open("%s/%s.json" % (out, n))) for n in names]
g = runs[0]
row = lambda label, cells: print("%-13s" % label + "".join(" %21s" % c for c in cells))
row("", names)
row("steps", [r["steps"] for r in runs])
row("dt", ["%.6g" % r["dt"] for r in runs])
row("finest step", ["-"] + ["%.6g" % r["h0"] for r in runs[1:]])
row("levels", ["-"] + ["/".join(str(c) for c in r["levels"]) for r in runs[1:]])
row("RHS evals", [r["rhs_evals"] for r in runs])
row("  global / it", ["%.3f" % (g["rhs_evals"] / r["rhs_evals"]) for r in runs])
row("wall s", ["%.3f" % r["wall_s"] for r in runs])
row("  global / it", ["%.3f" % (g["wall_s"] / r["wall_s"]) for r in runs])
if "l2_error" in g:
    row("L2 error", ["%.6e" % r["l2_error"] for r in runs])
row("energy end", ["%.8e" % r["energy_end"] for r in runs])
PY
