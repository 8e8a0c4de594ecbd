#!/usr/bin/env bash
# Whether two builds' referees rule the same: `diskref referee` of each build on every sample and on
# the referee figures' variants (scripts/referee-figures.sh), and the logs compared byte for byte.
# For a refactoring of the referee (issue 39): its logs before and after must not differ at all.
#
# Usage: scripts/referee-logs-identical.sh [--no-video] [--variants DIR] BUILD_BEFORE BUILD_AFTER
#
# Neither build is built here: build `diskref` in each first (BUILD_BEFORE kept from before the
# change, so that it still holds the old referee). The referee figures' variants are rendered into
# BUILD_AFTER/referee-figures/ by `scripts/referee-figures.sh --render-only BUILD_AFTER` (which
# builds BUILD_AFTER's diskref; kept between runs, rendered again only when the simulator changes).
# --variants DIR takes them from DIR instead (as that script left them there), rendering nothing.
#
# Each game is refereed from tracks (`--tracks`), so that it takes seconds:
#   - from its truth (truth.jsonl: the tracks a perfect tracker gives);
#   - from its video through the tracker (unless --no-video): tracked once, by BUILD_BEFORE's
#     `diskref track`, and kept in BUILD_BEFORE/referee-logs/tracked/ (the tracker is no part of the
#     comparison: both referees get the same tracks).
# A sample without a game of its own (duel, crowded, small-tags-4k, the calibration boards) is
# refereed with the skirmish sample's game, its T'deret played by the ktinga (a disk of those
# samples' registry), and no inputs: every motion read as out of turn, or as no part of the game.
# The skirmish sample is refereed also without its inputs.
#
# Compared: LOG.json (--out), the play script (--script-out), the story (--story, stdout) and the
# exit status with stderr (its time taken masked). Each build's outputs stay in
# BUILD/referee-logs/out/ for a look with diff. Exit 0 when all are identical, 1 when not.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
video=1
variants_dir=
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --no-video) video=0; shift ;;
    --variants) variants_dir=$(cd "$2" && pwd); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ $# -ne 2 ]]; then
  sed -n '5p' "$0" | sed 's/^# //' >&2
  exit 2
fi
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
for b in "$before" "$after"; do
  [[ -x "$b/diskref" ]] || { echo "no $b/diskref: build it first (cmake --build $b --target diskref)" >&2; exit 2; }
done

# The variants, rendered (and their games and inputs written) by the figures' script.
if [[ -z $variants_dir ]]; then
  scripts/referee-figures.sh --render-only "$after" >&2
  variants_dir="$after/referee-figures"
fi

# The games: NAME DIR GAME INPUTS ("-": none). Every sample with a truth, then the variants.
work="$before/referee-logs"
mkdir -p "$work/tracked" "$work/games"
skirmish_game="$work/games/skirmish-game.json"
jq --arg data "$root/data/rules" '.data = [$data]' sample_videos/skirmish/game.json >"$skirmish_game"
other_game="$work/games/enterprise-ktinga-game.json"
jq '.ships |= map(if .id == "tderet" then .id = "ktinga" else . end)' "$skirmish_game" >"$other_game"
games=()
for dir in sample_videos/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  [[ -f "$dir/truth.jsonl" ]] || continue
  if [[ -f "$dir/game.json" ]]; then
    games+=("$name $root/$dir $root/$dir/game.json $root/$dir/inputs.jsonl")
    [[ $name == skirmish ]] && games+=("skirmish-no-inputs $root/$dir $skirmish_game -")
  else
    games+=("$name $root/$dir $other_game -")
  fi
done
for dir in "$variants_dir"/*/; do
  dir=${dir%/}
  [[ -f "$dir/truth.jsonl" && -f "$dir/game.json" ]] || continue
  games+=("figure-$(basename "$dir") $dir $dir/game.json $dir/inputs.jsonl")
done

# The tracks from the video, once (by the before build; the same file for both referees).
tracked() {
  local name=$1 dir=$2 out="$work/tracked/$1.jsonl"
  if [[ ! -s "$out" || "$dir/video.mp4" -nt "$out" ]]; then
    echo "== tracking $name" >&2
    "$before/diskref" track "$dir/video.mp4" --table "$dir/table.json" --disks "$dir/disks.json" \
      --calib "$dir/camera.json" --out "$out.new" --quiet >/dev/null
    mv "$out.new" "$out"
  fi
  echo "$out"
}

# One referee run: its outputs in OUT/NAME.{log.json,script.json,story.txt,stderr.txt}.
referee_run() {
  local build=$1 out=$2 name=$3 dir=$4 game=$5 inputs=$6 tracks=$7
  local args=(referee --tracks "$tracks" --table "$dir/table.json" --disks "$dir/disks.json" --game "$game"
              --out "$out/$name.log.json" --script-out "$out/$name.script.json" --story --quiet)
  [[ $inputs == - ]] || args+=(--inputs "$inputs")
  local status=0
  "$build/diskref" "${args[@]}" >"$out/$name.story.txt" 2>"$out/$name.stderr.raw" || status=$?
  { echo "exit $status"; sed -E 's/in [0-9.]+ s/in … s/' "$out/$name.stderr.raw"; } >"$out/$name.stderr.txt"
  rm "$out/$name.stderr.raw"
}

runs=0
for side in before after; do
  build=${!side}
  out="$build/referee-logs/out"
  rm -rf "$out"
  mkdir -p "$out"
done
for g in "${games[@]}"; do
  read -r name dir game inputs <<<"$g"
  sources=("truth $dir/truth.jsonl")
  if [[ $video == 1 && -f "$dir/video.mp4" && ! $name =~ ^calibration- && ! $name =~ -no-inputs$ ]]; then
    sources+=("video $(tracked "$name" "$dir")")
  fi
  for s in "${sources[@]}"; do
    read -r from tracks <<<"$s"
    for side in before after; do
      build=${!side}
      referee_run "$build" "$build/referee-logs/out" "$name.$from" "$dir" "$game" "$inputs" "$tracks"
    done
    runs=$((runs + 1))
  done
done

if diff -r "$before/referee-logs/out" "$after/referee-logs/out" >"$after/referee-logs/diff.txt"; then
  files=$(find "$after/referee-logs/out" -type f | wc -l)
  actions=$(cat "$after"/referee-logs/out/*.log.json | jq -s 'map(.log | length) | add')
  echo "identical: $runs referee runs (${#games[@]} games), $files files, $actions log entries in all"
  exit 0
fi
echo "DIFFERENT: see $after/referee-logs/diff.txt" >&2
head -40 "$after/referee-logs/diff.txt" >&2
exit 1
