#!/usr/bin/env bash
# The README's main job: builds diskref, referees the bundled game (`diskref referee` on
# sample_videos/skirmish: the game as it was ruled is printed, its log written to demo-output/),
# then runs the companion screen (`diskref ui`) on the bundled sample video (sample_videos/duel).
#
# With a display ($DISPLAY or $WAYLAND_DISPLAY set): opens the screen; close the window to end.
# Without one (a server, CI, a container): runs the very same screen under Xvfb, plays the whole
# sample in real time and prints the display rate it kept, then writes two screenshots of the
# window to demo-output/ (the screen as it opens, and with the dispute tool asked whether
# enterprise can reach ktinga, whether the range template lying on the table touches both, and
# where enterprise lands after 3 flips). Nothing is faked: the
# screenshots are the window's own pixels.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh

game=sample_videos/skirmish
mkdir -p demo-output
echo "demo: refereeing the bundled game from its video ($game/video.mp4):"
build/diskref referee "$game/video.mp4" --calib "$game/camera.json" --table "$game/table.json" \
  --disks "$game/disks.json" --game "$game/game.json" --inputs "$game/inputs.jsonl" \
  --out demo-output/skirmish-log.json --script-out demo-output/skirmish-as-played.json --story
echo "demo: wrote demo-output/skirmish-log.json (the log, spec §9) and demo-output/skirmish-as-played.json"

sample=sample_videos/duel
if [ ! -f "$sample/video.mp4" ]; then
  echo "demo: $sample/video.mp4 is missing (the bundled sample video)" >&2
  exit 1
fi

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "demo: opening the companion screen on $sample/video.mp4 (close the window to end)"
  exec build/diskref ui --video "$sample/video.mp4" --stats
fi

if ! command -v xvfb-run >/dev/null; then
  echo "demo: no display and no xvfb-run (install the xvfb package): running the tracker instead" >&2
  mkdir -p demo-output
  build/diskref track "$sample/video.mp4" --table "$sample/table.json" --disks "$sample/disks.json" \
    --calib "$sample/camera.json" --out demo-output/track.jsonl
  echo "demo: wrote demo-output/track.jsonl"
  exit 0
fi

mkdir -p demo-output
xvfb=(xvfb-run -a -s "-screen 0 1280x800x24")
echo "demo: no display: running the companion screen under Xvfb (1280x800) on $sample/video.mp4"
echo "demo: 1. the whole sample in real time, recording the session to demo-output/session"
rm -rf demo-output/session
"${xvfb[@]}" build/diskref ui --video "$sample/video.mp4" --record demo-output/session --exit-at-end --stats
echo "demo: 2. screenshots"
"${xvfb[@]}" build/diskref ui --video "$sample/video.mp4" --frames 100 --screenshot demo-output/ui.png
"${xvfb[@]}" build/diskref ui --video "$sample/video.mp4" --frames 190 --select enterprise,ktinga \
  --flip enterprise:3 --zoom --screenshot demo-output/ui-dispute.png
echo "demo: wrote demo-output/ui.png and demo-output/ui-dispute.png; the session's tracks and events are in"
echo "demo: demo-output/session (replay it with: build/diskref ui --replay demo-output/session)"
