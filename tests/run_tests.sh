#!/bin/sh
# Runs each cmocka test binary with TAP output, shows its results, and ends with one line:
# "N passed, N failed, N skipped" counting individual test cases (a binary that crashes or
# times out counts as one failure). "N skipped" counts the skipped test cases and the
# skipped parts of cases that passed ("# SKIP part:" lines, tests/test_util.h): each hides
# what it would have checked, so each is counted and its reason shown.
# DGTD_TEST_NO_SKIP=1 (CI, where make test has installed every tool) makes every skip a
# failure: a skipped case or part counts as failed (test_skip_part fails its case itself).
# A binary that announced more cases (cmocka's "1..N" plans, summed) than it reported
# ("ok"/"not ok" lines at the start of a line) counts each missing one as a failure: a
# message run into a TAP line would otherwise hide its case.
#   usage: tests/run_tests.sh BINARY...
set -u
passed=0
failed=0
skipped=0
skipped_parts=0
failed_names=""
noskip=0
[ "${DGTD_TEST_NO_SKIP:-}" = 1 ] && noskip=1
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
  # a failure (under DGTD_TEST_NO_SKIP=1 a failure).
  skip=$(printf '%s\n' "$out" | grep -cE '^(not )?ok .*# SKIP')
  parts=$(printf '%s\n' "$out" | grep -c '^# SKIP part:')
  ok=$(printf '%s\n' "$out" | grep '^ok ' | grep -vc '# SKIP')
  bad=$(printf '%s\n' "$out" | grep '^not ok ' | grep -vc '# SKIP')
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1   # crashed, timed out or failed outside a test case
  fi
  why=""
  plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' | awk '{s += $1} END {print s + 0}')
  seen=$((ok + skip + $(printf '%s\n' "$out" | grep '^not ok ' | grep -vc '# SKIP')))
  if [ "$rc" -eq 0 ] && [ "$plan" -gt "$seen" ]; then
    bad=$((bad + plan - seen))
    why=", $((plan - seen)) of $plan cases with no TAP line of their own"
  fi
  if [ "$noskip" -eq 1 ] && [ $((skip + parts)) -gt 0 ]; then
    bad=$((bad + skip + parts))
    why=", $((skip + parts)) skipped under DGTD_TEST_NO_SKIP=1"
    skip=0
    parts=0
  fi
  skipped=$((skipped + skip))
  skipped_parts=$((skipped_parts + parts))
  passed=$((passed + ok))
  failed=$((failed + bad))
  if [ "$bad" -gt 0 ]; then
    printf '%s\n' "$out"
    failed_names="$failed_names $name"
    echo "FAIL $name ($ok passed, $bad failed$why, exit $rc, ${secs}s)"
  else
    printf '%s\n' "$out" | grep -E '^(ok |not ok .*# SKIP|# )' | sed 's/^/  /'
    echo "PASS $name ($ok passed, $skip skipped, $parts parts skipped, ${secs}s)"
  fi
done
[ -n "$failed_names" ] && echo "failing:$failed_names"
total_skipped=$((skipped + skipped_parts))
[ "$total_skipped" -gt 0 ] &&
  echo "($skipped test cases and $skipped_parts parts of cases skipped:" \
       "see the SKIP lines above for why)"
echo "$passed passed, $failed failed, $total_skipped skipped"
[ "$failed" -eq 0 ]
