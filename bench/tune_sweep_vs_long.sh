#!/bin/sh
# Issue-16 targets in one invocation on one machine: a cold tuning sweep (no cache, no
# transfer), the same sweep seeded from tuning/ (transfer), and a long exhaustive search
# (no cost model, no transfer, --budget), then every (N, precision)'s three winners timed
# side by side in one interleaved `dgtd tune --variant` run, so load hits them alike.
#   usage: bench/tune_sweep_vs_long.sh OUT_DIR [ORDERS [PRECISION [LONG_BUDGET_S]]]
#   e.g.   bench/tune_sweep_vs_long.sh /tmp/sweep 1-6 both 1800
# Each search uses its own empty $DGTD_CACHE_DIR (also a cold binary cache) and its own
# empty PoCL kernel cache ($POCL_CACHE_DIR: a fresh machine has compiled nothing), and sees
# tuning/ without this device's own results ($DGTD_TUNING_DIR holds the other devices' only):
# each stands for a device that tuning/ does not know (before, the cold and long searches'
# model trained on this device's shipped rankings and the seeded one's too). Prints the
# wall time of each sweep and, per (N, precision), the medians and cold/long ratios.
set -eu
bin="${BIN:-bin}"
out="$1"; orders="${2:-1-6}"; prec="${3:-both}"; budget="${4:-1800}"
mkdir -p "$out"
sweep() { # name, extra tune args...
  name="$1"; shift
  rm -rf "$out/$name"; mkdir -p "$out/$name/pocl"
  t0=$(date +%s.%N)
  POCL_CACHE_DIR="$out/$name/pocl" DGTD_CACHE_DIR="$out/$name" DGTD_TUNING_DIR="$others" \
    "$bin/dgtd" tune --order "$orders" --precision "$prec" \
    --force -q --json "$@" > "$out/$name.json"
  t1=$(date +%s.%N)
  echo "$name $(echo "$t1 - $t0" | bc)" >> "$out/walls.txt"
}
touch "$out/walls.txt"
# tuning/ less the device about to be tuned ($DGTD_DEVICE, else the first GPU, else the first).
others="$out/tuning-others"
rm -rf "$others"; mkdir -p "$others"
"$bin/dgtd" devices --json > "$out/devices.json"
python3 - "$out/devices.json" "${TUNING:-tuning}" "$others" "${DGTD_DEVICE:-}" <<'PY'
import glob, json, os, sys
devs, src, dst, want = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
pick = [d for d in devs if want and (d["index"] == want or want.lower() in d["name"].lower())]
pick = pick or [d for d in devs if "GPU" in d["type"]] or devs
name = pick[0]["name"]
for f in glob.glob(os.path.join(src, "*.json")):
    t = json.load(open(f))
    t["devices"] = [d for d in t.get("devices", []) if d["key"]["name"] != name]
    if t["devices"]:
        json.dump(t, open(os.path.join(dst, os.path.basename(f)), "w"), indent=1)
print("searches see tuning/ without '%s': %s" % (name, ", ".join(sorted(os.listdir(dst))) or "nothing"))
PY
# SWEEPS picks which searches run now (a shared machine may only afford some at a time);
# the comparison uses every one whose JSON is in OUT_DIR.
for s in ${SWEEPS:-cold transfer long}; do
  case "$s" in
    cold) sweep cold --no-transfer ;;
    transfer) sweep transfer ;;
    long) sweep long --no-transfer --no-model --budget "$budget" ;;
  esac
done
[ -f "$out/long.json" ] || { echo "no long search yet: run with SWEEPS=long to compare"; exit 0; }
# The long search against whichever of the cold and seeded sweeps are in OUT_DIR.
python3 - "$out" > "$out/pairs.txt" <<'PY'
import json, os, sys
out = sys.argv[1]
def winners(name):
    d = json.load(open("%s/%s.json" % (out, name)))
    d = d["results"] if isinstance(d, dict) and "results" in d else d
    return {(e["N"], e["precision"]): e["winner"] for e in d}
names = ["long"] + [n for n in ("cold", "transfer") if os.path.exists("%s/%s.json" % (out, n))]
w = {n: winners(n) for n in names}
print(" ".join(names))
for k in sorted(w["long"]):
    if all(k in w[n] for n in names):  # an (N, precision) every search covered
        print(k[0], k[1], " ".join(w[n][k] for n in names))
PY
: > "$out/confirm.txt"
tail -n +2 "$out/pairs.txt" | while read -r n p specs; do
  args=""
  for s in $specs; do args="$args --variant $s"; done
  # shellcheck disable=SC2086 # one word per spec
  DGTD_CACHE_DIR="$out/confirm" "$bin/dgtd" tune --order "$n" --precision "$p" -q --json \
    --repeats 11 $args > "$out/confirm-$n-$p.json"
  echo "$n $p $specs" >> "$out/confirm.txt"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
walls = dict(l.split() for l in open(out + "/walls.txt"))
names = open(out + "/pairs.txt").readline().split()
print("device: %s" % json.load(open(out + "/long.json"))["device"]["device"])
for k in names:
    print("%-9s sweep wall time %8.1f s" % (k, float(walls[k])))
others = names[1:]
print("%2s %-6s " % ("N", "prec") + " ".join("%12s" % (n + " ns") for n in names) +
      " " + " ".join("%14s" % (n + "/long") for n in others))
worst = 0
for line in open(out + "/confirm.txt"):
    f = line.split()
    n, p, specs = f[0], f[1], f[2:]
    d = json.load(open("%s/confirm-%s-%s.json" % (out, n, p)))
    d = d["results"][0] if isinstance(d, dict) and "results" in d else d
    med = {e["spec"]: e["median_ns"] for e in d["ranking"]}
    ns = [med[s] for s in specs]
    ratios = [x / ns[0] for x in ns[1:]]
    worst = max([worst] + ratios)
    print("%2s %-6s " % (n, p) + " ".join("%12.0f" % x for x in ns) + " " +
          " ".join("%14.3f" % r for r in ratios))
print("worst ratio to the long search's winner: %.3f" % worst)
PY
