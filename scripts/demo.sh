#!/usr/bin/env bash
# The README's main job: builds diskref, referees the bundled game (`diskref referee` on
# sample_videos/skirmish: the game as it was ruled is printed, its log written to demo-output/,
# the session recorded to demo-output/skirmish-recording and its report written beside it:
# demo-output/skirmish-report.html),
# then opens the companion screen on the same game with the referee running live (`diskref ui
# --game`: the ship panels, the turn, the moves read from the table, the rulings), then the
# companion screen's dispute tool on the bundled sample video (sample_videos/duel).
#
# With a display ($DISPLAY or $WAYLAND_DISPLAY set): opens the screen; close the window to end.
# Without one (a server, CI, a container): runs the very same screen under Xvfb, plays the whole
# game in real time and prints the display rate it kept, writes screenshots of its key moments
# (game-beam.png: the beam in range; game-collision.png; game-torpedo.png; game-end.png), then
# the same for the duel sample: two screenshots of the window to demo-output/ (the screen as it opens, and with the dispute tool asked whether
# enterprise can reach ktinga, whether the range template lying on the table touches both, and
# where enterprise lands after 3 flips). Nothing is faked: the
# screenshots are the window's own pixels.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh

game=sample_videos/skirmish
mkdir -p demo-output
echo "demo: refereeing the bundled game from its video ($game/video.mp4), recording it:"
rm -rf demo-output/skirmish-recording demo-output/skirmish-report_files
build/diskref referee "$game/video.mp4" --calib "$game/camera.json" --table "$game/table.json" \
  --disks "$game/disks.json" --game "$game/game.json" --inputs "$game/inputs.jsonl" \
  --out demo-output/skirmish-log.json --script-out demo-output/skirmish-as-played.json --story \
  --record demo-output/skirmish-recording
echo "demo: wrote demo-output/skirmish-log.json (the log, spec §9) and demo-output/skirmish-as-played.json"
build/diskref report demo-output/skirmish-recording --out demo-output/skirmish-report.html
echo "demo: the game report (every ruling with its picture): demo-output/skirmish-report.html"

game_args=(--video "$game/video.mp4" --game "$game/game.json" --inputs "$game/inputs.jsonl")
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "demo: opening the referee's screen on the same game (diskref ui --game; close the window to go on)"
  build/diskref ui "${game_args[@]}" --inputs-out demo-output/game-inputs.jsonl --stats
elif command -v xvfb-run >/dev/null; then
  gxvfb=(xvfb-run -a -s "-screen 0 1920x1080x24")
  echo "demo: no display: the referee's screen (diskref ui --game) under Xvfb (1920x1080), the game in real time:"
  "${gxvfb[@]}" build/diskref ui "${game_args[@]}" --size 1920x1080 --inputs-out demo-output/game-inputs.jsonl \
    --game-log demo-output/game-log.json --exit-at-end --stats
  echo "demo: the same game's key moments, as screenshots (frame: the video's, 30 per second):"
  for shot in beam:302 collision:484 torpedo:640; do
    "${gxvfb[@]}" build/diskref ui "${game_args[@]}" --size 1920x1080 --frames "${shot#*:}" --zoom \
      --screenshot "demo-output/game-${shot%%:*}.png"
  done
  "${gxvfb[@]}" build/diskref ui "${game_args[@]}" --size 1280x800 --frames 100000 --screenshot demo-output/game-end.png
  echo "demo: wrote demo-output/game-{beam,collision,torpedo}.png (1920x1080), game-end.png (1280x800),"
  echo "demo: game-inputs.jsonl (the inputs as the screen gave them) and game-log.json (its log)"
fi

# The drops sample: a beam's damage and its critical check read from the damage counters dropped
# on the table; one counter of the check lands leaning on one left lying and the referee is asked
# about it alone (the answer is in its inputs).
drops=sample_videos/drops
echo "demo: the drops sample ($drops/video.mp4): the counters dropped for a beam read from the table:"
build/diskref referee "$drops/video.mp4" --calib "$drops/camera.json" --table "$drops/table.json" \
  --disks "$drops/disks.json" --game "$drops/game.json" --inputs "$drops/inputs.jsonl" \
  --out demo-output/drops-log.json --story
echo "demo: wrote demo-output/drops-log.json (each drop's counters, faces and why any was asked about: drops_read)"
drops_args=(--video "$drops/video.mp4" --game "$drops/game.json" --inputs "$drops/inputs.jsonl")
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "demo: opening the referee's screen on the drops sample (close the window to go on)"
  build/diskref ui "${drops_args[@]}" --zoom --stats
elif command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1920x1080x24" build/diskref ui "${drops_args[@]}" --size 1920x1080 --frames 245 --zoom \
    --screenshot demo-output/game-drops.png
  echo "demo: wrote demo-output/game-drops.png (the critical check waiting for the referee's word on one counter)"
fi

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
