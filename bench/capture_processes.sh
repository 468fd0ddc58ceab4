#!/usr/bin/env bash
# Capture cost for many processes against one (issue 32): launch-heavy work (samples/bench_launches) in one
# process, and in 8 processes at once, each bare and under one clcapture launcher (one capture, a part per
# process). Medians of REPS runs; the cost ratio captured/bare for each, and what the capture holds.
#   bench/capture_processes.sh [REPS] [LAUNCHES]
# The capture folder goes under CLCAPTURE_BENCH_DIR (default build/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
reps=${1:-5} launches=${2:-5000}
export OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd
work=$(mktemp -d "${CLCAPTURE_BENCH_DIR:-$root/build}/bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
app="$build/samples/bench_launches"

# shellcheck source=bench/timing.sh
source "$root/bench/timing.sh" # median, now, run
eight="for i in 1 2 3 4 5 6 7 8; do \"$app\" $launches & done; wait"
cl() { "$build/bin/clcapture" --no-preflight --dir "$work/cap" -- "$@"; }

one_bare=$(run "$app" "$launches")
one_cap=$(run cl "$app" "$launches")
eight_bare=$(run sh -c "$eight")
eight_cap=$(run cl sh -c "$eight")
rm -rf "$work/cap"
cl sh -c "$eight" >/dev/null 2>"$work/closing"
parts=$(ls "$work/cap" | grep -cE '^captures(-[0-9-]+)?\.json$' || true)
printf '| workload | bare (s) | captured (s) | captured / bare |\n|---|---|---|---|\n'
printf '| 1 process, %s launches | %.2f | %.2f | %.2f |\n' "$launches" "$one_bare" "$one_cap" "$(echo "$one_cap / $one_bare" | bc -l)"
printf '| 8 processes at once, %s launches each | %.2f | %.2f | %.2f |\n' "$launches" "$eight_bare" "$eight_cap" \
  "$(echo "$eight_cap / $eight_bare" | bc -l)"
echo
echo "capture of the 8 processes: $(tail -1 "$work/closing")"
echo "data/ $(du -sh "$work/cap/data" | cut -f1), kernels/ $(ls "$work/cap/kernels" | wc -l) file(s), $parts captures files"
