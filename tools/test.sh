#!/usr/bin/env bash
# The whole test suite from a fresh Debian 12 machine: installs what is missing, builds, runs ctest.
#   bash tools/test.sh [CTEST ARGS...]     e.g. bash tools/test.sh -L unit
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/tools/setup.sh"
bash "$root/tools/build.sh"
cd "${CLCAPTURE_BUILD_DIR:-$root/build}"
exec ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
