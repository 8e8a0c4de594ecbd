#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy's checks) on the C++ files a change touches, with the compile
# commands of a non-unity build (each source as it compiles alone).
#
#   scripts/tidy-changed.sh BUILD_DIR [BASE]
#
# BASE (a commit; default: DISKREF_TIDY_BASE, else HEAD~1: the last commit, what CI is run for)
# .. HEAD are the changes: every .cpp among them, and the .cpp
# beside every .h among them. Files that no longer exist, and files outside diskref's rooms, are
# skipped. Exit 1 when clang-tidy finds something (warnings are errors), 0 otherwise; says which
# files it looked at.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/tidy-changed.sh BUILD_DIR [BASE]}
base=${2:-${DISKREF_TIDY_BASE:-HEAD~1}}
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy-changed: $build/compile_commands.json is missing: configure $build first" >&2
  exit 2
fi
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "tidy-changed: $base is not in this clone (a shallow clone?): nothing to compare with, nothing checked"
  exit 0
fi
rooms='^(engine|calibration|vision|photo|print|simulator|referee|net|recording|pipeline|report|setup|ui|cli)/'
mapfile -t files < <(
  git diff --name-only --diff-filter=d "$base" HEAD -- '*.cpp' '*.h' | grep -E "$rooms" |
    while read -r f; do
      case "$f" in
        *.h) [ -f "${f%.h}.cpp" ] && echo "${f%.h}.cpp" ;;
        *) echo "$f" ;;
      esac
    done | sort -u |
    while read -r f; do grep -q "\"file\": \"[^\"]*/$f\"" "$build/compile_commands.json" && echo "$f"; done
)
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy-changed: no C++ source changed since $base"
  exit 0
fi
echo "tidy-changed: ${#files[@]} file(s) changed since $(git rev-parse --short "$base")"
# -Wno-unknown-warning-option: a GCC build's compile commands carry warnings clang does not know.
# The "N warnings generated" lines count what the checks not enabled would say: left out.
printf '%s\n' "${files[@]}" |
  xargs -P "${DISKREF_JOBS:-$(nproc)}" -n 4 bash -c 'set -o pipefail
    clang-tidy -p "$0" --quiet --extra-arg=-Wno-unknown-warning-option "$@" 2>&1 | { grep -v "warnings\? generated\.$" || true; }' "$build"
echo "tidy-changed: clean"
