#!/usr/bin/env bash
# Capture overhead on PoCL: the same workload bare, under clcapture with every launch filtered out
# (--kernels matches nothing), and with full capture. Medians of REPS runs; bytes written and MB/s for
# full capture; the disk's own sequential write speed for comparison.
#   [CLCAPTURE_BENCH_DIR=/tmp] bench/capture_overhead.sh [REPS] [LAUNCHES] [MIB] [DATA_LAUNCHES] [LONG_LAUNCHES]
# The capture folder goes under CLCAPTURE_BENCH_DIR (default build/): its file system matters.
# Columns: bare; every launch filtered out (--kernels '^$'); metadata only (--data none); full capture, with
# the bytes written, the capture's record bytes per launch (captures.json + captures.meta.json) and the
# peak resident memory of the captured run. Then LONG_LAUNCHES (default 200000) launches bare and filtered
# out (the 2 % goal needs a run of 2 s or more), and full capture of LONG_LAUNCHES: its peak memory against
# the LAUNCHES run's (growth with the number of launches).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
reps=${1:-5} launches=${2:-20000} mib=${3:-64} dataLaunches=${4:-4} long=${5:-200000}
export OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd
work=$(mktemp -d "${CLCAPTURE_BENCH_DIR:-$root/build}/bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck source=bench/timing.sh
source "$root/bench/timing.sh" # median, now, run

# --no-preflight: the launcher's own driver check (~0.2 s on PoCL) is not the layer's overhead.
cl() { "$build/bin/clcapture" --no-preflight "$@"; }
rss() { # peak resident KiB of the command (the launcher waits for the application: its children count)
  /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
}
printf '| workload | bare (s) | capture filtered out (s) | metadata only (s) | full capture (s) | bytes written | record bytes per launch | peak RSS full (MiB) |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for workload in "bench_launches $launches" "bench_data $mib $dataLaunches"; do
  set -- $workload
  exe=$build/samples/$1
  shift
  bare=$(run "$exe" "$@")
  filtered=$(run cl --dir "$work/cap" --kernels '^$' -- "$exe" "$@")
  meta=$(run cl --dir "$work/cap" --data none -- "$exe" "$@")
  full=$(run cl --dir "$work/cap" -- "$exe" "$@")
  rm -rf "$work/cap"
  peak=$(rss "$build/bin/clcapture" --no-preflight --dir "$work/cap" -- "$exe" "$@")
  bytes=$(du -sb "$work/cap" | cut -f1)
  records=$(cat "$work/cap/captures.json" "$work/cap/captures.meta.json" | wc -c)
  count=$(grep -o '"entry_point"' "$work/cap/captures.json" | wc -l)
  printf '| %s | %.3f | %.3f (%+.1f%%) | %.3f (%.2fx) | %.3f (%.2fx) | %d | %d | %.0f |\n' "$(basename "$exe") $*" "$bare" \
    "$filtered" "$(echo "($filtered - $bare) * 100 / $bare" | bc -l)" "$meta" "$(echo "$meta / $bare" | bc -l)" \
    "$full" "$(echo "$full / $bare" | bc -l)" "$bytes" "$((records / count))" "$(echo "$peak / 1024" | bc -l)"
done
exe=$build/samples/bench_launches
bare=$(run "$exe" "$long")
filtered=$(run cl --dir "$work/cap" --kernels '^$' -- "$exe" "$long")
echo
printf 'bench_launches %d: bare %.3f s, filtered out %.3f s (%+.1f%%)\n' "$long" "$bare" "$filtered" \
  "$(echo "($filtered - $bare) * 100 / $bare" | bc -l)"
rm -rf "$work/cap"
t0=$(now)
peakLong=$(rss "$build/bin/clcapture" --no-preflight --dir "$work/cap" -- "$exe" "$long")
t1=$(now)
rm -rf "$work/cap"
peakShort=$(rss "$build/bin/clcapture" --no-preflight --dir "$work/cap" -- "$exe" "$launches")
printf 'full capture of %d launches: %.1f s, peak RSS %.0f MiB; of %d launches: %.0f MiB (growth %.0f MiB)\n' \
  "$long" "$(echo "$t1 - $t0" | bc -l)" "$(echo "$peakLong / 1024" | bc -l)" "$launches" \
  "$(echo "$peakShort / 1024" | bc -l)" "$(echo "($peakLong - $peakShort) / 1024" | bc -l)"
rm -rf "$work/cap"
# Measured last, so its 512 MiB of writeback cannot slow the runs above.
disk=$(dd if=/dev/zero of="$work/dd.bin" bs=1M count=512 conv=fdatasync 2>&1 | awk '/copied/ {print $(NF-1), $NF}')
rm -f "$work/dd.bin"
echo
echo "disk sequential write (dd, 512 MiB, fdatasync): $disk; $reps runs each, medians; PoCL $(dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null)"
