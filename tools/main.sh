#!/usr/bin/env bash
# The main job from a fresh Debian 12 machine: installs what is missing, builds everything, then captures
# the racy reduction sample on PoCL with the clcapture launcher, prints the capture, and verifies it with
# clcapture-verify (the race is reported with its witness; the verifier's exit status 6 means "defects").
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
echo "== clcapture-verify $out/captures.json"
status=0
"$build/bin/clcapture-verify" "$out/captures.json" || status=$?
case $status in
  0) echo "== every launch verified" ;;
  6) echo "== clcapture-verify exit status 6: defects found (the sample's barrier is left out on purpose)" ;;
  *) echo "== clcapture-verify failed with exit status $status" >&2; exit "$status" ;;
esac
