#!/usr/bin/env bash
# Fuzzes every file kind diskref reads (fuzz/targets/), each for a bounded time, with libFuzzer
# and AddressSanitizer + UndefinedBehaviorSanitizer, from the corpus kept in fuzz/corpus/<target>/.
#
#   scripts/fuzz.sh [SECONDS_EACH] [TARGET...]     (default 60 s, every target)
#   scripts/fuzz.sh --build-only [--with-unit-tests]
#
# --build-only builds and stops; --with-unit-tests also builds the unit tests in the same
# sanitized tree (CI runs them there: one clang build serves both, instead of a second
# sanitizer build of everything).
#
# Builds build-fuzz/ with clang (-DDISKREF_FUZZ=ON). New inputs that reach new code are added to
# a scratch corpus (build-fuzz/corpus/<target>/), not to the repository's: run with
# DISKREF_FUZZ_KEEP=1 to merge them into fuzz/corpus/ (minimised). A crash or a hang stops the
# run: its input is saved in fuzz/regressions/<target>/, where every build's tests replay it
# (fuzz_replay.<target>) — fix it, and it stays there as the regression test.
#
# Prints one line per target: "fuzz <target>: <s> s, <n> executions, <k> corpus inputs, 0
# crashes, 0 hangs"; the summary is in build-fuzz/fuzz-summary.txt. Exit 1 when a target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
build_targets=(diskref_fuzzers)
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    --with-unit-tests) build_targets+=(diskref_unit_tests) ;;
    *) break ;;
  esac
  shift
done
seconds=${1:-60}
shift || true
jobs=${DISKREF_JOBS:-$(nproc)}

# -O1 with line tables only: what libFuzzer's authors advise, and half the build time of -O2 -g.
# The program's sources one file per compile, so that this build (CI's clang one) shows each
# compiles alone; the test programs in unity batches, to keep CI's time (they compile alone in
# the developers' build).
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DDISKREF_UNITY_BUILD=OFF -DDISKREF_UNITY_BUILD_TESTS=ON -DDISKREF_FUZZ=ON -DDISKREF_BUILD_UI=OFF -DDISKREF_BUILD_BENCH=OFF -DDISKREF_WERROR="${DISKREF_WERROR:-OFF}" >/dev/null
cmake --build build-fuzz -j"$jobs" --target "${build_targets[@]}"
[ "$build_only" = 1 ] && exit 0

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(ls fuzz/targets/*.cpp | xargs -n1 basename | sed 's/\.cpp$//')
fi

summary=build-fuzz/fuzz-summary.txt
: >"$summary"
failed=0
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  work=build-fuzz/corpus/$t
  found=fuzz/regressions/$t
  mkdir -p "$work" "$found"
  log=build-fuzz/fuzz-$t.log
  # -timeout: an input that takes over 10 s is a hang; -rss_limit_mb: over 2 GB is a leak or a
  # runaway allocation. The inputs are files of at most 16 KiB (the bundled seeds are cut to that).
  status=0
  build-fuzz/fuzz/fuzz_"$t" "$work" "fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=16384 -artifact_prefix="$found/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(( $(ls "$work" | wc -l) + $(ls "fuzz/corpus/$t" | wc -l) ))
  crashes=$(ls "$found" | grep -c '^crash-' || true)
  hangs=$(ls "$found" | grep -Ec '^(timeout|slow-unit|oom)-' || true)
  line="fuzz $t: $seconds s, ${execs:-0} executions, $corpus corpus inputs, $crashes crashes, $hangs hangs"
  [ "$status" -eq 0 ] || line="$line (libFuzzer exit $status: see $log)"
  echo "$line" | tee -a "$summary"
  [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ] && [ "$hangs" -eq 0 ] || failed=1
  if [ "${DISKREF_FUZZ_KEEP:-0}" = 1 ]; then
    mkdir -p "build-fuzz/merged/$t"
    build-fuzz/fuzz/fuzz_"$t" -merge=1 "build-fuzz/merged/$t" "fuzz/corpus/$t" "$work" >/dev/null 2>&1
    rm -f "fuzz/corpus/$t"/* && mv "build-fuzz/merged/$t"/* "fuzz/corpus/$t"/ && rmdir "build-fuzz/merged/$t"
  fi
done
exit $failed
