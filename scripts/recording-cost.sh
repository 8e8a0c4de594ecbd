#!/usr/bin/env bash
# What recording costs (docs/guide/recording.md): `diskref referee` on the bundled
# 1080p/30 skirmish game, in the same script, without and with `--record` (the frames copied as
# JPEG segments on the encoder's thread), runs taken in turn so that the machine's drift falls on
# both alike. Prints each run's frames per second and CPU seconds, the medians' ratio, and then
# a recording of a recording's own JPEG frames (nothing encoded), and the recording paced at the camera's rate (--realtime, as a live camera is): whether the rate
# holds and whether the encoder dropped any frame.
#   scripts/recording-cost.sh [PAIRS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
pairs="${1:-3}"
[ -x build/diskref ] || scripts/build.sh
s=sample_videos/skirmish
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$pairs" "$s" "$out" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
pairs, s, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
base = ["build/diskref", "referee", f"{s}/video.mp4", "--table", f"{s}/table.json", "--disks", f"{s}/disks.json",
        "--calib", f"{s}/camera.json", "--game", f"{s}/game.json", "--inputs", f"{s}/inputs.jsonl", "--quiet"]
frames = sum(1 for _ in open(f"{s}/truth.jsonl"))
def run(extra, tag):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(base + ["--out", f"{out}/{tag}.json"] + extra, check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return frames / wall, cpu
plain, rec = [], []
for i in range(pairs):
    plain.append(run([], f"plain{i}"))
    subprocess.run(["rm", "-rf", f"{out}/rec{i}"])
    rec.append(run(["--record", f"{out}/rec{i}"], f"rec{i}"))
    ended = json.load(open(f"{out}/rec{i}/ended.json"))
    print(f"pair {i + 1}: without {plain[-1][0]:6.1f} frames/s ({plain[-1][1]:.1f} s CPU), "
          f"with --record {rec[-1][0]:6.1f} frames/s ({rec[-1][1]:.1f} s CPU), video frames kept {ended['video_frames']}/{frames}")
p = statistics.median(x[0] for x in plain); r = statistics.median(x[0] for x in rec)
pc = statistics.median(x[1] for x in plain); rc = statistics.median(x[1] for x in rec)
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(f"{out}/rec0/video") for f in fs)
print(f"median: {p:.1f} frames/s without, {r:.1f} with --record: rate ratio {r / p:.3f} ({(1 - r / p) * 100:.1f} % slower), "
      f"CPU ratio {rc / pc:.3f}; video {size / 1e6 / (frames / 30):.1f} MB per second of video")
# A source that has its frames as JPEG already (a recording's pictures, tracked again): stored as
# they are, nothing encoded.
again, again_rec = [], []
for i in range(pairs):
    t0 = time.monotonic()
    subprocess.run(["build/diskref", "referee", "--session", f"{out}/rec0", "--retrack", "--quiet", "--out", f"{out}/a{i}.json"], check=True)
    again.append(frames / (time.monotonic() - t0))
    subprocess.run(["rm", "-rf", f"{out}/again{i}"])
    t0 = time.monotonic()
    subprocess.run(["build/diskref", "referee", "--session", f"{out}/rec0", "--retrack", "--quiet", "--out", f"{out}/b{i}.json",
                    "--record", f"{out}/again{i}"], check=True)
    again_rec.append(frames / (time.monotonic() - t0))
a = statistics.median(again); b = statistics.median(again_rec)
print(f"from a recording's own JPEG frames (--session --retrack): {a:.1f} frames/s without --record, {b:.1f} with: "
      f"rate ratio {b / a:.3f} ({(1 - b / a) * 100:.1f} % slower)")
# Paced as a camera delivers (30 frames/s): the rate must hold and nothing be dropped.
subprocess.run(["rm", "-rf", f"{out}/live"])
fps, cpu = run(["--record", f"{out}/live", "--realtime"], "live")
ended = json.load(open(f"{out}/live/ended.json"))
print(f"at the camera's rate (--realtime): {fps:.1f} frames/s kept of 30, {cpu / (frames / fps):.2f} CPU cores busy, "
      f"{ended['dropped_video_frames']} video frame(s) dropped, {ended['video_frames']}/{frames} kept")
PY
