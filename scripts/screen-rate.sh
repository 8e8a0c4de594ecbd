#!/usr/bin/env bash
# The companion screen's rates on the bundled game, with the referee running (`diskref ui --game`)
# and without it (the screen as it was before: tracking and the dispute tool), one after the
# other in the same run, in real time under Xvfb at 1920x1080 (software OpenGL: the screen's
# drawing costs CPU here that a graphics card would take on a real machine).
#
#   scripts/screen-rate.sh [BUILD_DIR] [ROUNDS]     (default build, 2 rounds; alternating)
#
# Prints each run's `--stats` and a closing table: the display rate (goal >= 30 frames/s) and
# the video rate kept (goal: the video's own, 30 frames/s), and the CPU the program used.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rounds=${2:-2}
game=sample_videos/skirmish
command -v xvfb-run >/dev/null || { echo "screen-rate: xvfb-run is missing (install xvfb)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # name, extra options...
  local name=$1
  shift
  xvfb-run -a -s "-screen 0 1920x1080x24" "$build/diskref" ui --video "$game/video.mp4" --size 1920x1080 \
    --exit-at-end --stats "$@" >"$out/$name.txt" 2>&1
  sed 's/^/  /' "$out/$name.txt" | grep -E "display:|video:|tracking" || { cat "$out/$name.txt" >&2; exit 1; }
}

for ((r = 1; r <= rounds; ++r)); do
  echo "round $r: the screen without the referee"
  run "plain-$r"
  echo "round $r: the screen with the referee (--game)"
  run "game-$r" --game "$game/game.json" --inputs "$game/inputs.jsonl"
done

echo
echo "| screen | round | display frames/s | video frames/s (of 30) | tracking ms/frame | CPU cores |"
echo "|---|---|---|---|---|---|"
for ((r = 1; r <= rounds; ++r)); do
  for kind in plain game; do
    f="$out/$kind-$r.txt"
    display=$(sed -n 's/^display: \([0-9.]*\) frames.*/\1/p' "$f")
    video=$(sed -n 's/^video: .*(\([0-9.]*\)\/s;.*/\1/p' "$f")
    track=$(sed -n 's/^tracking (worker thread): \([0-9.]*\) ms.*/\1/p' "$f")
    cores=$(sed -n 's/.*CPU used by the program: \([0-9.]*\) cores.*/\1/p' "$f")
    label=$([ "$kind" = game ] && echo "with the referee (--game)" || echo "without (tracking, dispute tool)")
    echo "| $label | $r | $display | $video | $track | $cores |"
  done
done
