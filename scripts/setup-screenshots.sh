#!/bin/sh
# The pictures of docs/guide/first-table.md: runs the setup screen's end-to-end test (a new table from
# the game file alone, through every step, under Xvfb) and copies the JPEG of each step's screenshot
# to docs/images/. Builds build/ first when needed.
set -eu
cd "$(dirname "$0")/.."
[ -x build/tests/ui/ui_setup_screen_tests ] || ./scripts/build.sh
cmake --build build -j2 --target diskref ui_setup_screen_tests
build/tests/ui/ui_setup_screen_tests
cp build/test-output/ui-setup/readme/setup-*.jpg docs/images/
ls -l docs/images/setup-*.jpg
