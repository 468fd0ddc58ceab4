#!/usr/bin/env bash
# The main job from a fresh Debian 12 machine: installs what is missing, builds everything, then captures
# the racy reduction sample on PoCL with the clcapture launcher and prints the capture. (Verifying it with
# clcapture-verify joins this command when the analyzer lands.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
bash "$root/tools/setup.sh"
bash "$root/tools/build.sh"
out=$build/main-capture
rm -rf "$out"
echo "== capturing: clcapture --dir $out -- samples/reduce --racy  (PoCL)"
OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd "$build/bin/clcapture" --dir "$out" -- "$build/samples/reduce" --racy
echo "== $out/captures.json"
cat "$out/captures.json"
echo "== $(ls "$out/kernels")"
cat "$out"/kernels/*.cl
