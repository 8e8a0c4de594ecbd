#!/usr/bin/env bash
# Checks the Debian package as a user meets it (CI runs this after scripts/package.sh): lintian
# (its errors fail; its warnings are listed, and each one that stays is explained in
# docs/development/packaging.md), then the package unpacked into an empty root and that root's
# diskref run from a folder outside the checkout on the bundled game: the referee with a recording,
# the report, and the companion screen's screenshot under Xvfb (its default video found beside the
# installed program); then on the bundled example photo: a dispute settled by `diskref photo`, and
# the same photo uploaded to `diskref serve`'s page with curl, as a phone uploads it. Nothing of the
# checkout or the build tree may be needed.
# Usage: scripts/check-package.sh [DEB]   (default: the checkout's build/package/diskref_*.deb)
set -euo pipefail
if [[ $# -gt 1 ]]; then
  echo "usage: scripts/check-package.sh [DEB]" >&2
  exit 2
fi
deb=${1:+$(realpath "$1")}
cd "$(dirname "$0")/.."
checkout=$PWD
deb=${deb:-$(ls "$checkout"/build/package/diskref_*.deb)}
if [[ ! -f $deb ]]; then
  echo "check-package: $deb: no such package (scripts/package.sh builds it)" >&2
  exit 2
fi
work=$(mktemp -d /tmp/diskref-package-check.XXXXXX)
serve_pid=
trap '[[ -z $serve_pid ]] || kill "$serve_pid" 2>/dev/null; rm -rf "$work"' EXIT

echo "check-package: lintian $deb"
# Tags lintian may raise that are expected for this package are explained in
# docs/development/packaging.md; errors always fail.
lintian --fail-on error --display-level ">=warning" --tag-display-limit 0 "$deb" | tee "$work/lintian.txt"
echo "check-package: lintian: $(grep -c '^E:' "$work/lintian.txt" || true) errors, $(grep -c '^W:' "$work/lintian.txt" || true) warnings"

# Its dependencies resolve from Debian's packages (what `apt install ./diskref_*.deb` would pull in).
apt-get install --simulate --no-install-recommends "$deb" >"$work/apt.txt" 2>&1 ||
  { cat "$work/apt.txt" >&2; echo "check-package: apt cannot install $deb" >&2; exit 1; }
echo "check-package: apt resolves its dependencies: $(grep -c '^Inst ' "$work/apt.txt" || true) package(s) to install"

echo "check-package: unpacked into an empty root ($work/root), run from $work/table"
dpkg-deb -x "$deb" "$work/root"
mkdir "$work/table"
cd "$work/table"
diskref=$work/root/usr/bin/diskref
share=$work/root/usr/share/diskref
# The shipped binary carries no path of the checkout it was built from.
if grep -aq -F "$checkout" "$diskref"; then
  echo "check-package: the installed diskref names the checkout's path $checkout" >&2
  exit 1
fi
"$diskref" --version
game=$share/sample_videos/skirmish
"$diskref" referee "$game/video.mp4" --calib "$game/camera.json" --table "$game/table.json" --disks "$game/disks.json" \
  --game "$game/game.json" --inputs "$game/inputs.jsonl" --out log.json --record recording --quiet
test -s log.json
echo "check-package: referee: log.json ($(wc -c <log.json) bytes), recording/ ($(ls recording | wc -l) entries)"
"$diskref" report recording --out report.html
test -s report.html
echo "check-package: report: report.html ($(wc -c <report.html) bytes)"
xvfb-run -a -s "-screen 0 1280x800x24" "$diskref" ui --frames 60 --screenshot ui.png
test -s ui.png
echo "check-package: ui: ui.png ($(wc -c <ui.png) bytes) of the bundled sample found beside the program"

# A dispute settled from the bundled example photo, as docs/guide/photo-disputes.md tells a user to
# try it: the calls must be the ones its truth.json gives.
photo=$share/sample_photos/dispute
"$diskref" photo "$photo/photo.jpg" --disks "$photo/disks.json" --range enterprise tderet --overlap tderet torpedo-1 \
  --annotated answer.png >ruling.json
test -s answer.png
jq -e --slurpfile truth "$photo/truth.json" '[.answers[].call] == [$truth[0].answers[].call]' ruling.json >/dev/null ||
  { echo "check-package: photo: the calls $(jq -c '[.answers[].call]' ruling.json) are not truth.json's" \
    "$(jq -c '[.answers[].call]' "$photo/truth.json")" >&2; exit 1; }
echo "check-package: photo: $(jq -r '[.answers[] | "\(.id) \(.call) (\(.decisive_margin_mm) +- \(.sigma_mm) mm)"] | join(", ")' ruling.json)," \
  "as truth.json says; answer.png ($(wc -c <answer.png) bytes)"

# The photo page served alone on a free loopback port (the system picks it; the address is printed),
# the page fetched and the photo uploaded as the page uploads it: its bytes as the body of a POST,
# the question in the query (docs/reference/commands/serve.md; on loopback no token is needed).
# serve.txt exists before the background job opens it, so that the first look never misses it.
: >serve.txt
"$diskref" serve --disks "$photo/disks.json" --serve 127.0.0.1:0 --for 300 2>>serve.txt &
serve_pid=$!
url=
for _ in $(seq 300); do
  url=$(sed -n 's|^diskref serve: the photo page: \(http://127\.0\.0\.1:[0-9]*/\) .*|\1|p' serve.txt)
  [[ -n $url ]] && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -z $url ]]; then
  echo "check-package: diskref serve printed no address:" >&2
  cat serve.txt >&2
  exit 1
fi
curl -fsS "$url" -o page.html
grep -q "<html" page.html || { echo "check-package: serve: $url is not the photo page" >&2; exit 1; }
disks=$(curl -fsS "${url}photo/v1/disks" | jq -c '[.disks[].name]')
[[ $disks == '["enterprise","tderet","torpedo-1","torpedo-2"]' ]] ||
  { echo "check-package: serve: /photo/v1/disks offers $disks, not the registry's disks" >&2; exit 1; }
question=$(jq -rn '{"id": "q", "range": {"from": "enterprise", "to": "tderet", "template": {"length_mm": 88.9, "width_mm": 25.4}}}
  | tojson | @uri')
curl -sS --fail-with-body -X POST -H "Content-Type: image/jpeg" --data-binary @"$photo/photo.jpg" \
  "${url}photo/v1/ruling?question=$question" -o upload.json ||
  { echo "check-package: serve: the photo's upload was refused: $(cat upload.json)" >&2; exit 1; }
jq '.ruling' upload.json >upload-ruling.json
jq -e --slurpfile truth "$photo/truth.json" '.answers | length == 1 and .[0].call == $truth[0].answers[0].call' \
  upload-ruling.json >/dev/null ||
  { echo "check-package: serve: the page's ruling is not truth.json's: $(jq -c '.answers' upload-ruling.json)" >&2; exit 1; }
jq -r '.picture' upload.json | base64 -d >upload-answer.jpg
[[ $(jq -r '.picture_type' upload.json) == image/jpeg && $(head -c 3 upload-answer.jpg | od -An -tx1 | tr -d ' ') == ffd8ff ]] ||
  { echo "check-package: serve: the answer's picture is not a JPEG" >&2; exit 1; }
kill -INT "$serve_pid"
wait "$serve_pid" || { echo "check-package: diskref serve did not stop cleanly on SIGINT:" >&2; cat serve.txt >&2; exit 1; }
serve_pid=
echo "check-package: serve: $url (page $(wc -c <page.html) bytes); the photo uploaded:" \
  "$(jq -r '.answers[0] | "\(.call) (\(.decisive_margin_mm) +- \(.sigma_mm) mm)"' upload-ruling.json)," \
  "the annotated picture $(wc -c <upload-answer.jpg) bytes; stopped on SIGINT"

# Man pages read, and the completion loads.
for page in "$work"/root/usr/share/man/man1/*.1.gz; do
  mandoc -T lint -W warning "$page" >/dev/null
done
bash -c "source '$work/root/usr/share/bash-completion/completions/diskref'; complete -p diskref" >/dev/null
echo "check-package: $(ls "$work"/root/usr/share/man/man1 | wc -l) man pages lint clean, bash completion loads; ok"
