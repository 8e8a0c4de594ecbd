#!/usr/bin/env bash
# How long the unit tests take (issue 39's goal: `ctest -L unit` under two minutes on 2 cores), as
# a developer runs them: every test labelled `unit` of a build tree, as many at once as the machine
# has cores. Prints Markdown (run it through scripts/figures.sh so that docs/figures/unit_tests.md
# is written by it): the count, the wall time, and the slowest tests, where time would be won.
#
# Usage: scripts/unit-test-time.sh [BUILD_DIR]   (default build/, the release tree; build-dev/ is
#        the dev preset's)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
if [[ ! -f "$build/CTestTestfile.cmake" ]]; then
  echo "unit-test-time: $build is not a configured build tree (build it first: scripts/build.sh or cmake --preset dev)" >&2
  exit 2
fi
jobs=$(nproc)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s.%N)
status=0
ctest --test-dir "$build" -L unit -j"$jobs" >"$log" 2>&1 || status=$?
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
count=$(grep -c 'Test *#[0-9]*:' "$log" || true)
failed=$(grep -c 'Test *#[0-9]*:.*\*\*\*' "$log" || true)

echo "# The unit tests' time"
echo
echo "\`ctest --test-dir $build -L unit -j$jobs\` ($(nproc) cores): the goal is under 120 s."
echo
echo "| tests | failed | wall time (s) |"
echo "|---|---|---|"
echo "| $count | $failed | $wall |"
echo
echo "## The ten slowest"
echo
echo "| test | s |"
echo "|---|---|"
grep 'Test *#[0-9]*:' "$log" |
  sed -E 's/.*Test *#[0-9]+: ([^ ]+) .* ([0-9.]+) sec.*/\2 \1/' | sort -rn | head -10 |
  awk '{ printf "| %s | %s |\n", $2, $1 }'
if [[ $status -ne 0 ]]; then
  echo "unit-test-time: some unit tests failed (ctest exit $status):" >&2
  grep -A3 '\*\*\*' "$log" >&2 || true
  exit "$status"
fi
