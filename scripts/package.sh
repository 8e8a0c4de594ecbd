#!/usr/bin/env bash
# Builds the Debian package of diskref: build/package/diskref_<version>_<arch>.deb
# (docs/guide/install.md). Uses the same build tree and flags as scripts/build.sh, so after the
# tests have built it nothing is compiled again; it builds only the program and what it installs
# (not the tests). The man pages and bash completion are written by the program itself, and CPack's
# DEB generator (with dpkg-shlibdeps) makes the package.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDISKREF_WERROR="${DISKREF_WERROR:-OFF}" >/dev/null
cmake --build build -j"$(nproc)" --target diskref diskref_installed_docs
rm -rf build/package
(cd build && cpack -G DEB >/dev/null)
deb=$(ls build/package/diskref_*.deb)
echo "package: $deb"
dpkg-deb --field "$deb" Package Version Architecture Depends Installed-Size
