#!/usr/bin/env bash
# Boost.Compute's monte_carlo example (Debian libboost1.74-doc, built against -lOpenCL) on PoCL: bare, then
# under the launcher with the default settings (what safe defaults promise: it finishes, the capture stays inside
# the default byte budget, every launch is recorded, the closing lines say what was left out).
#   bench/monte_carlo.sh [CAPTURE_DIR]      (default build/bench-monte-carlo; about 4.3 GB, removed after)
# Needs the packages of tools/setup.sh (libboost1.74-doc, libboost1.74-dev).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
src=/usr/share/doc/libboost1.74-doc/examples/libs/compute/example/monte_carlo.cpp
cap=${1:-$build/bench-monte-carlo}
export OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd
[ -f "$src" ] || { echo "monte_carlo.sh: $src missing: run tools/setup.sh" >&2; exit 1; }
exe=$build/bench-apps/monte_carlo
mkdir -p "$(dirname "$exe")"
[ "$exe" -nt "$src" ] || g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 -w -o "$exe" "$src" -lOpenCL
"$exe" >/dev/null # PoCL compiles and caches the kernels once
measure() { /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1; }
read -r bareS bareK < <(measure "$exe")
rm -rf "$cap"
log=$(mktemp)
trap 'rm -rf "$cap" "$log"' EXIT
/usr/bin/time -o "$log.time" -f '%e %M' "$build/bin/clcapture" --dir "$cap" -- "$exe" >/dev/null 2>"$log"
read -r capS capK <"$log.time"
rm -f "$log.time"
launches=$(grep -o '"entry_point"' "$cap/captures.json" | wc -l)
dataBytes=$(find "$cap/data" -type f -printf '%s\n' | awk '{s += $1} END {printf "%d\n", s}')
records=$(cat "$cap/captures.json" "$cap/captures.meta.json" | wc -c)
echo "monte_carlo bare: ${bareS} s, peak RSS $((bareK / 1024)) MiB"
echo "monte_carlo captured (defaults): ${capS} s, peak RSS $((capK / 1024)) MiB, $launches instantiations,"
echo "  buffer bytes $dataBytes (default budget 4294967296), captures.json + sidecar $records bytes"
echo "closing lines:"
grep '^clcapture:' "$log" | sed 's/^/  /'
