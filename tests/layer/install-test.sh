#!/usr/bin/env bash
# `cmake --install` gives a relocatable tree: the capture component installed into a prefix, the prefix
# moved elsewhere, and the moved launcher still finds its library, reports PoCL in `doctor` and captures.
#   install-test.sh BUILD_DIR SAMPLE
set -uo pipefail
build=$1 sample=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component capture >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
mv "$work/prefix" "$work/moved"
for f in bin/clcapture lib/libclcapture.so; do
  [ -f "$work/moved/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
out=$("$work/moved/bin/clcapture" doctor --icd /etc/OpenCL/vendors/pocl.icd 2>&1)
grep -q "capture library: $work/moved/lib/libclcapture.so: loads" <<<"$out" ||
  { echo "$out"; echo "FAIL: the moved launcher does not load its own library"; exit 1; }
[ "$(tail -1 <<<"$out")" = "capture would work" ] || { echo "$out"; echo "FAIL: doctor: $(tail -1 <<<"$out")"; exit 1; }
(cd "$work" && "$work/moved/bin/clcapture" --icd /etc/OpenCL/vendors/pocl.icd --dir "$work/cap" -- "$sample") \
  >"$work/run.txt" 2>&1 || { cat "$work/run.txt"; echo "FAIL: capture through the moved launcher"; exit 1; }
n=$(grep -c '"entry_point": "reduce"' "$work/cap/captures.json")
[ "$n" = 1 ] || { echo "FAIL: expected 1 reduce launch in the capture, found $n"; exit 1; }
echo "PASS: installed, moved to $work/moved, doctor says capture would work, 1 launch captured"
