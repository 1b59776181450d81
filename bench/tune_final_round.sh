#!/bin/sh
# One interleaved final round over several searches of the same device: for every (N,
# precision) in the given caches, the TOP fastest of each cache's ranking (by its own
# median), plus the baseline and the device default (the entry keeps their times), timed side by side in one
# `dgtd tune --variant` run into OUT_DIR's cache. Each search's stage 4 re-times only its
# own top four; separate searches time on separate minutes of a noisy host, so their
# medians cannot be compared across files, and this round is where their winners meet.
#   usage: bench/tune_final_round.sh OUT_DIR CACHE.json [CACHE.json ...]
#   e.g.   bench/tune_final_round.sh /tmp/final /tmp/sweep/cold/DEV.json /tmp/sweep/long/DEV.json
# TOP (default 3) candidates per cache; EXTRA: more specs for every (N, precision) (a
# variant found by hand, say; its prec= key is set per precision by dgtd). OUT_DIR/<slug>.json
# is then a tuning file whose rankings hold this round only (ship it as docs/TUNING.md says).
set -eu
bin="${BIN:-bin}"
out="$1"; shift
mkdir -p "$out"
python3 - "${TOP:-3}" "$@" > "$out/final-lists.txt" <<'PY'
import json, sys
top, files = int(sys.argv[1]), sys.argv[2:]
lists = {}
for f in files:
    for dev in json.load(open(f)).get("devices", []):
        for e in dev["entries"]:
            key = (e["N"], e["precision"], e.get("bucket", "large"))
            if key[2] != "large":
                continue
            rank = sorted(e.get("ranking", []), key=lambda r: r["median_ns"])
            specs = lists.setdefault(key[:2], [])
            if e.get("default_spec") and e["default_spec"] not in specs:
                specs.append(e["default_spec"])  # the anchors: the entry keeps their times
            if "baseline" not in specs:
                specs.append("baseline")  # dgtd's name for the baseline variant
            for r in rank[:top]:
                if r["spec"] not in specs:
                    specs.append(r["spec"])
for (n, p), specs in sorted(lists.items()):
    print(n, p, " ".join(specs))
PY
while read -r n p specs; do
  args=""
  for s in $specs ${EXTRA:-}; do args="$args --variant $s"; done
  echo "N=$n $p: $(echo "$args" | wc -w | awk '{print $1 / 2}') variants" >&2
  DGTD_CACHE_DIR="$out" "$bin/dgtd" tune --order "$n" --precision "$p" --force -q \
    --repeats 11 $args --json > "$out/final-$n-$p.json"
done < "$out/final-lists.txt"
ls "$out"/*.json | grep -v '/final-' || true
