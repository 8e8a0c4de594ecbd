#!/usr/bin/env bash
# Configures and builds diskref in build/ (Release). Warnings are errors only when asked
# (DISKREF_WERROR=ON, as CI does): a newer compiler than ours may warn about code that is fine.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDISKREF_WERROR="${DISKREF_WERROR:-OFF}" >/dev/null
cmake --build build -j"$(nproc)"
