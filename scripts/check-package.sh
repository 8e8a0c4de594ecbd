#!/usr/bin/env bash
# Checks the Debian package as a user meets it (CI runs this after scripts/package.sh): lintian
# (its errors fail; its warnings are listed, and each one that stays is explained in
# docs/development/packaging.md), then the package unpacked into an empty root and that root's
# diskref run from a folder outside the checkout on the bundled game: the referee with a recording,
# the report, and the companion screen's screenshot under Xvfb (its default video found beside the
# installed program). Nothing of the checkout or the build tree may be needed.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
deb=$(ls "$checkout"/build/package/diskref_*.deb)
work=$(mktemp -d /tmp/diskref-package-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

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
# Man pages read, and the completion loads.
for page in "$work"/root/usr/share/man/man1/*.1.gz; do
  mandoc -T lint -W warning "$page" >/dev/null
done
bash -c "source '$work/root/usr/share/bash-completion/completions/diskref'; complete -p diskref" >/dev/null
echo "check-package: $(ls "$work"/root/usr/share/man/man1 | wc -l) man pages lint clean, bash completion loads; ok"
