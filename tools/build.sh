#!/usr/bin/env bash
# Configures (once) and builds clcapture into build/ with Ninja and ccache. Warnings are errors when CI=true.
# Extra arguments go to the CMake configure step, e.g. tools/build.sh -DCLCAPTURE_FUZZ=OFF
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
# Under CI warnings are errors; otherwise the cached choice stands (switching would rebuild everything).
flags=()
[ "${CI:-}" = "true" ] && flags+=(-DCLCAPTURE_WERROR=ON)
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
cmake -S "$root" -B "$build" -G Ninja "${flags[@]}" "$@" >/dev/null
# CLCAPTURE_BUILD_TARGETS="a b": only those targets (and what they need), as tools/main.sh asks; else all.
targets=()
for t in ${CLCAPTURE_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" "${targets[@]}"
