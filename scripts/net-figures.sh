#!/usr/bin/env bash
# What the live feed costs the tracker (docs/guide/network.md): `diskref referee` tracks the
# sample video, without the feed and with it (--serve, a client reading the stream, the table's
# frames at 30 updates/s), ROUNDS times each in one run, in the order without-with, with-without,
# ... (so that neither always runs first); prints each run's tracking rate (frames/s of wall time)
# and CPU time (the whole process: tracker, referee, feed), and the ratios of the means. Ratios,
# not times: the machine's load moves both.
#
#   scripts/net-figures.sh [ROUNDS]     (build/ built first; default 2 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
s=sample_videos/skirmish
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=("$s/video.mp4" --calib "$s/camera.json" --table "$s/table.json" --disks "$s/disks.json"
      --game "$s/game.json" --inputs "$s/inputs.jsonl")

rate() {  # frames per second from the referee's summary line
  sed -n 's/^\([0-9]*\) frames in \([0-9.]*\) s;.*/\1 \2/p' "$1" | awk '{ printf "%.2f", $1 / $2 }'
}

cpu() {  # user + system seconds of a finished run (bash's `time`, TIMEFORMAT below)
  tail -1 "$1"
}
TIMEFORMAT='%U %S'

plain() {
  { time build/diskref referee "${args[@]}" --out "$out/plain.json" 2> "$out/plain.err"; } 2> "$out/plain.time"
  without+=("$(rate "$out/plain.err")")
  without_cpu+=("$(awk '{ printf "%.2f", $1 + $2 }' "$out/plain.time")")
}
fed() {
  { time build/diskref referee "${args[@]}" --out "$out/fed.json" --serve 0 --updates-per-s 30 2> "$out/fed.err"; } \
    2> "$out/fed.time" &
  referee=$!
  for _ in $(seq 200); do grep -q 'feed/v1/events' "$out/fed.err" 2>/dev/null && break; sleep 0.05; done
  url=$(grep -o 'http://127.0.0.1:[0-9]*/feed/v1/events' "$out/fed.err" | head -1)
  curl -sN "$url" > "$out/stream.txt" &
  client=$!
  wait "$referee"
  kill "$client" 2>/dev/null || true
  with+=("$(rate "$out/fed.err")")
  with_cpu+=("$(awk '{ printf "%.2f", $1 + $2 }' "$out/fed.time")")
  messages=$(grep -c '^event: table' "$out/stream.txt" || true)
}

without=() with=() without_cpu=() with_cpu=()
for i in $(seq "$rounds"); do
  if (( i % 2 )); then plain; fed; else fed; plain; fi
  cmp -s "$out/plain.json" "$out/fed.json" || { echo "net-figures: the logs differ with the feed" >&2; exit 1; }
  echo "round $i: without the feed ${without[-1]} frames/s (${without_cpu[-1]} s CPU), with it ${with[-1]} frames/s" \
       "(${with_cpu[-1]} s CPU; $messages table messages received by the client)"
done
mean() { printf '%s\n' "$@" | awk '{ t += $1 } END { printf "%.2f", t / NR }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
w=$(mean "${with[@]}"); wo=$(mean "${without[@]}")
wc=$(mean "${with_cpu[@]}"); woc=$(mean "${without_cpu[@]}")
echo "tracking rate with the feed / without: $w / $wo frames/s = $(ratio "$w" "$wo")"
echo "CPU time with the feed / without: $wc / $woc s = $(ratio "$wc" "$woc") (logs identical)"
