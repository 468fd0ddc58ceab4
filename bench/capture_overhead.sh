#!/usr/bin/env bash
# Capture overhead on PoCL: the same workload bare, under clcapture with every launch filtered out
# (--kernels matches nothing), and with full capture. Medians of REPS runs; bytes written and MB/s for
# full capture; the disk's own sequential write speed for comparison.
#   [CLCAPTURE_BENCH_DIR=/tmp] bench/capture_overhead.sh [REPS] [LAUNCHES] [MIB] [DATA_LAUNCHES]
# The capture folder goes under CLCAPTURE_BENCH_DIR (default build/): its file system matters.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
reps=${1:-5} launches=${2:-20000} mib=${3:-64} dataLaunches=${4:-4}
export OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd
work=$(mktemp -d "${CLCAPTURE_BENCH_DIR:-$root/build}/bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }
run() { # name, then the command; prints the median seconds
  local times=() i t0 t1
  for ((i = 0; i < reps; i++)); do
    rm -rf "$work/cap"
    t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | median
}

# --no-preflight: the launcher's own driver check (~0.2 s on PoCL) is not the layer's overhead.
cl() { "$build/bin/clcapture" --no-preflight "$@"; }
printf '| workload | bare (s) | capture filtered out (s) | full capture (s) | bytes written | MB/s written |\n'
printf '|---|---|---|---|---|---|\n'
for workload in "bench_launches $launches" "bench_data $mib $dataLaunches"; do
  set -- $workload
  exe=$build/samples/$1
  shift
  bare=$(run "$exe" "$@")
  filtered=$(run cl --dir "$work/cap" --kernels '^$' -- "$exe" "$@")
  full=$(run cl --dir "$work/cap" -- "$exe" "$@")
  cl --dir "$work/cap" -- "$exe" "$@" >/dev/null 2>&1
  bytes=$(du -sb "$work/cap" | cut -f1)
  rate=$(echo "$bytes / 1000000 / $full" | bc -l)
  printf '| %s | %.3f | %.3f (%+.1f%%) | %.3f (%.2fx) | %d | %.0f |\n' "$(basename "$exe") $*" "$bare" "$filtered" \
    "$(echo "($filtered - $bare) * 100 / $bare" | bc -l)" "$full" "$(echo "$full / $bare" | bc -l)" "$bytes" "$rate"
done
# Measured last, so its 512 MiB of writeback cannot slow the runs above.
disk=$(dd if=/dev/zero of="$work/dd.bin" bs=1M count=512 conv=fdatasync 2>&1 | awk '/copied/ {print $(NF-1), $NF}')
rm -f "$work/dd.bin"
echo
echo "disk sequential write (dd, 512 MiB, fdatasync): $disk; $reps runs each, medians; PoCL $(dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null)"
