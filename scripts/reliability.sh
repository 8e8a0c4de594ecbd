#!/usr/bin/env bash
# The reliability figures (docs/design/reliability.md), from one command:
#
#   scripts/reliability.sh [SECONDS_EACH] [--fuzzed]
#   scripts/figures.sh reliability scripts/reliability.sh 60     (writes docs/figures/reliability.md)
#
# Fuzzes every file kind for SECONDS_EACH (default 60; scripts/fuzz.sh), runs the fault tests
# (full disk, full and closed stdout, kill -9 of the recorder and of the tracker, videos cut short
# and corrupt), and prints the figures in Markdown. --fuzzed
# takes the fuzzing figures of the last scripts/fuzz.sh run (build-fuzz/fuzz-summary.txt) instead
# of fuzzing again.
# Needs build/ built (scripts/build.sh) for the fault tests.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
fuzz_again=1
for a in "$@"; do
  case "$a" in
    --fuzzed) fuzz_again=0 ;;
    *) seconds=$a ;;
  esac
done

fuzz_status=0
if [ "$fuzz_again" = 1 ]; then
  scripts/fuzz.sh "$seconds" >/dev/null || fuzz_status=$?
fi
seconds=$(awk '{print $3; exit}' build-fuzz/fuzz-summary.txt)
faults=$(mktemp)
trap 'rm -f "$faults"' EXIT
fault_status=0
{ build/tests/faults/cli_fault_tests; build/tests/recording/recording_unit_tests --gtest_filter='RecordingFaults.*'; } >"$faults" 2>&1 ||
  fault_status=$?
passed=$(grep -c '^\[       OK \]' "$faults" || true)
failed=$(grep -c '^\[  FAILED  \] [A-Za-z]*\.' "$faults" || true)

section=$(
  echo "| file kind (fuzz target) | bundled seeds | fuzzing | executions | corpus after | crashes | hangs |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  while read -r _ t secs _ execs _ corpus _ _ crashes _ hangs _; do
    t=${t%:}
    seeds=$(ls "fuzz/corpus/$t" | wc -l)
    echo "| $t | $seeds | $secs s | $execs | $corpus | ${crashes%,} | $hangs |"
  done <build-fuzz/fuzz-summary.txt
  total=$(awk '{s += $5} END {print s}' build-fuzz/fuzz-summary.txt)
  echo
  crashes=$(awk '{s += $10} END {print s}' build-fuzz/fuzz-summary.txt)
  hangs=$(awk '{s += $12} END {print s}' build-fuzz/fuzz-summary.txt)
  echo "In all $total inputs tried under AddressSanitizer + UndefinedBehaviorSanitizer: $crashes crashes, $hangs hangs."
  echo
  echo "Fault tests ($passed passed, $failed failed):"
  echo
  # Paths relative to the repository (the figures go into its docs).
  sed -n 's/^\[fault\] /- /p' "$faults" | sed "s|$PWD/||g"
)
echo "$section"
[ "$fuzz_status" -eq 0 ] && [ "$fault_status" -eq 0 ]
