#!/usr/bin/env bash
# Configures and builds diskref in build/ (Release, warnings as errors on our code).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDISKREF_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
