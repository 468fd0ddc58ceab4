#!/usr/bin/env bash
# The release tarball on machines that have nothing of ours (acceptance), in debootstrap roots:
#  - Debian 12 minbase + ocl-icd + PoCL (no libdw, no -dev packages, no compiler): `clcapture doctor` reports
#    the driver and says capture would work; the reduce sample is captured through the launcher;
#  - Debian 11 minbase (glibc 2.31, libstdc++ 10) + ocl-icd + Oclgrind + PyOpenCL: libclcapture.so, loaded
#    by the application's own loader (the launcher needs glibc 2.34), captures a PyOpenCL script.
# Needs root (chroot, bind mounts) and the network once (debootstrap; the roots are kept in $ROOTS).
#   bash tools/release-check.sh [TARBALL]      (default: build/packages/clcapture-*-linux-x86_64.tar.gz)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
tarball=${1:-$(ls "$build"/packages/clcapture-*-linux-x86_64.tar.gz 2>/dev/null | head -1)}
[ -f "$tarball" ] || { echo "release-check: no tarball; run tools/package.sh first" >&2; exit 1; }
ROOTS=${CLCAPTURE_ROOTS:-/var/tmp/clcapture-roots}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null || { echo "release-check: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }

make_root() { # NAME SUITE PACKAGES
  local dir=$ROOTS/$1
  [ -x "$dir/bin/sh" ] && [ -f "$dir/.clcapture-ready" ] && return 0
  rm -rf "$dir"
  mkdir -p "$ROOTS"
  echo "release-check: debootstrap $2 into $dir (once)"
  debootstrap --variant=minbase --include="$3" "$2" "$dir" "$mirror" >"$ROOTS/$1.log" 2>&1
  touch "$dir/.clcapture-ready"
}
mounted=()
enter() { # DIR: bind /proc, /sys, /dev (PoCL reads the CPU topology)
  for m in proc sys dev; do
    mountpoint -q "$1/$m" || { mount --bind "/$m" "$1/$m"; mounted+=("$1/$m"); }
  done
}
cleanup() { for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
fail() { echo "release-check: FAIL: $*" >&2; exit 1; }

make_root bookworm bookworm ocl-icd-libopencl1,pocl-opencl-icd
make_root bullseye bullseye ocl-icd-libopencl1,oclgrind,python3-pyopencl,python3-numpy

# --- Debian 12: the tarball alone, through the launcher.
r=$ROOTS/bookworm
enter "$r"
rm -rf "$r/opt/release" "$r/tmp/cap" && mkdir -p "$r/opt/release" "$r/opt/samples"
tar xzf "$tarball" -C "$r/opt/release"
cp "$build/samples/reduce" "$r/opt/samples/"
top=$(ls "$r/opt/release")
for absent in /usr/lib/x86_64-linux-gnu/libdw.so.1 /usr/bin/cc /usr/bin/gcc /usr/include/CL; do
  [ ! -e "$r$absent" ] || fail "the Debian 12 root is not pristine: it has $absent"
done
chroot "$r" /opt/release/"$top"/bin/clcapture doctor --icd /etc/OpenCL/vendors/pocl.icd >"$ROOTS/doctor.txt" 2>&1 ||
  { cat "$ROOTS/doctor.txt"; fail "doctor says capture would not work in the Debian 12 root"; }
grep -q "Portable Computing Language" "$ROOTS/doctor.txt" || fail "doctor does not list PoCL"
tail -1 "$ROOTS/doctor.txt" | grep -q "capture would work" || fail "doctor's verdict: $(tail -1 "$ROOTS/doctor.txt")"
chroot "$r" sh -c "cd /tmp && /opt/release/$top/bin/clcapture --dir /tmp/cap -- /opt/samples/reduce --racy" \
  >"$ROOTS/capture.txt" 2>&1 || { cat "$ROOTS/capture.txt"; fail "capture in the Debian 12 root"; }
grep -q '"entry_point": "reduce"' "$r/tmp/cap/captures.json" || fail "no reduce launch in the Debian 12 capture"
echo "release-check: Debian 12 root: doctor → $(tail -1 "$ROOTS/doctor.txt"); $(grep 'instantiation' "$ROOTS/capture.txt" | tail -1)"

# --- Debian 11 (glibc 2.31): the library alone, loaded by ocl-icd 2.2 into python3.9 with its libstdc++ 10.
r=$ROOTS/bullseye
enter "$r"
rm -rf "$r/opt/release" "$r/tmp/cap" && mkdir -p "$r/opt/release"
tar xzf "$tarball" -C "$r/opt/release"
cat >"$r/opt/release/app.py" <<'EOF'
import numpy as np, pyopencl as cl
ctx = cl.create_some_context(interactive=False)
q = cl.CommandQueue(ctx)
a = np.arange(64, dtype=np.int32)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
cl.Program(ctx, "kernel void twice(global int *a) { a[get_global_id(0)] *= 2; }").build().twice(q, (64,), (16,), buf)
cl.enqueue_copy(q, a, buf)
assert list(a[:4]) == [0, 2, 4, 6], a
print("app: ok on", cl.get_platforms()[0].name)
EOF
chroot "$r" sh -c "cd /tmp && PYOPENCL_NO_CACHE=1 OCL_ICD_VENDORS=/opt/release/$top/lib/libclcapture.so \
  CLCAPTURE_ICD=/usr/lib/oclgrind/liboclgrind-rt-icd.so CLCAPTURE_DIR=/tmp/cap python3 /opt/release/app.py" \
  >"$ROOTS/bullseye.txt" 2>&1 || { cat "$ROOTS/bullseye.txt"; fail "PyOpenCL under the capture in the Debian 11 root"; }
grep -q "app: ok on Oclgrind" "$ROOTS/bullseye.txt" || fail "the app did not run on Oclgrind through the capture"
grep -q '"entry_point": "twice"' "$r/tmp/cap/captures.json" || fail "no launch captured in the Debian 11 root"
echo "release-check: Debian 11 root (glibc $(chroot "$r" ldd --version | head -1 | awk '{print $NF}')): PyOpenCL captured"
echo "release-check: PASS"
