#!/usr/bin/env bash
# The device engine on the lent NVIDIA machine (docs/device-debugging.md, "On NVIDIA"): nothing installs there,
# so this makes build/device-debug/kit.tar.xz here, to carry: clcapture-debug and clcapture-replay with every
# library they load beyond glibc (Oclgrind and its LLVM 14 for --diff), captures made here (the reduction by the
# real layer on PoCL, the seeded --diff suite from its headers), and for each an instrumentation made here by
# clcapture-instrument (Clang stays on this machine: --instrumentation DIR), and tools/nvidia-debug-check.sh.
# Then: run(carry=["build/device-debug"], command="bash tools/nvidia-debug-check.sh").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/device-debug
kit=$out/kit
rm -rf "$out"
mkdir -p "$kit/bin" "$kit/lib" "$kit/captures" "$kit/instrumentations"
for b in clcapture-debug clcapture-replay clcapture-instrument; do
  strip -o "$kit/bin/$b" "$root/build/bin/$b"
done
rm "$kit/bin/clcapture-instrument" # it stays here: Clang 16 would not fit the carry
for lib in $(ldd "$root/build/bin/clcapture-debug" "$root/build/bin/clcapture-replay" | awk '/=>/ {print $3}' | sort -u); do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libOpenCL.so*) continue ;;
  esac
  cp -L "$lib" "$kit/lib/"
  strip --strip-unneeded "$kit/lib/$(basename "$lib")" 2>/dev/null || true
done

# The captures and their instrumentations (every work-item of group 0 records, as the debugger's default).
export OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd
"$root/build/bin/clcapture" --icd /etc/OpenCL/vendors/pocl.icd --dir "$kit/captures/reduce" -- \
  "$root/build/samples/reduce" --groups 2 --local 8 > /dev/null
/usr/bin/python3 - "$root" "$kit/captures" <<'PY'
import os, sys
root, captures = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(root, "tests", "kernels"))
import run_kernel
suite = os.path.join(root, "tests", "debugger", "diff")
for name in sorted(os.listdir(suite)):
    with open(os.path.join(suite, name)) as f:
        text = f.read()
    _, options, _ = run_kernel.parse_header(text)
    entry, params, inst, launch = run_kernel.launch_of(text, options)
    run_kernel.build_capture(os.path.join(captures, name[:-3]), name, text, entry, params, inst, launch)
    lines = text.splitlines()
    with open(os.path.join(captures, name[:-3], "debug-options"), "w") as f:
        f.write(lines[3][len("//debug:"):].strip() + "\n" if lines[3].startswith("//debug:") else "\n")
PY
for cap in "$kit"/captures/*/; do
  name=$(basename "$cap")
  file=$(/usr/bin/python3 -c "import json,sys; i=json.load(open(sys.argv[1]))[0]; print(i['kernel_file'], i['entry_point'], i.get('compiler_flags', ''))" "$cap/captures.json")
  read -r kernel entry flags <<< "$file"
  mkdir -p "$kit/instrumentations/$name"
  "$root/build/bin/clcapture-instrument" "$cap/$kernel" --kernel "$entry" --options "$flags" \
    --record-items "get_group_id(0) == 0" --output-source "$kit/instrumentations/$name/instrumented.cl" \
    --output-layout "$kit/instrumentations/$name/layout.json" > /dev/null
done
# The cost benchmark, prepared here (its instrumentations), run there.
mkdir -p "$kit/bench"
/usr/bin/python3 "$root/bench/device_trace_cost.py" --prepare "$kit/bench" --instrument "$root/build/bin/clcapture-instrument"
cp "$root/bench/device_trace_cost.py" "$kit/bench/"
cp "$root/tools/nvidia-debug-check.sh" "$kit/"
tar -C "$out" -cJf "$out/kit.tar.xz" kit
rm -rf "$kit"
ls -la "$out"
