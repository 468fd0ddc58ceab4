#!/usr/bin/env bash
# The release tarball alone on a GPU machine (acceptance; the lent NVIDIA machine, stock Ubuntu
# 24.04, nothing installed): with CUDA's bundled Khronos loader and with the system's ocl-icd,
#  - `clcapture doctor` lists NVIDIA's platform and says capture would work;
#  - every sample is captured through the tarball's launcher and its capture checked;
#  - a missing or broken capture library makes the launcher stop with the reason, the app never run;
#  - then tools/gpu-check.sh with the tarball's library (shim ICD and OPENCL_LAYERS front ends).
#   bash tools/release-gpu-check.sh TARBALL     (needs build/samples from this checkout)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tarball=${1:?usage: release-gpu-check.sh TARBALL}
nvidia=${NVIDIA_OPENCL:-/usr/local/nvidia/lib64/libnvidia-opencl.so.1}
khronos=${KHRONOS_LOADER:-$(ls /usr/local/cuda*/targets/x86_64-linux/lib/libOpenCL.so.1 2>/dev/null | head -1)}
system=${SYSTEM_LOADER:-/usr/lib/x86_64-linux-gnu/libOpenCL.so.1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar xzf "$tarball" -C "$work"
prefix=$(ls -d "$work"/clcapture-*)
mkdir -p "$work/nvidia" && echo "$nvidia" > "$work/nvidia/nvidia.icd"
icd=$work/nvidia/nvidia.icd
pass=0 fail=0
verdict() { # OK? TEXT
  if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  printf '%s %s\n' "$([ "$1" = 0 ] && echo ok || echo FAILED)" "$2"
}
for pair in "khronos:$khronos" "ocl-icd:$system"; do
  name=${pair%%:*} loader=${pair#*:}
  [ -f "$loader" ] || { echo "$name: no loader at '$loader'; skipped"; continue; }
  out=$(LD_PRELOAD=$loader timeout 60 "$prefix/bin/clcapture" doctor --icd "$icd" 2>&1)
  grep -q "NVIDIA" <<<"$out" && [ "$(tail -1 <<<"$out")" = "capture would work" ]
  verdict $? "$name doctor: $(grep -m1 'ICD loader' <<<"$out") | $(grep -m1 'platform 0' <<<"$out" | cut -c1-60) | $(tail -1 <<<"$out")"
  for s in reduce "reduce --racy" struct_arg user_event "threads --threads 4 --launches 8" program_forms memory_forms; do
    check=${s%% *}
    [ "$s" = "reduce --racy" ] && check=reduce-racy
    dir=$work/cap-$name-$check
    # shellcheck disable=SC2086
    out=$(LD_PRELOAD=$loader SAMPLE_EXPECT_PLATFORM=NVIDIA timeout 60 "$prefix/bin/clcapture" --icd "$icd" --dir "$dir" -- \
          "$root/build/samples/${s%% *}" ${s#"${s%% *}"} 2>&1)
    status=$?
    checked=$(/usr/bin/python3 "$root/tests/layer/check_capture.py" "$check" "$dir" --no-schema 2>&1)
    ok=$?
    [ $status -eq 0 ] || ok=1
    verdict $ok "$name launcher $s: exit $status, $(grep 'instantiation' <<<"$out" | tail -1)$([ $ok = 0 ] || echo " / $checked" | tr '\n' ' ')"
  done
  # A capture library that does not load: the launcher says why and never starts the application.
  head -c 4096 "$prefix/lib/libclcapture.so" > "$work/broken.so"
  for lib in /nonexistent/libclcapture.so "$work/broken.so"; do
    out=$(LD_PRELOAD=$loader CLCAPTURE_LIBRARY=$lib timeout 60 "$prefix/bin/clcapture" --icd "$icd" --dir "$work/none" -- \
          "$root/build/samples/reduce" 2>&1)
    status=$?
    [ $status -ne 0 ] && ! grep -q "platform:" <<<"$out" && [ ! -e "$work/none" ]
    verdict $? "$name launcher with library $lib: exit $status, app not run: $(head -2 <<<"$out" | tr '\n' ' ' | cut -c1-220)"
  done
done
echo "release-gpu-check: launcher and doctor: $pass passed, $fail failed"
CLCAPTURE_LIB=$prefix/lib/libclcapture.so bash "$root/tools/gpu-check.sh"
gpu=$?
[ $fail -eq 0 ] && [ $gpu -eq 0 ]
