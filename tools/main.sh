#!/usr/bin/env bash
# The main job from a fresh Debian 12 machine: installs what is missing, builds what it runs, then captures
# the reduction sample on PoCL with the clcapture launcher, racy and fixed, prints each capture and verifies
# it with clcapture-verify: the racy one gets a race report with its witness (exit status 6, "defects"),
# the fixed one is verified (exit status 0). Then clcapture-debug replays the racy one's witness in
# Oclgrind's interpreter and stops at both racing accesses, with each work-item's values.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
bash "$root/tools/setup.sh"
# Only what the main job runs: the layer, the launcher, clcapture-verify and the reduction sample (the tests
# and the fuzzers are tools/test.sh's).
CLCAPTURE_BUILD_TARGETS="clcapture clcapture_launcher clcapture_verify clcapture_debug reduce" bash "$root/tools/build.sh"
# capture_and_verify NAME EXPECTED_STATUS SAMPLE ARGS...: capture on PoCL, show the capture, verify it.
capture_and_verify() {
  local name=$1 expected=$2
  shift 2
  local out=$build/main-capture-$name
  rm -rf "$out"
  echo "== capturing: clcapture --dir $out -- $*  (PoCL)"
  OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd "$build/bin/clcapture" --dir "$out" -- "$@"
  echo "== $out/captures.json"
  cat "$out/captures.json"
  echo "== $(ls "$out/kernels")"
  cat "$out"/kernels/*.cl
  echo "== clcapture-verify $out/captures.json"
  local status=0
  "$build/bin/clcapture-verify" "$out/captures.json" || status=$?
  case $status in
    0) echo "== every launch verified" ;;
    6) echo "== clcapture-verify exit status 6: defects found" ;;
    *) echo "== clcapture-verify failed with exit status $status" >&2; exit "$status" ;;
  esac
  if [ "$status" != "$expected" ]; then
    echo "== unexpected: exit status $status, expected $expected" >&2
    exit 1
  fi
}
# The racy reduction (its barrier left out on purpose): the race is reported with its witness.
capture_and_verify racy 6 "$build/samples/reduce" --racy
# The report's `debug:` line, run as a batch session: the launch stops at the witness's read, then its write.
echo "== clcapture-debug $build/main-capture-racy --finding 1 --batch  (commands: run, continue, run)"
printf 'run\ncontinue\nrun\n' | "$build/bin/clcapture-debug" "$build/main-capture-racy" --finding 1 --batch
# The same reduction with its barrier: verified.
capture_and_verify fixed 0 "$build/samples/reduce"
