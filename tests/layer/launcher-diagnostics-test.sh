#!/usr/bin/env bash
# The launcher's own diagnostics: `clcapture doctor`, the pre-flight that stops before running the command
# when the capture library or every driver fails to load, and the summary of what a capture lacks.
#   launcher-diagnostics-test.sh LAUNCHER CASE [SAMPLE]
# Each case asserts a positive signal (the line that says what happened), not just an exit status.
# Exit 77: skipped (a tool the case needs is missing).
set -uo pipefail
launcher=$1 case=$2 sample=${3:-}
threads=$(dirname "$sample")/threads   # built beside the reduce sample
pocl=/etc/OpenCL/vendors/pocl.icd
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "launcher-diagnostics-test ($case): $*" >&2; exit 1; }
expect() { # expect WANTED_STATUS PATTERN...: the last run's status and output
  [ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
  shift
  for pattern in "$@"; do
    grep -Eq -- "$pattern" <<<"$out" || fail "no line matches: $pattern"
  done
}
run() { out=$("$@" 2>&1); status=$?; echo "$out"; }

# A copy of libclcapture.so that needs a library no machine has: the dynamic linker refuses it the way it
# refused libdw.so.1 on a stock GPU machine.
unloadable_library() {
  command -v patchelf >/dev/null || { echo "patchelf is not installed (tools/setup.sh installs it)"; exit 77; }
  local real
  real=$(dirname "$launcher")/../lib/libclcapture.so
  cp "$real" "$work/libclcapture.so" && patchelf --add-needed libdoesnotexist.so.1 "$work/libclcapture.so" ||
    fail "cannot make the unloadable copy"
  echo "$work/libclcapture.so"
}

case $case in
doctor-pocl)
  run "$launcher" doctor --icd "$pocl"
  expect 0 "^ICD loader: libOpenCL.so.1 resolves to /" \
    "^  libpocl.*: loads, 1 platform" \
    "^  platform 0: Portable Computing Language .*, behind clcapture$" \
    "^    device 0: .*\(CPU" \
    "^libclcapture.so in that process: mapped" \
    "forwarding to .*pocl"
  [ "$(tail -n 1 <<<"$out")" = "capture would work" ] || fail "the last line is not the verdict 'capture would work'"
  ;;
doctor-layer-pocl)
  run "$launcher" doctor --layer --icd "$pocl"
  expect 0 "^  platform 0: Portable Computing Language .*, behind clcapture$" "^    device 0: " \
    "OPENCL_LAYERS layer in front of the loader"
  [ "$(tail -n 1 <<<"$out")" = "capture would work" ] || fail "the last line is not the verdict 'capture would work'"
  ;;
doctor-missing-icd)
  run "$launcher" doctor --icd "$work/missing.icd"
  expect 1 "^capture would NOT work: --icd $work/missing.icd: no such file or folder; name a driver with --icd"
  ;;
doctor-unloadable-library)
  library=$(unloadable_library)
  rc=$?
  [ "$rc" -eq 0 ] || { echo "$library"; exit "$rc"; }
  run env CLCAPTURE_LIBRARY="$library" "$launcher" doctor --icd "$pocl"
  expect 1 "^capture library: .*: does NOT load: libdoesnotexist.so.1: cannot open shared object file" \
    "^libclcapture.so in that process: NOT mapped" \
    "^capture would NOT work: the capture library does not load .*libclcapture.so needs libdoesnotexist.so.1, which this machine lacks"
  ;;
preflight-unloadable-library)
  library=$(unloadable_library)
  rc=$?
  [ "$rc" -eq 0 ] || { echo "$library"; exit "$rc"; }
  run env CLCAPTURE_LIBRARY="$library" "$launcher" --icd "$pocl" -- touch "$work/ran"
  expect 1 "^clcapture: cannot load the capture library $library: libdoesnotexist.so.1: cannot open shared object file" \
    "^clcapture: libclcapture.so needs libdoesnotexist.so.1, which this machine lacks: install" "nothing was run"
  [ ! -e "$work/ran" ] || fail "the command ran although the capture library cannot load"
  ;;
preflight-not-elf)
  echo "not a library" >"$work/libclcapture.so"
  run env CLCAPTURE_LIBRARY="$work/libclcapture.so" "$launcher" --icd "$pocl" -- touch "$work/ran"
  expect 1 "^clcapture: cannot load the capture library .*: file too short" "is not a shared library" "nothing was run"
  [ ! -e "$work/ran" ] || fail "the command ran although the capture library cannot load"
  ;;
preflight-one-driver-missing)
  # One driver that does not exist beside PoCL: said, and the command still runs and is captured. As a shim
  # the library says it itself (once); as a layer the loader would not, so the pre-flight does.
  mkdir "$work/vendors" && cp "$pocl" "$work/vendors/" && echo /nonexistent/libnothere.so >"$work/vendors/zz-gone.icd"
  run "$launcher" --icd "$work/vendors" --dir "$work/capture" -- "$sample"
  expect 0 "^clcapture: warning: cannot load driver /nonexistent/libnothere.so: .*No such file" \
    "^clcapture: 1 instantiation captured in $work/capture$"
  [ "$(grep -c "libnothere" <<<"$out")" -eq 1 ] || fail "the missing driver is not reported exactly once"
  run "$launcher" --layer --icd "$work/vendors" --dir "$work/capture-layer" -- "$sample"
  expect 0 "^clcapture: warning: driver /nonexistent/libnothere.so does not load: .*No such file" \
    "^clcapture: 1 instantiation captured in $work/capture-layer$"
  ;;
preflight-no-driver)
  mkdir "$work/vendors" && echo /nonexistent/libnothere.so >"$work/vendors/gone.icd"
  run "$launcher" --icd "$work/vendors" -- touch "$work/ran"
  expect 1 "^clcapture: no driver named by --icd .* can be used; /nonexistent/libnothere.so: .*No such file" \
    "nothing was run"
  [ ! -e "$work/ran" ] || fail "the command ran although no driver loads"
  ;;
summary-data-cap)
  run "$launcher" --icd "$pocl" --data 16 --dir "$work/capture" -- "$sample"
  expect 0 "^clcapture: [0-9]+ buffers? of 1 launch left without bytes: larger than the per-buffer cap \(CLCAPTURE_DATA=16\); raise --data" \
    "^clcapture: 1 instantiation captured in $work/capture$"
  [ "$(tail -n 1 <<<"$out")" = "clcapture: 1 instantiation captured in $work/capture" ] ||
    fail "the closing line is not last"
  ;;
summary-free-space)
  # A free-space floor larger than the disk: every buffer is metadata only, the launch still recorded.
  run "$launcher" --icd "$pocl" --min-free 9000000000000000000 --dir "$work/capture" -- "$sample"
  expect 0 "^clcapture: [0-9]+ buffers? of 1 launch left without bytes: free-space floor: the capture folder's file system keeps 9000000000000000000 bytes free \(CLCAPTURE_MIN_FREE\); free space on that file system" \
    "^clcapture: 1 instantiation captured in $work/capture$"
  ;;
summary-nothing)
  # The layer's own status (RunStatus.h) says why: every launch filtered out.
  run "$launcher" --icd "$pocl" --kernels '^nomatch$' --dir "$work/capture" -- "$sample"
  expect 0 "^clcapture: 1 launch left out by --kernels '\\^nomatch\\\$' \(CLCAPTURE_KERNELS\)$" \
    "^clcapture: no kernel launch was captured: the filters left out all 1 launch$"
  ;;
summary-no-opencl)
  # A command that never loads the library: said so, with where to look.
  run "$launcher" --icd "$pocl" -- true
  expect 0 "^clcapture: no kernel launch was captured: the application never loaded the capture library"
  ;;
summary-no-platform)
  # The library loaded, but the real driver gave it no platform (the pre-flight is skipped to get there).
  mkdir "$work/empty"
  run "$launcher" --no-preflight --icd "$work/empty" -- "$sample"
  expect 2 "^clcapture: no kernel launch was captured: the capture library was loaded but the real driver gave it no platform"
  ;;
summary-launch-range)
  run "$launcher" --icd "$pocl" --launches 2-3 --dir "$work/capture" -- "$threads" --threads 1 --launches 6
  expect 0 "^clcapture: 4 launches outside --launches 2-3 \(CLCAPTURE_LAUNCHES\)$" \
    "^clcapture: 2 instantiations captured in $work/capture$"
  ;;
command-named-doctor)
  # After --, "doctor" is the command to run, not the subcommand.
  mkdir "$work/bin" && printf '#!/bin/sh\necho "the doctor command ran: $*"\n' >"$work/bin/doctor" && chmod +x "$work/bin/doctor"
  run env PATH="$work/bin:$PATH" "$launcher" --icd "$pocl" -- doctor --layer
  expect 0 "^the doctor command ran: --layer$" "^clcapture: no kernel launch was captured"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "launcher-diagnostics-test ($case): PASS"
