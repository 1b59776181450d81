#!/bin/sh
# Runs each cmocka test binary with TAP output, shows its results, and ends with one line:
# "N passed, N failed" counting individual test cases (a binary that crashes or times out
# counts as one failure).
#   usage: tests/run_tests.sh BINARY...
set -u
passed=0
failed=0
skipped=0
failed_names=""
export CMOCKA_MESSAGE_OUTPUT=TAP
# PoCL's runtime keeps allocations alive until exit; leak checks would flag PoCL, not us.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
limit="${DGTD_TEST_TIMEOUT:-900}"
for t in "$@"; do
  name=$(basename "$t")
  start=$(date +%s)
  out=$(timeout "$limit" "$t" 2>&1)
  rc=$?
  secs=$(( $(date +%s) - start ))
  # cmocka reports a skipped test as "ok N # SKIP" or "not ok N # SKIP": neither a pass nor
  # a failure.
  skip=$(printf '%s\n' "$out" | grep -cE '^(not )?ok .*# SKIP')
  ok=$(printf '%s\n' "$out" | grep '^ok ' | grep -vc '# SKIP')
  bad=$(printf '%s\n' "$out" | grep '^not ok ' | grep -vc '# SKIP')
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1   # crashed, timed out or failed outside a test case
  fi
  skipped=$((skipped + skip))
  passed=$((passed + ok))
  failed=$((failed + bad))
  if [ "$bad" -gt 0 ]; then
    printf '%s\n' "$out"
    failed_names="$failed_names $name"
    echo "FAIL $name ($ok passed, $bad failed, exit $rc, ${secs}s)"
  else
    printf '%s\n' "$out" | grep -E '^(ok |not ok .*# SKIP|# )' | sed 's/^/  /'
    echo "PASS $name ($ok passed, $skip skipped, ${secs}s)"
  fi
done
[ -n "$failed_names" ] && echo "failing:$failed_names"
[ "$skipped" -gt 0 ] && echo "($skipped skipped: see the SKIP lines above for why)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
