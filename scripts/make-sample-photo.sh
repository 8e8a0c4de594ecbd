#!/usr/bin/env bash
# Regenerates the example photo shipped with diskref, rendered by the simulator
# (simulator/make_sample_photo.cpp says what it shows):
#   sample_videos/skirmish/disks.json  ->  sample_photos/dispute/{photo.jpg, disks.json, truth.json}
# then settles its dispute with the diskref just built, to show that it still answers as truth.json
# says (docs/guide/photo-disputes.md tells a user to try it).
# Usage: scripts/make-sample-photo.sh [BUILD_DIR]   (default build/; configured if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target make_sample_photo diskref >/dev/null
out=sample_photos/dispute
"$build/simulator/make_sample_photo" sample_videos/skirmish/disks.json "$out"
echo "$out: diskref photo $out/photo.jpg --disks $out/disks.json --range enterprise tderet --overlap tderet torpedo-1"
"$build/diskref" photo "$out/photo.jpg" --disks "$out/disks.json" --range enterprise tderet --overlap tderet torpedo-1 \
  >"$out/.ruling.json"
trap 'rm -f "$out/.ruling.json"' EXIT
jq -r --slurpfile truth "$out/truth.json" '[.answers, $truth[0].answers] | transpose[] |
  "  \(.[1].question): \(.[0].call), \(.[0].decisive_margin_mm) +- \(.[0].sigma_mm) mm" +
  " (truth: \(.[1].call), \(.[1].margin_mm // .[1].separation_mm) mm)"' "$out/.ruling.json"
jq -e --slurpfile truth "$out/truth.json" '[.answers[].call] == [$truth[0].answers[].call]' "$out/.ruling.json" \
  >/dev/null || { echo "make-sample-photo: diskref's calls are not truth.json's" >&2; exit 1; }
