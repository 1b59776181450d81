#!/bin/sh
# Regenerates the pictures in docs/img/ from the shipped sphere case, with the project's own
# tools: bin/dgtd runs configs/sphere_plane_wave.json (about half a minute on 2 CPU cores),
# scripts/render.py draws slices of |E| from its VTU snapshots, gnuplot draws its probe and
# energy logs. Run from the repository root after `make` (or use `make docs-images`):
#   scripts/render-docs.sh [BIN_DIR]
set -eu
bin="${1:-bin}"
img=docs/img
work=$(mktemp -d /tmp/dgtd-docs-XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$img"

# The device's default variant, so a cache miss never starts a tuning run here.
DGTD_TUNE=never "$bin/dgtd" run configs/sphere_plane_wave.json --output "$work" --quiet \
  --time-stepping lserk4 --vtu-every 100 > "$work/summary.txt"

# Global LSERK4, snapshots every 100 steps (dt = 0.0023995): step 700 is t = 1.68, 900 is t = 2.16, 1100 is
# t = 2.64. One colour range for all three so they compare.
/usr/bin/python3 scripts/render.py "$work/fields_000700.vtu" "$img/sphere_E_t1.7_mesh.png" \
  --circle 0.5 --edges --range 0,1.2 --pixels 300
/usr/bin/python3 scripts/render.py "$work/fields_000900.vtu" "$img/sphere_E_t2.2.png" \
  --circle 0.5 --range 0,1.2 --pixels 300
/usr/bin/python3 scripts/render.py "$work/fields_001100.vtu" "$img/sphere_E_t2.6.png" \
  --circle 0.5 --range 0,1.2 --pixels 300

# Ez at the four probes (probes.csv: probe,t,Ex,Ey,Ez,Hx,Hy,Hz) and the energy log.
for p in 0 1 2 3; do
  awk -F, -v p="$p" 'NR > 1 && $1 == p { print $2, $5 }' "$work/probes.csv" > "$work/probe$p.dat"
done
tail -n +2 "$work/energy.csv" | tr , ' ' > "$work/energy.dat"
gnuplot <<EOF
set terminal pngcairo size 560,300 font ",9"
set output "$img/sphere_probes.png"
set xlabel "t"
set ylabel "E_z"
set grid
set key bottom left
plot "$work/probe0.dat" with lines lw 1.5 title "front (-1.25,0,0), scattered", \
     "$work/probe1.dat" with lines lw 1.5 title "centre (0,0,0), total", \
     "$work/probe2.dat" with lines lw 1.5 title "shadow (0.75,0,0), total", \
     "$work/probe3.dat" with lines lw 1.5 title "forward (1.25,0,0), scattered"
set output "$img/sphere_energy.png"
set ylabel "energy"
set key off
plot "$work/energy.dat" using 2:3 with lines lw 1.5
EOF
echo "render-docs.sh: wrote $(ls "$img" | wc -l) pictures to $img ($(du -ck "$img"/*.png | tail -1 | cut -f1) KiB)"
