#!/usr/bin/env bash
# The capture-overhead workloads on the NVIDIA machine (the lent device; nothing installs there), from
# the kit of tools/nvidia-deadlock-hunt.sh (bin/clcapture, lib/libclcapture.so, samples/bench_launches and
# samples/bench_data), with CUDA's Khronos loader preloaded and NVIDIA's ICD: bare, every launch filtered out,
# metadata only (--data none), full capture; medians of REPS runs; bytes written and record bytes per launch.
#   cp tools/nvidia-capture-bench.sh build/device-kit/bench.sh; then on the device:
#   REPS=5 bash build/device-kit/bench.sh
K=$(cd "$(dirname "$0")" && pwd)
L=$(ls /usr/local/cuda*/targets/x86_64-linux/lib/libOpenCL.so.1 | head -1)
mkdir -p /tmp/nv && echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/nv/nvidia.icd
export LD_PRELOAD=$L SAMPLE_EXPECT_PLATFORM=NVIDIA
reps=${REPS:-5}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
run() {
  for i in $(seq 1 "$reps"); do
    rm -rf /tmp/cap; s=$(date +%s.%N); "$@" > /tmp/run.log 2>&1 || { echo "FAILED: $* ($(tail -1 /tmp/run.log))" >&2; }
    awk "BEGIN {print $(date +%s.%N) - $s}"
  done | median
}
cl() { "$K/bin/clcapture" --no-preflight --icd /tmp/nv/nvidia.icd --dir /tmp/cap "$@"; }
bareRun() { OCL_ICD_FILENAMES=/usr/local/nvidia/lib64/libnvidia-opencl.so.1 "$@"; }
echo "| workload | bare (s) | filtered out (s) | metadata only (s) | full capture (s) | bytes written | record bytes per launch |"
echo "|---|---|---|---|---|---|---|"
for w in "bench_launches ${LAUNCHES:-20000}" "bench_data ${MIB:-64} ${DATA_LAUNCHES:-4}"; do
  set -- $w; exe=$K/samples/$1; shift
  bare=$(run bareRun "$exe" "$@")
  filtered=$(run cl --kernels '^$' -- "$exe" "$@")
  meta=$(run cl --data none -- "$exe" "$@")
  full=$(run cl -- "$exe" "$@")
  bytes=$(du -sb /tmp/cap | cut -f1)
  records=$(cat /tmp/cap/captures.json /tmp/cap/captures.meta.json | wc -c)
  count=$(grep -o '"entry_point"' /tmp/cap/captures.json | wc -l)
  awk -v w="$(basename "$exe") $*" -v b="$bare" -v f="$filtered" -v m="$meta" -v u="$full" -v by="$bytes" \
    -v r="$((records / (count > 0 ? count : 1)))" 'BEGIN {printf "| %s | %.3f | %.3f (%+.1f%%) | %.3f (%.2fx) | %.3f (%.2fx) | %d | %d |\n", w, b, f, (f - b) * 100 / b, m, m / b, u, u / b, by, r}'
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
