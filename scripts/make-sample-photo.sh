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
"$build/diskref" photo "$out/photo.jpg" --disks "$out/disks.json" --range enterprise tderet --overlap tderet torpedo-1 |
  /usr/bin/python3 -c '
import json, sys
truth = json.load(open(sys.argv[1]))["answers"]
for answer, true in zip(json.load(sys.stdin)["answers"], truth):
    question, call, true_call = true["question"], answer["call"], true["call"]
    margin, sigma = answer["decisive_margin_mm"], answer["sigma_mm"]
    true_margin = true.get("margin_mm", true.get("separation_mm"))
    print(f"  {question}: {call}, {margin:+.2f} +- {sigma:.2f} mm (truth: {true_call}, {true_margin:+.3f} mm)")
    if call != true_call:
        sys.exit(f"make-sample-photo: {question}: answered {call}, truth.json says {true_call}")
' "$out/truth.json"
