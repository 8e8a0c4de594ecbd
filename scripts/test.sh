#!/usr/bin/env bash
# Builds diskref and runs every test (unit and integration). The README's test command and CI
# both run this script.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
