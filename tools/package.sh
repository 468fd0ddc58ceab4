#!/usr/bin/env bash
# Builds the release packages into build/packages/ (CPack, cmake/ClcapturePackaging.cmake):
#   clcapture-<version>-linux-x86_64.tar.gz  launcher + libclcapture.so, nothing beyond glibc: unpack anywhere
#   clcapture_<version>_amd64.deb            everything, clcapture-verify included, with its Debian dependencies
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
cd "$build"
cpack -B "$build/packages" >/dev/null
rm -rf "$build/packages/_CPack_Packages"
ls -l "$build/packages"/*.tar.gz "$build/packages"/*.deb
