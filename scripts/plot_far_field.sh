#!/bin/sh
# Draw the far-field cuts of a run: for each frequency of DIR/far_field.csv, a PNG with a
# polar plot and a cut (angle vs dB) of every plane ("xy", "xz", "yz") in it: the RCS in
# dBsm, or the directivity in dBi for antenna cases. With DIR/rcs_vs_mie.csv (written by
# `tests/tools/mie.py compare DIR/far_field.csv ... --out DIR/rcs_vs_mie.csv`) the Mie
# series is drawn dashed beside each plane. The gnuplot script of each PNG is left beside
# it (far_field_N.gp), to restyle and redraw with `gnuplot far_field_N.gp` in DIR.
#   usage: scripts/plot_far_field.sh DIR [FLOOR_DB]
# FLOOR_DB: how far below the largest value the polar plot's centre lies (default 40).
set -eu
dir=${1:?usage: plot_far_field.sh DIR [FLOOR_DB]}
span=${2:-40}
csv="$dir/far_field.csv"
[ -r "$csv" ] || { echo "plot_far_field.sh: no $csv" >&2; exit 1; }
head -1 "$csv" | grep -q ',rcs,rcs_dbsm' && { what="RCS"; unit="dBsm"; } ||
  { what="directivity"; unit="dBi"; }
mie=""
[ -r "$dir/rcs_vs_mie.csv" ] && mie="rcs_vs_mie.csv"
planes=$(awk -F, 'NR > 1 && $2 != "sphere" { print $2 }' "$csv" | sort -u | tr '\n' ' ')
[ -n "$planes" ] || { echo "plot_far_field.sh: $csv has no xy/xz/yz cut to draw" >&2; exit 1; }
i=0
for f in $(awk -F, 'NR > 1 { print $1 }' "$csv" | sort -gu); do
  i=$((i + 1))
  gp="$dir/far_field_$i.gp"
  # the largest dB value of the cuts, rounded up to a multiple of 5
  top=$(awk -F, -v f="$f" 'NR > 1 && $1 == f && $2 != "sphere" && (m == "" || $11 > m) { m = $11 }
        END { t = m + 1; c = int(t / 5) * 5; if (c < t) c += 5; print c }' "$csv")
  bot=$((top - span))
  {
    echo "set terminal pngcairo size 1400,650 font ',11'"
    echo "set output 'far_field_$i.png'"
    echo "set datafile separator ','"
    echo "f = $f; bot = $bot; top = $top"
    echo "sel(p, col) = (abs(\$1 - f) <= 1e-12 * f && strcol(2) eq p) ? column(col) : NaN"
    echo "cl(v) = v < bot ? 0 : v - bot"
    echo "set multiplot layout 1,2 title sprintf('$what at f = %g', f)"
    echo "set polar; set angles degrees; set size square"
    echo "unset border; unset xtics; unset ytics; set grid polar 30"
    echo "set rrange [0:top - bot]; set rtics 10 format ''"
    echo "set ttics 0,30 format '%g°'"
    echo "set key outside bottom center horizontal"
    echo "set title sprintf('polar (centre %g $unit, rings every 10 dB)', bot)"
    plot="plot"
    for p in $planes; do
      plot="$plot 'far_field.csv' every ::1 using (sel('$p', 3)):(cl(sel('$p', 11))) with lines lw 2 title 'dgtd $p',"
      [ -n "$mie" ] && plot="$plot '$mie' every ::1 using (sel('$p', 3)):(cl(sel('$p', 7))) with lines dt 2 lw 1.5 title 'Mie $p',"
    done
    echo "${plot%,}"
    echo "unset polar; set border; set xtics 0,30,360; set ytics; set grid; set size nosquare"
    echo "unset rrange; set xrange [0:360]; set yrange [*:*]"
    echo "set xlabel 'angle in the plane (deg)'; set ylabel '$what ($unit)'"
    echo "set title 'cuts'"
    plot="plot"
    for p in $planes; do
      plot="$plot 'far_field.csv' every ::1 using (sel('$p', 3)):(sel('$p', 11)) with linespoints pt 7 ps 0.5 lw 2 title 'dgtd $p',"
      [ -n "$mie" ] && plot="$plot '$mie' every ::1 using (sel('$p', 3)):(sel('$p', 7)) with lines dt 2 lw 1.5 title 'Mie $p',"
    done
    echo "${plot%,}"
    echo "unset multiplot"
  } > "$gp"
  (cd "$dir" && gnuplot "$(basename "$gp")")
  echo "wrote $dir/far_field_$i.png (f = $f)"
done
