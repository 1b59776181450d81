#!/bin/sh
# Global LSERK4 against multirate AB3 (local time stepping) on one case, one after the
# other in the same invocation so a shared machine's load hits both alike: wall time, L2
# error (when the case has an exact solution), RHS element-evaluations and their ratios.
#   usage: bench/multirate_vs_lserk4.sh OUT_DIR DGTD_RUN_ARGS...
#   e.g.   bench/multirate_vs_lserk4.sh /tmp/mr configs/sphere_plane_wave.json --backend ref --final-time 2
#          bench/multirate_vs_lserk4.sh /tmp/mr --mesh configs/meshes/graded_box.msh --backend ref --order 2
# Each run's JSON summary is kept in OUT_DIR/{lserk4,multirate}.json and its probes and
# energy under OUT_DIR/{lserk4,multirate}/ when the case writes them.
set -eu
bin="${BIN:-bin}"
out="$1"
shift
mkdir -p "$out"
"$bin/dgtd" run "$@" --output "$out/lserk4" --json --quiet > "$out/lserk4.json"
"$bin/dgtd" run "$@" --output "$out/multirate" --time-stepping multirate --json --quiet > "$out/multirate.json"
python3 - "$out/lserk4.json" "$out/multirate.json" <<'PY'
import json, sys
g, m = (json.load(open(p)) for p in sys.argv[1:3])
print("             %12s %12s" % ("lserk4", "multirate"))
print("steps        %12d %12d" % (g["steps"], m["steps"]))
print("dt           %12.6g %12.6g   (multirate: macro step; finest %.6g)" % (g["dt"], m["dt"], m["h0"]))
print("levels       %12s %12s" % ("-", "/".join(str(c) for c in m["levels"])))
print("RHS evals    %12d %12d   global/multirate %.3f" % (g["rhs_evals"], m["rhs_evals"], g["rhs_evals"] / m["rhs_evals"]))
print("wall time    %12.3f %12.3f   global/multirate %.3f" % (g["wall_s"], m["wall_s"], g["wall_s"] / m["wall_s"]))
if "l2_error" in g:
    print("L2 error     %12.6e %12.6e   multirate/global %.5f" % (g["l2_error"], m["l2_error"], m["l2_error"] / g["l2_error"]))
print("energy end   %12.8e %12.8e" % (g["energy_end"], m["energy_end"]))
PY
