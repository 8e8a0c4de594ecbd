#!/usr/bin/env bash
# The developer's loop, measured: touch one source, rebuild, run the unit tests of its folder —
# in the release build (unity batches, Make, static libraries) and in the developers' build
# (CMakePresets.json "dev": Ninja, ccache, lld, one file per compile, shared libraries, -O1), one
# after the other in the same run on the same machine. Prints a Markdown table;
# `scripts/figures.sh dev_loop scripts/dev-loop.sh` writes it to docs/figures/dev_loop.md.
#
#   scripts/dev-loop.sh [RELEASE_BUILD_DIR] [DEV_BUILD_DIR]    (default build/ and build-dev/)
#
# Both builds are brought up to date first (not timed). "Rebuild" is `cmake --build` of the whole
# tree, as a developer types it: what the touched file forces, and nothing else, is rebuilt. The
# tests are the folder's unit tests (ctest -L unit in BUILD/tests/FOLDER). The edit is a touch:
# the compiler sees the same file (ccache is told to look at its content, not its time, so the
# dev build's cache would hit: it is bypassed here with CCACHE_DISABLE so that the compile is real).
set -euo pipefail
cd "$(dirname "$0")/.."
release=${1:-build}
dev=${2:-build-dev}
jobs=${DISKREF_JOBS:-$(nproc)}
[ -d "$release" ] || cmake --preset release >/dev/null
[ -d "$dev" ] || cmake --preset dev >/dev/null
echo "bringing $release and $dev up to date (not timed)..." >&2
cmake --build "$release" -j"$jobs" >/dev/null
cmake --build "$dev" -j"$jobs" >/dev/null

seconds_since() { awk -v a="$(date +%s.%N)" -v b="$1" 'BEGIN { printf "%.3f", a - b }'; }
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a + b }'; }
measure() {  # build_dir source folder -> "build_s test_s tests"
  local build=$1 source=$2 folder=$3 t0 build_s test_s count
  touch "$source"
  t0=$(date +%s.%N)
  CCACHE_DISABLE=1 cmake --build "$build" -j"$jobs" >/dev/null
  build_s=$(seconds_since "$t0")
  t0=$(date +%s.%N)
  count=$(ctest --test-dir "$build/tests/$folder" -L unit -j"$jobs" 2>&1 | sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\)/\1/p')
  test_s=$(seconds_since "$t0")
  [ -n "$count" ] || { echo "dev-loop: a unit test of tests/$folder failed in $build" >&2; exit 1; }
  echo "$build_s $test_s $count"
}

echo "## The edit-build-test loop"
echo
echo "Touch one file, rebuild the tree, run its folder's unit tests: seconds on this machine ($jobs jobs;"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg))."
echo
echo "| touched | build | rebuild s | unit tests s | tests | loop s | loop vs release |"
echo "|---|---|---:|---:|---:|---:|---:|"
for source in vision/tracker.cpp referee/referee.cpp; do
  folder=$(dirname "$source")
  echo "measuring $source..." >&2
  read -r rb rt rn < <(measure "$release" "$source" "$folder")
  read -r db dt dn < <(measure "$dev" "$source" "$folder")
  rl=$(sum "$rb" "$rt")
  dl=$(sum "$db" "$dt")
  printf '| `%s` | release (unity, Make, static) | %.1f | %.1f | %d | %.1f | 1.00 |\n' "$source" "$rb" "$rt" "$rn" "$rl"
  printf '| `%s` | dev preset | %.1f | %.1f | %d | %.1f | %.2f |\n' "$source" "$db" "$dt" "$dn" "$dl" "$(awk -v a="$dl" -v b="$rl" 'BEGIN { print a / b }')"
done
echo
echo "The goal (issue 39): the dev preset's loop under a minute on 2 cores."
