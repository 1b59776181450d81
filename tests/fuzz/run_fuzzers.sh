#!/bin/sh
# Runs each libFuzzer harness in DIR for FUZZ_SECONDS (default 60), one at a time, seeded from
# the fixtures and configs, with a corpus kept in DIR/corpus/NAME between runs. Prints one
# line per harness: executions, corpus size and whether it found anything (a crash file in
# DIR/findings/NAME). Exit status 1 if any harness found something.
#   usage: tests/fuzz/run_fuzzers.sh DIR [NAME...]
set -u
dir=$1
shift
secs=${FUZZ_SECONDS:-60}
names=${*:-"msh neu case checkpoint tune_cache bincache"}
seeds() {
  case $1 in
    msh) echo tests/fixtures/*.msh ;;
    neu) echo tests/fixtures/*.neu ;;
    case) echo configs/*.json tests/fixtures/*.json ;;
    checkpoint) echo tests/fuzz/seeds/checkpoint/* ;;
    tune_cache) echo tuning/*.json ;;
    bincache) echo tests/fuzz/seeds/bincache/* ;;
  esac
}
found=0
for n in $names; do
  f="$dir/fuzz_$n"
  corpus="$dir/corpus/$n"
  out="$dir/findings/$n"
  mkdir -p "$corpus" "$out"
  # Seeds go into the corpus (small files only: big ones slow every mutation).
  for s in $(seeds "$n"); do
    [ -f "$s" ] && [ "$(wc -c < "$s")" -le 200000 ] && cp "$s" "$corpus/"
  done
  log="$dir/fuzz_$n.log"
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$f" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$out/" "$corpus" > "$log" 2>&1
  rc=$?
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  cov=$(grep -E '^stat::new_units_added' "$log" | awk '{print $2}')
  arts=$(ls "$out" | wc -l)
  if [ "$rc" -ne 0 ] || [ "$arts" -gt 0 ]; then
    found=1
    echo "fuzz_$n: ${execs:-?} executions in ${secs}s, FINDING (exit $rc; $out; log $log)"
    grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/    /'
  else
    echo "fuzz_$n: ${execs:-?} executions in ${secs}s, ${cov:-0} new corpus units, no findings"
  fi
done
exit $found
