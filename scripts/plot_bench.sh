#!/bin/sh
# Redraw the benchmark PNGs from the gnuplot scripts `dgtd bench --plot DIR` leaves in DIR
# (each script holds its data, so a plot can be restyled and redrawn without re-running the
# benchmark).
#   usage: scripts/plot_bench.sh DIR
set -eu
dir=${1:?usage: plot_bench.sh DIR}
found=0
for gp in "$dir"/*.gp; do
  [ -e "$gp" ] || continue
  found=1
  (cd "$dir" && gnuplot "$(basename "$gp")")
  echo "wrote $dir/$(basename "$gp" .gp).png"
done
[ "$found" -eq 1 ] || { echo "plot_bench.sh: no .gp scripts in $dir" >&2; exit 1; }
