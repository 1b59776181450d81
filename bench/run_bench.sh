#!/bin/sh
# Remake the kept benchmark results of this machine's default OpenCL device (float):
# bench/results/<device-slug>.json (+ .txt, the same as tables) for N = 1..8, the scaling
# sweep in <device-slug>-scaling.json, and the PNGs in bench/results/<device-slug>/.
#   usage: bench/run_bench.sh [BIN_DIR] [TUNE_BUDGET_SECONDS]
# Steps: tune every order (the winners go to the user tuning cache, which `dgtd bench` reads
# as the tuned variant), then the comparison with freshly measured device limits, then the
# sweep over mesh sizes. Run it on an otherwise idle machine: timings are medians, but other
# processes on the same cores still shift them.
set -eu
bin=${1:-bin}
budget=${2:-960}
out=bench/results
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Wait (up to 30 min) until nothing else keeps the cores busy: the limits are measured below.
wait_quiet() {
  i=0
  while [ "$i" -lt 180 ] && awk '{exit !($1 > 0.3)}' /proc/loadavg 2>/dev/null; do
    [ "$i" -eq 0 ] && echo "waiting for the load average to fall below 0.3..." >&2
    sleep 10
    i=$((i + 1))
  done
}
"$bin/dgtd" tune --order 1-8 --precision float --budget "$budget" -q > "$tmp/tune.txt"
wait_quiet
"$bin/dgtd" bench --order 1-8 --precision float --repeats 9 --measure-limits \
  --save "$tmp/bench.json" --plot "$tmp/png" > "$tmp/bench.txt"
slug=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"]["slug"])' "$tmp/bench.json")
"$bin/dgtd" bench --scaling --order 1,3,5,8 --precision float --repeats 5 \
  --save "$tmp/scaling.json" --plot "$tmp/png" > "$tmp/scaling.txt"
mkdir -p "$out/$slug"
cp "$tmp/bench.json" "$out/$slug.json"
cp "$tmp/bench.txt" "$out/$slug.txt"
cp "$tmp/scaling.json" "$out/$slug-scaling.json"
cp "$tmp/scaling.txt" "$out/$slug-scaling.txt"
cp "$tmp/tune.txt" "$out/$slug-tune.txt"
cp "$tmp/png/"* "$out/$slug/"
echo "wrote $out/$slug.json, $out/$slug-scaling.json and $out/$slug/*.png"
