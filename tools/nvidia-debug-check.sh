#!/usr/bin/env bash
# On the lent NVIDIA machine (docs/device-debugging.md, "On NVIDIA"): the kit tools/device-debug-kit.sh made
# (carried as build/device-debug) unpacked to /tmp; the reduction recorded through NVIDIA's OpenCL driver and
# stepped (breakpoint, print, print-all, set var recorded again, reverse-step), its recording saved into $OUT;
# --diff on the seeded suite (tests/debugger/diff) against Oclgrind's interpreter; the cost benchmark's runs
# (bench/device_trace_cost.py --run). The log and the recordings come back as $OUT/nvidia-debug.tar.gz.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
work=/tmp/clcapture-debug-kit
rm -rf "$work" && mkdir -p "$work"
tar -C "$work" -xJf "$root/build/device-debug/kit.tar.xz"
K=$work/kit
export LD_LIBRARY_PATH=$K/lib
nvidia=${NVIDIA_OPENCL:-/usr/local/nvidia/lib64/libnvidia-opencl.so.1}
D=$K/bin/clcapture-debug
final=${OUT:-/tmp}
out=$work/out # the recordings, packed into one file at the end ($OUT takes few files back)
mkdir -p "$out"
{
  echo "== the machine"; nvidia-smi -L 2>&1 | head -2; date -u
  echo "== the reduction on NVIDIA: record, step, set var, save the recording"
  "$D" "$K/captures/reduce" --engine=device --icd "$nvidia" --instrumentation "$K/instrumentations/reduce" \
    --save-trace "$out/reduce-nvidia.trace" --batch <<'CMDS'
info recording
step
step
print l
break 7 if l == 1 && s == 2
continue
print s
print scratch[l]
info locals
print-all l
set var scratch[l] = 1000
print scratch[l]
break 7 if l == 0 && s == 1
continue
print scratch[l]
reverse-step
backtrace
CMDS
  echo "exit $?"
  echo "== the seeded suite: --diff against Oclgrind's interpreter"
  for cap in "$K"/captures/*/; do
    name=$(basename "$cap")
    [ "$name" = reduce ] && continue
    echo "-- $name $(cat "$cap/debug-options")"
    # shellcheck disable=SC2046
    "$D" "$cap" --diff --icd "$nvidia" --instrumentation "$K/instrumentations/$name" $(cat "$cap/debug-options") \
      --save-trace "$out/$name.trace" 2>&1 | grep -v "^    "
    echo "exit ${PIPESTATUS[0]}"
  done
  echo "== the race on NVIDIA, recorded 5 times"
  "$D" "$K/captures/neighbour_race" --diff --repeat 5 --icd "$nvidia" \
    --instrumentation "$K/instrumentations/neighbour_race" 2>&1 | grep -E "^(device run|interpreter)"
  if [ -d "$K/bench" ]; then
    echo "== the cost benchmark"
    python3 "$K/bench/device_trace_cost.py" --run "$K/bench" --replay "$K/bin/clcapture-replay" --icd "$nvidia"
  fi
} > "$out/nvidia-debug.log" 2>&1
tar -C "$out" -czf "$final/nvidia-debug.tar.gz" .
tail -c 4000 "$out/nvidia-debug.log"
