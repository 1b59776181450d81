#!/bin/sh
# The shipped RCS case end to end: run configs/sphere_rcs.json (PEC sphere) or
# configs/sphere_rcs_eps4.json (eps_r = 4), print the bistatic RCS against the Mie series
# (angle, dgtd, Mie, error dB; tests/tools/mie.py, python3-scipy) and draw the cuts
# (scripts/plot_far_field.sh: far_field_1.png for ka = 1, far_field_2.png for ka = 3).
#   usage: scripts/sphere_rcs.sh [pec|eps4] [DGTD RUN OPTIONS...]   (e.g. --order 3)
#   SKIP_RUN=1 scripts/sphere_rcs.sh pec --output DIR  only compares and plots DIR
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:-pec}
[ $# -gt 0 ] && shift
case "$kind" in
  pec) case_file="$root/configs/sphere_rcs.json"; mat="--pec"; out="$root/configs/out/sphere_rcs" ;;
  eps4) case_file="$root/configs/sphere_rcs_eps4.json"; mat="--eps 4"; out="$root/configs/out/sphere_rcs_eps4" ;;
  *) echo "usage: sphere_rcs.sh [pec|eps4] [dgtd run options]" >&2; exit 2 ;;
esac
# an --output DIR among the options moves the results
prev=""
for a in "$@"; do
  [ "$prev" = "--output" ] && out=$a
  prev=$a
done
if [ "${SKIP_RUN:-0}" != 1 ]; then
  "$root/bin/dgtd" run "$case_file" "$@"
fi
/usr/bin/python3 "$root/tests/tools/mie.py" compare "$out/far_field.csv" --radius 0.5 $mat \
  --out "$out/rcs_vs_mie.csv"
"$root/scripts/plot_far_field.sh" "$out" 30
