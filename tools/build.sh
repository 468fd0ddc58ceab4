#!/usr/bin/env bash
# Configures (once) and builds clcapture into build/ with Ninja and ccache. Warnings are errors when CI=true.
# Extra arguments go to the CMake configure step, e.g. tools/build.sh -DCLCAPTURE_FUZZ=OFF
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
cmake -S "$root" -B "$build" -G Ninja -DCLCAPTURE_WERROR=$werror "$@" >/dev/null
cmake --build "$build"
