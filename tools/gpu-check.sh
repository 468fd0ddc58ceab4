#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (the lent device machine; docs/drivers-and-loaders.md "NVIDIA's driver"): every sample
# run bare and captured through NVIDIA's OpenCL driver, with the Khronos loader that ships with CUDA and with
# the system's ocl-icd, through both front ends (shim ICD and OPENCL_LAYERS layer); each capture is checked
# with tests/layer/check_capture.py (--no-schema: that machine has no python3-jsonschema).
# Needs build/lib and build/samples from this checkout (x86-64). Prints one line per case and a summary;
# exits 1 if any case failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${CLCAPTURE_LIB:-$root/build/lib/libclcapture.so}   # e.g. an unpacked release tarball's lib/
nvidia=${NVIDIA_OPENCL:-/usr/local/nvidia/lib64/libnvidia-opencl.so.1}
khronos=${KHRONOS_LOADER:-$(ls /usr/local/cuda*/targets/x86_64-linux/lib/libOpenCL.so.1 2>/dev/null | head -1)}
system=${SYSTEM_LOADER:-/usr/lib/x86_64-linux-gnu/libOpenCL.so.1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/nvidia" "$work/shim"
echo "$nvidia" > "$work/nvidia/nvidia.icd"
echo "$lib" > "$work/shim/clcapture.icd"
samples=(reduce "reduce --racy" struct_arg user_event "threads --threads 4 --launches 8" program_forms memory_forms)
pass=0 fail=0
run_case() { # LOADER_NAME LOADER_LIB FRONT_END SAMPLE...
  local name=$1 loader=$2 fe=$3
  shift 3
  local sample=$1 check=$1
  [ "$*" = "reduce --racy" ] && check=reduce-racy
  local dir="$work/cap-$name-$fe-$check"
  local envs=(LD_PRELOAD="$loader" SAMPLE_EXPECT_PLATFORM="${EXPECT_PLATFORM:-NVIDIA}" CLCAPTURE_DIR="$dir" CLCAPTURE_LOG=info)
  case $fe in
    bare) envs+=(OCL_ICD_VENDORS="$work/nvidia") ;;
    icd) envs+=(OCL_ICD_VENDORS="$work/shim" OCL_ICD_FILENAMES="$lib" CLCAPTURE_ICD="$work/nvidia/nvidia.icd") ;;
    layer) envs+=(OPENCL_LAYERS="$lib" OCL_ICD_VENDORS="$work/nvidia") ;;
  esac
  local out status
  out=$(env "${envs[@]}" "$root/build/samples/$sample" "${@:2}" 2>&1)
  status=$?
  local verdict="ok"
  # The racy reduction may print a wrong sum (that is its point); it must still run to the end.
  if [ $status -ne 0 ] || { [ "$check" != reduce-racy ] && ! grep -q PASS <<<"$out"; }; then
    verdict="FAILED (exit $status): $(tail -2 <<<"$out" | tr '\n' ' ')"
  elif [ "$fe" != bare ]; then
    local checked
    checked=$(/usr/bin/python3 "$root/tests/layer/check_capture.py" "$check" "$dir" --no-schema 2>&1) ||
      verdict="capture check FAILED: $(tr '\n' ' ' <<<"$checked")"
    [ "$verdict" = ok ] && verdict="ok: $(grep -c '"entry_point"' "$dir/captures.json") instantiations"
  fi
  [[ $verdict == ok* ]] && pass=$((pass + 1)) || fail=$((fail + 1))
  printf '%-8s %-6s %-34s %s\n' "$name" "$fe" "$*" "$verdict"
}
for pair in "khronos:$khronos" "ocl-icd:$system"; do
  name=${pair%%:*} loader=${pair#*:}
  if [ ! -f "$loader" ]; then
    echo "$name: no loader at '$loader'; skipped"
    continue
  fi
  fronts=(bare icd layer)
  # CUDA's bundled Khronos loader (2020-era, 30 KB) was built without OPENCL_LAYERS support.
  if ! grep -q OPENCL_LAYERS "$loader"; then
    echo "$name: this loader has no OPENCL_LAYERS support; the layer front end is not tried"
    fronts=(bare icd)
  fi
  for fe in "${fronts[@]}"; do
    for s in "${samples[@]}"; do
      # shellcheck disable=SC2086
      run_case "$name" "$loader" "$fe" $s
    done
  done
done
# The launch-heavy pattern (20,000 identical launches, no waits) under full capture, through NVIDIA's
# driver with CUDA's Khronos loader: no run may hang or lose launches (tools/stress-capture.sh).
if [ -f "$khronos" ]; then
  if LD_PRELOAD="$khronos" SAMPLE_EXPECT_PLATFORM="${EXPECT_PLATFORM:-NVIDIA}" \
    bash "$root/tools/stress-capture.sh" "${STRESS_RUNS:-5}" 20000 60 "$work/nvidia/nvidia.icd" >"$work/stress.log" 2>&1; then
    pass=$((pass + 1))
    printf '%-8s %-6s %-34s %s\n' khronos icd "stress ${STRESS_RUNS:-5} x bench_launches 20000" "ok: $(tail -1 "$work/stress.log")"
  else
    fail=$((fail + 1))
    printf '%-8s %-6s %-34s %s\n' khronos icd "stress ${STRESS_RUNS:-5} x bench_launches 20000" "FAILED: $(tail -3 "$work/stress.log" | tr '\n' ' ')"
  fi
fi
echo "gpu-check: $pass passed, $fail failed"
[ $fail -eq 0 ]
