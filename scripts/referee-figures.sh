#!/usr/bin/env bash
# The referee's figures (docs/guide/refereeing.md, "How well it reads a game"): the skirmish sample and
# variants of it rendered here — other cameras, a wide lens, a tilted camera, dim light, hands in
# the way, a deliberately off-path move and an out-of-turn bump — each refereed twice, from its
# video through the tracker and from its truth, and compared (build/bench/referee_figures).
#
# Usage: scripts/referee-figures.sh [--render-only] [BUILD_DIR]   (default build/; configured if needed)
# The variants are rendered once into BUILD_DIR/referee-figures/ and kept (rendered again when the
# scenario or the simulator's sources change: git's view of them, so commit first). Prints one markdown table and the verdict latency.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
render_only=0
if [[ "${1:-}" == --render-only ]]; then render_only=1; shift; fi
build="${1:-build}"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
targets=(diskref)
[[ $render_only == 1 ]] || targets+=(referee_figures)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >/dev/null
out="$build/referee-figures"
mkdir -p "$out"

base=sample_videos/scenarios/skirmish.json
sample=sample_videos/skirmish

# The enterprise's pose when it is bumped (from the sample's truth, the moment before the bump).
bump_t=8.2
bump_shift=1.5
read -r bump_x bump_y bump_heading < <(jq -r --argjson t "$bump_t" \
  'select(.t == $t) | .disks[] | select(.name == "enterprise") | "\(.x) \(.y) \(.heading)"' "$sample/truth.jsonl")
# A turn of 5 degrees between the two flips of the enterprise's first move (less than a turn of
# evasive action, 8 degrees): its second landing lies one flip (the disk's diameter, 63.5 mm)
# along a heading 5 degrees off the legal one, 2 x 63.5 x sin(2.5 deg) = 5.54 mm from its legal place.
off_turn_deg=5

variant_filter() {
  case "$1" in
    webcam-720p) echo '.camera.resolution = [1280, 720] | .camera.horizontal_fov_deg = 78 |
                        .camera.pose.height_mm = 1300 | .effects.noise_sigma = 3.0' ;;
    wide-lens) echo '.camera.horizontal_fov_deg = 100 | .camera.dist_coeffs = [-0.28, 0.09, 0.0006, -0.0004, -0.012] |
                      .camera.pose.height_mm = 860' ;;
    tilted-20) echo '.camera.pose.tilt_deg = 20 | .camera.pose.height_mm = 1400' ;;
    dim-light) echo '.effects.exposure = 0.45 | .effects.noise_sigma = 4.0 | .effects.light_gradient = 0.35' ;;
    hands) echo '.events += [
                   {"t": 3.7, "hand": {"over": ["tderet"], "height_mm": 90, "enter_s": 0.4, "hold_s": 1.0, "leave_s": 0.4, "from": "north"}},
                   {"t": 13.2, "hand": {"at_mm": [620, 330], "height_mm": 70, "enter_s": 0.4, "hold_s": 1.2, "leave_s": 0.4, "from": "east"}}
                 ] | .events |= sort_by(.t)' ;;
    off-path) echo "(.events | map(select(.t == 3.6)) | length) as \$n | if \$n != 1 then error(\"no flip at 3.6\") else . end |
                    .events |= map(if .t == 3.6 then .flip.count = 1 else . end) |
                    .events += [
                      {\"t\": 4.0, \"rotate\": {\"disk\": \"enterprise\", \"heading\": (5.5 + $off_turn_deg), \"duration_s\": 0.25}},
                      {\"t\": 4.35, \"flip\": {\"disk\": \"enterprise\", \"count\": 1, \"seconds_per_flip\": 0.35, \"pause_s\": 0.4}}
                    ] | .events |= sort_by(.t)" ;;
    bump) echo ".duration_s += $bump_shift |
                .events |= map(if .t >= $bump_t then .t += $bump_shift else . end) |
                .events += [
                  {\"t\": $bump_t, \"remove\": {\"disk\": \"enterprise\", \"duration_s\": 0.5, \"to\": \"south\"}},
                  {\"t\": ($bump_t + 0.6), \"place\": {\"disk\": \"enterprise\", \"x\": $bump_x, \"y\": ($bump_y + 5),
                     \"heading\": $bump_heading, \"face\": \"up\", \"duration_s\": 0.6, \"from\": \"south\"}}
                ] | .events |= sort_by(.t)" ;;
    *) echo "unknown variant $1" >&2; exit 2 ;;
  esac
}

# What each variant was made to show (the truth the warnings are measured against).
expected() {
  case "$1" in
    off-path) awk -v a="$off_turn_deg" 'BEGIN { printf "{\"warning\": \"off_path\", \"disk\": \"enterprise\", \"designed_mm\": %.3f}\n", 2 * 63.5 * sin(a / 2 * atan2(0, -1) / 180) }' ;;
    bump) echo '{"warning": "out_of_turn", "disk": "enterprise", "designed_mm": 5.0}' ;;
    *) echo '{}' ;;
  esac
}

# A render is kept while its scenario and the simulator's sources are unchanged.
render_key=$( (cat "$base"; git ls-files -s simulator print sample_videos/scenarios) | sha1sum | cut -d' ' -f1)

variants=(webcam-720p wide-lens tilted-20 dim-light hands off-path bump)
dirs=("$sample")
for v in "${variants[@]}"; do
  dir="$out/$v"
  mkdir -p "$dir"
  jq "$(variant_filter "$v")" "$base" >"$dir/scenario.new.json"
  cp sample_videos/scenarios/table.json sample_videos/scenarios/skirmish-disks.json "$dir/"
  if [[ ! -f "$dir/video.mp4" || ! -f "$dir/truth.jsonl" ]] || ! cmp -s "$dir/scenario.new.json" "$dir/scenario.json" ||
     [[ "$(cat "$dir/render.key" 2>/dev/null)" != "$render_key" ]]; then
    mv "$dir/scenario.new.json" "$dir/scenario.json"
    echo "== rendering $v" >&2
    rm -f "$dir/render.key"
    "$build/diskref" render "$dir/scenario.json" --out "$dir" >&2
    echo "$render_key" >"$dir/render.key"
  else
    rm "$dir/scenario.new.json"
  fi
  jq --arg data "$root/data/rules" '.data = [$data]' "$sample/game.json" >"$dir/game.json"
  if [[ "$v" == bump ]]; then
    jq -c --argjson t "$bump_t" --argjson s "$bump_shift" 'if .t >= $t then .t += $s else . end' "$sample/inputs.jsonl" >"$dir/inputs.jsonl"
  else
    cp "$sample/inputs.jsonl" "$dir/inputs.jsonl"
  fi
  expected "$v" >"$dir/expected.json"
  dirs+=("$dir")
done

[[ $render_only == 1 ]] || "$build/bench/referee_figures" "${dirs[@]}"
