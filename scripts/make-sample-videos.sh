#!/usr/bin/env bash
# Regenerates the bundled sample videos and their ground truth from their scenarios:
#   sample_videos/scenarios/<name>.json  ->  sample_videos/<name>/{video.mp4, truth.jsonl,
#   table.json, disks.json, camera.json}
# Usage: scripts/make-sample-videos.sh [BUILD_DIR]   (default build/; configured if needed)
# Shows each render's progress and closes with the total time and frames per second.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target diskref >/dev/null

scenarios=(calibration-chessboard calibration-charuco duel crowded skirmish drops small-tags-4k)
start=$(date +%s.%N)
frames=0
for name in "${scenarios[@]}"; do
  echo "== $name" >&2
  summary=$("$build/diskref" render "sample_videos/scenarios/$name.json" --out "sample_videos/$name")
  echo "$summary"
  frames=$((frames + $(sed -E 's/^rendered ([0-9]+) frames.*/\1/' <<<"$summary")))
done
end=$(date +%s.%N)
awk -v f="$frames" -v s="$start" -v e="$end" \
  'BEGIN { printf "all sample videos: %d frames in %.1f s (%.1f frames/s)\n", f, e - s, f / (e - s) }'
du -ch sample_videos/*/video.mp4 | tail -1 | sed 's/^/video files in total: /'
