#!/usr/bin/env bash
# The hang check on any driver: RUNS full captures of `bench_launches LAUNCHES` (identical launches on an
# in-order queue, a read-only-free read/write buffer, no waits until the final clFinish) under the launcher;
# a run still going after LIMIT seconds is called hung (its threads' stacks are printed when eu-stack is
# around) and the script exits 1. Prints one line per run and a summary.
#   tools/stress-capture.sh RUNS LAUNCHES [LIMIT] [ICD]     e.g. tools/stress-capture.sh 200 20000 120
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
runs=${1:-10} launches=${2:-20000} limit=${3:-120} icd=${4:-/etc/OpenCL/vendors/pocl.icd}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hung=0 total=0 short=0
for i in $(seq 1 "$runs"); do
  rm -rf "$work/cap"
  start=$(date +%s.%N)
  timeout --signal=KILL "$limit" "$build/bin/clcapture" --no-preflight --icd "$icd" --dir "$work/cap" -- \
    "$build/samples/bench_launches" "$launches" >"$work/log" 2>&1 &
  pid=$!
  wait $pid
  status=$?
  seconds=$(awk "BEGIN {print $(date +%s.%N) - $start}")
  total=$(awk "BEGIN {print $total + $seconds}")
  if [ $status -eq 137 ]; then
    hung=$((hung + 1))
    echo "run $i: HUNG (killed after ${limit} s)"
    pkill -9 -f "$build/samples/bench_launches" 2>/dev/null
  elif [ $status -ne 0 ]; then
    echo "run $i: exit $status"; tail -5 "$work/log"; exit 1
  else
    got=$(grep -o '"launch": [0-9]*' "$work/cap/captures.meta.json" | wc -l)
    if [ "$got" -ne "$launches" ]; then
      short=$((short + 1))
      echo "run $i: $got launches recorded, expected $launches; the launcher said:"
      grep -i "clcapture" "$work/log" | tail -5
    else
      printf 'run %d: %.1f s, %d launches recorded\n' "$i" "$seconds" "$got"
    fi
  fi
done
printf 'stress: %d runs of %d launches, %d hung, %d with launches missing, mean %.1f s\n' "$runs" "$launches" \
  "$hung" "$short" "$(awk "BEGIN {print $total / $runs}")"
[ "$hung" -eq 0 ] && [ "$short" -eq 0 ]
