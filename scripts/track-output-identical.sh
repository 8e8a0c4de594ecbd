#!/usr/bin/env bash
# Whether two builds of diskref track the sample videos identically: runs `diskref track` from
# each build on every sample under sample_videos/ (or the ones named) and compares, byte for
# byte, the track.jsonl written, the exit status, and what it said on stderr (the notes naming
# their frame: table pose acquired, camera moved, ...; the run's time and rate left out).
# For a change meant to leave the tracker's behaviour as it was (a refactor).
#
# Usage: scripts/track-output-identical.sh BUILD_BEFORE BUILD_AFTER [SAMPLE...]
#   e.g. scripts/track-output-identical.sh build-before build duel crowded
# Each build's outputs are kept in BUILD/track-output/SAMPLE/ and made again only when that
# build's diskref is newer than them, so a build left as it was (the "before") is run once.
# Exit status 0 when every sample's output is identical, 1 when one differs, 2 for bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 2 ]]; then
  echo "usage: $0 BUILD_BEFORE BUILD_AFTER [SAMPLE...]" >&2
  exit 2
fi
before="$1"
after="$2"
shift 2
for build in "$before" "$after"; do
  if [[ ! -x "$build/diskref" ]]; then
    echo "$0: no $build/diskref (build the diskref target there first)" >&2
    exit 2
  fi
done

samples=("$@")
if [[ ${#samples[@]} -eq 0 ]]; then
  for dir in sample_videos/*/; do
    [[ -f "$dir/video.mp4" ]] && samples+=("$(basename "$dir")")
  done
fi

# Tracks one sample with one build into BUILD/track-output/SAMPLE/, unless already done by this
# build's diskref.
track() {
  local build="$1" name="$2"
  local dir="sample_videos/$name" out="$build/track-output/$name"
  if [[ -f "$out/status" && "$out/status" -nt "$build/diskref" ]]; then return; fi
  mkdir -p "$out"
  local start status=0
  start=$(date +%s.%N)
  "$build/diskref" track "$dir/video.mp4" --table "$dir/table.json" --disks "$dir/disks.json" \
    --calib "$dir/camera.json" --out "$out/track.jsonl" --quiet 2>"$out/stderr.raw" || status=$?
  # The run's time and rate differ from run to run; nothing else should.
  sed -E 's/ frames in [0-9.]+ s \([0-9.]+ frames per second\)/ frames/' "$out/stderr.raw" >"$out/stderr"
  touch "$out/track.jsonl"  # a run that failed before writing compares as empty
  echo "$status" >"$out/status"
  awk -v s="$start" -v e="$(date +%s.%N)" -v b="$build" -v n="$name" \
    'BEGIN { printf "  %s: %s tracked in %.1f s\n", b, n, e - s }' >&2
}

different=0
for name in "${samples[@]}"; do
  if [[ ! -f "sample_videos/$name/video.mp4" ]]; then
    echo "$0: no sample_videos/$name/video.mp4" >&2
    exit 2
  fi
  track "$before" "$name"
  track "$after" "$name"
  verdict="identical"
  for file in track.jsonl stderr status; do
    if ! cmp -s "$before/track-output/$name/$file" "$after/track-output/$name/$file"; then
      verdict="DIFFERENT"
      echo "$name: $file differs:" >&2
      diff "$before/track-output/$name/$file" "$after/track-output/$name/$file" | head -6 | cut -c1-300 >&2 || true
    fi
  done
  [[ $verdict == identical ]] || different=1
  echo "$name: $verdict ($(wc -l <"$after/track-output/$name/track.jsonl") frames, $(wc -c <"$after/track-output/$name/track.jsonl") bytes)"
done
exit "$different"
