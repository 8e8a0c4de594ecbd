#!/usr/bin/env bash
# Installs every Debian 12 package diskref needs to build, test and run
# (docs/development/building.md says what each is for). Safe to run again: apt-get skips what is
# already installed.
set -euo pipefail
packages=(
  build-essential cmake pkg-config git
  libopencv-dev libopencv-contrib-dev libapriltag-dev
  libimgui-dev libglfw3-dev libgl1-mesa-dri
  nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth
  poppler-utils
  libcpp-httplib-dev libmicrohttpd-dev libqrencode-dev libssl-dev liblo-dev libmosquitto-dev mosquitto chromium
  libzbar-dev
  libexif-dev
  clang libclang-rt-dev clang-tidy
  ninja-build lld ccache clang-format
  dpkg-dev file lintian mandoc curl jq
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
