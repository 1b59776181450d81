#!/bin/sh
# Plot the fastest variants of every order from a `dgtd tune --csv` file: one panel per
# (N, precision), horizontal bars of the speedup over the baseline variant.
#   usage: scripts/plot_tune.sh TUNE.csv OUT.png [ROWS]   (ROWS per panel, default 12)
set -eu
csv=${1:?usage: plot_tune.sh TUNE.csv OUT.png [ROWS]}
png=${2:?usage: plot_tune.sh TUNE.csv OUT.png [ROWS]}
rows=${3:-12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One data file per class: label (variant spec without path/prec), speedup, colour. After
# the quoted spec, field b[k] is CSV column k+3 (b[1] is empty): b[10] speedup, b[11..13]
# winner, baseline, default.
awk -F'"' -v rows="$rows" -v dir="$tmp" 'NR > 1 {
  split($1, a, ","); split($3, b, ",");
  key = a[1] "-" a[2]; n[key]++;
  if (n[key] > rows && b[12] != 1 && b[13] != 1) next;   # keep baseline and default rows
  spec = $2; gsub(/path=kernels,|,prec=(float|double)/, "", spec);
  color = b[11] == 1 ? 1 : b[12] == 1 ? 2 : b[13] == 1 ? 3 : 4;
  printf "\"%s\" %s %d\n", spec, b[10], color >> (dir "/" key ".dat");
  if (!(key in seen)) { seen[key] = 1; print key >> (dir "/keys") }
}' "$csv"
npanels=$(wc -l < "$tmp/keys")
{
  echo "set terminal pngcairo size 1400,$((npanels * (rows * 22 + 120))) font ',8'"
  echo "set output '$png'"
  echo "set multiplot layout $npanels,1"
  echo "set style fill solid 0.85; unset key; set xlabel 'speedup over the baseline'"
  while read -r key; do
    n=$(wc -l < "$tmp/$key.dat")
    echo "set title 'N=${key%-*} ${key#*-}'"
    echo "set yrange [$n-0.4:-0.6]; set offsets 0, graph 0.1, 0, 0"
    echo "plot '$tmp/$key.dat' using (0):0:(0):2:(\$0-0.4):(\$0+0.4):3:ytic(1) with boxxyerror lc variable, \
'' using 2:0:(sprintf('%.2fx', \$2)) with labels left offset 0.5,0"
  done < "$tmp/keys"
  echo "unset multiplot"
} | gnuplot
echo "wrote $png"
