#!/usr/bin/python3
"""Oclgrind simulator files (clcapture export --sim), run with oclgrind-kernel.

usage: sim_test.py SCENARIO --export EXE --oclgrind-kernel EXE [--import EXE --keys EXE --verify EXE]

scenarios
  crosscheck    a sample of corpus kernels, captured with every buffer's contents (the values
                tests/kernels/oclgrind_crosscheck.py's own .sim gives buffers the header leaves open): the
                exported .sim and the cross-check's .sim leave the same global memory (oclgrind-kernel -g)
  known-output  a hand-made capture (float vector add with a guard scalar, a struct scalar, an int4 scalar,
                a negative char, a float NaN with a payload): the dumped buffers hold the known results
  refusals      a global offset, aliasing, no local size, an image, a scalar without a value, non-uniform
                work-groups: each instantiation is skipped (exit 4) with the reason, no .sim written
Each check prints `ok …` or `FAIL: …`; the exit status is 1 on any failure.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CORPUS = os.path.join(REPO, "tests", "kernels")
sys.path.insert(0, HERE)
sys.path.insert(0, CORPUS)
import corpus_capture  # noqa: E402
import oclgrind_crosscheck  # noqa: E402

# Buffers the header gives no size get this many bytes on both sides (the cross-check's 1 MiB would make
# `-g` print megabytes); local arrays without a size get the cross-check's 4096.
BUFFER_BYTES = 16384
LOCAL_BYTES = 4096

SAMPLE = [
    "local/reduction.cl",          # local memory, barriers
    "transpose/local_tile.cl",     # 2-D, local tile
    "stencil/stencil_2d.cl",       # 2-D global
    "data/struct_arg.cl",          # a struct scalar
    "scalars/vector_value.cl",     # an int2 scalar
    "scalars/short_value.cl",      # a short scalar written "0x1"
    "scalars/float_scalar.cl",     # a float scalar
    "data/captured_index.cl",      # captured int data
    "data/float4_pointer.cl",      # float4 buffers
    "data/long_values.cl",         # long buffers
    "data/char_neighbours.cl",     # char buffers
    "vectors/int4_lanes.cl",       # int4 buffers
]

failures = []


def ok(msg):
    print("ok    " + msg)


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def global_memory(oclgrind, folder, sim):
    r = run([oclgrind, "-g", sim], cwd=folder, timeout=120)
    if r.returncode != 0 or "Global Memory:" not in r.stdout:
        return None, (r.stdout + r.stderr)[-2000:]
    return r.stdout.split("Global Memory:", 1)[1], r.stderr


def range_bytes(name, size):
    """What the cross-check's `<size=N int range=1:1:N/4>` puts in a buffer the header leaves open."""
    size = int(size or BUFFER_BYTES) // 4 * 4
    return struct.pack(f"<{size // 4}i", *range(1, size // 4 + 1))


def crosscheck(args):
    oclgrind_crosscheck.DEFAULT_BUFFER = BUFFER_BYTES
    with tempfile.TemporaryDirectory() as work:
        for rel in SAMPLE:
            path = os.path.join(CORPUS, rel)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            theirs, why = oclgrind_crosscheck.sim_for(path, text, None)
            if theirs is None:
                fail(f"{rel}: the cross-check cannot run it ({why}); pick another sample")
                continue
            # The cross-check's .sim, with the local arrays its header leaves open at LOCAL_BYTES.
            name = rel.replace("/", "__")[:-3]
            a = os.path.join(work, name, "theirs")
            os.makedirs(a)
            with open(os.path.join(a, os.path.basename(path)), "w", encoding="utf-8") as f:
                f.write(text)
            with open(os.path.join(a, "launch.sim"), "w", encoding="utf-8") as f:
                f.write(theirs.replace("<size=4096>", f"<size={LOCAL_BYTES}>"))
            cap, out = os.path.join(work, name, "capture"), os.path.join(work, name, "ours")
            entry = corpus_capture.build(path, cap, range_bytes, LOCAL_BYTES)
            r = run([args.export, "--sim", cap, "-o", out])
            sim = os.path.join(out, f"0-{entry}.sim")
            if r.returncode != 0 or not os.path.exists(sim):
                fail(f"{rel}: export exited {r.returncode}: {r.stderr}")
                continue
            mine, err_mine = global_memory(args.oclgrind_kernel, out, sim)
            ref, err_ref = global_memory(args.oclgrind_kernel, a, "launch.sim")
            if mine is None or ref is None:
                fail(f"{rel}: oclgrind-kernel failed: {err_mine if mine is None else err_ref}")
            elif mine != ref:
                fail(f"{rel}: the exported .sim leaves other global memory than the cross-check's")
            else:
                ok(f"{rel}: the same {mine.count(chr(10))} lines of global memory")


KNOWN = """typedef struct { int a; int b; } Pair;
__kernel void add(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  c[i] = a[i] + b[i];
}
__kernel void scalars(__global int *out, Pair p, int4 v, char neg, __global const float *nan_in,
                      __global uint *bits, __local int *scratch) {
  int i = get_global_id(0);
  scratch[get_local_id(0)] = p.a * 10 + p.b + v.w + neg;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = scratch[get_local_id(0)];
  bits[i] = as_uint(nan_in[i]);
}
"""


def dumped(stdout, name):
    """The values oclgrind-kernel dumps for argument `name`."""
    return [v for v in re.findall(r"^\s+" + re.escape(name) + r"\[\d+\] = (\S+)$", stdout, re.M)]


def known_output(args):
    with tempfile.TemporaryDirectory() as work:
        cap = os.path.join(work, "cap")
        os.makedirs(os.path.join(cap, "kernels"))
        os.makedirs(os.path.join(cap, "data"))
        with open(os.path.join(cap, "kernels", "known.cl"), "w", encoding="utf-8") as f:
            f.write(KNOWN)
        blobs = {"a": struct.pack("<8f", *[0.5 * i for i in range(8)]),
                 "b": struct.pack("<8f", *[100.25] * 8),
                 "c": struct.pack("<8f", *[-1.0] * 8),
                 "nan": struct.pack("<4I", 0x7FC00001, 0x3F800000, 0xFF800000, 0x00000001),
                 "zeros": bytes(16)}
        for k, v in blobs.items():
            with open(os.path.join(cap, "data", k + ".bin"), "wb") as f:
                f.write(v)

        def buf(name, flags="CL_MEM_READ_WRITE"):
            return {"type": "array", "size": len(blobs[name]), "address_space": "global", "flags": [flags],
                    "data": f"data/{name}.bin"}
        insts = [
            {"language": "OpenCL", "endianness": "little", "kernel_file": "kernels/known.cl", "local_size": [4],
             "global_size": [8], "entry_point": "add",
             "kernel_arguments": [buf("a", "CL_MEM_READ_ONLY"), buf("b", "CL_MEM_READ_ONLY"), buf("c"),
                                  {"type": "scalar", "value": "0x00000006"}]},
            {"language": "OpenCL", "endianness": "little", "kernel_file": "kernels/known.cl", "local_size": [2],
             "global_size": [4], "entry_point": "scalars",
             "kernel_arguments": [buf("zeros"), {"type": "scalar", "value": "0x0000000400000002"},
                                  {"type": "scalar", "value": "0x00000007000000000000000000000000"},
                                  {"type": "scalar", "value": "0xFD"}, buf("nan", "CL_MEM_READ_ONLY"),
                                  buf("zeros", "CL_MEM_WRITE_ONLY"),
                                  {"type": "array", "size": 8, "address_space": "local"}]},
        ]
        types = [["float*", "float*", "float*", "int"],
                 ["int*", "Pair", "int4", "char", "float*", "uint*", "int*"]]
        meta = {"format": "clcapture-meta", "format_version": 2, "clcapture_version": "test",
                "process": {"executable": "app", "pid": 1},
                "launches": [{"launch": i, "instantiation": i, "enqueue_function": "clEnqueueNDRangeKernel",
                              "kernel_name": inst["entry_point"], "thread": 0, "queue": 0, "program": 0,
                              "program_origin": "source", "build_options": "",
                              "device": {"name": "d", "vendor": "v", "version": "OpenCL 1.2",
                                         "driver_version": "1", "address_bits": 64, "endianness": "little"},
                              "arguments": [{"index": k, "kind": "scalar" if t[-1] != "*" else "buffer",
                                             "type_name": t} for k, t in enumerate(types[i])],
                              "aliases": []} for i, inst in enumerate(insts)]}
        meta["launches"][1]["arguments"][6]["kind"] = "local"
        with open(os.path.join(cap, "captures.json"), "w", encoding="utf-8") as f:
            json.dump(insts, f, indent=1)
        with open(os.path.join(cap, "captures.meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1)
        out = os.path.join(work, "sim")
        r = run([args.export, "--sim", cap, "-o", out])
        if r.returncode != 0:
            fail(f"export exited {r.returncode}: {r.stderr}")
            return
        with open(os.path.join(out, "1-scalars.sim"), encoding="utf-8") as f:
            sim = f.read()
        for line in ("<size=8 uchar> 2 0 0 0 4 0 0 0", "<size=16 int> 0 0 0 7", "<size=1 char> -3",
                     "<size=16 uint hex ro>", "<size=8 uchar>\n"):
            if line not in sim:
                fail(f"1-scalars.sim lacks {line!r}:\n{sim}")
        r = run([args.oclgrind_kernel, "0-add.sim"], cwd=out, timeout=120)
        c = dumped(r.stdout, "c")
        want = [f"{0.5 * i + 100.25:g}" for i in range(6)] + ["-1", "-1"]
        if r.returncode == 0 and c == want:
            ok(f"add: c = a + b below n = 6, the captured -1 above: {' '.join(c)}")
        else:
            fail(f"add: exit {r.returncode}, c = {c}, want {want}\n{r.stdout}{r.stderr}")
        r = run([args.oclgrind_kernel, "1-scalars.sim"], cwd=out, timeout=120)
        got, bits = dumped(r.stdout, "out"), dumped(r.stdout, "bits")
        want_bits = [str(v) for v in (0x7FC00001, 0x3F800000, 0xFF800000, 0x00000001)]
        if r.returncode == 0 and got == ["28"] * 4 and bits == want_bits:
            ok("scalars: Pair{2,4}, int4 .w = 7 and char -3 give 28; a NaN payload and a denormal keep their bits")
        else:
            fail(f"scalars: exit {r.returncode}, out = {got}, bits = {bits}\n{r.stdout}{r.stderr}")


# (kernel, whether its buffers get captured contents, the reason the export must give)
REFUSED = [
    ("ndrange/global_offset.cl", False, "global offset [16]"),
    ("aliasing/halves_race.cl", False, "same memory (aliasing)"),
    ("ndrange/null_local_size.cl", False, "no local size"),
    ("images/write_own_pixel.cl", False, "is an image"),
    ("scalars/uncaptured_stride_race.cl", True, "value was not captured"),
    ("scalars/uncaptured_stride_race.cl", False, "size was not captured"),
    ("ndrange/non_uniform_last_group.cl", False, "non-uniform work-groups"),
]


def refusals(args):
    with tempfile.TemporaryDirectory() as work:
        for k, (rel, data, reason) in enumerate(REFUSED):
            name = f"{k}-" + rel.replace("/", "__")[:-3]
            cap, out = os.path.join(work, name, "capture"), os.path.join(work, name, "sim")
            corpus_capture.build(os.path.join(CORPUS, rel), cap, range_bytes if data else None)
            r = run([args.export, "--sim", cap, "-o", out])
            sims = [f for f in os.listdir(out) if f.endswith(".sim")] if os.path.isdir(out) else []
            if r.returncode == 4 and reason in r.stderr and "skipped" in r.stderr and not sims:
                ok(f"{rel}: skipped: {r.stderr.strip().split('skipped: ', 1)[1]}")
            else:
                fail(f"{rel}: exit {r.returncode}, .sim files {sims}, stderr: {r.stderr.strip()}")
        # --only selects; an index the capture lacks is a command-line error.
        cap = os.path.join(work, "0-ndrange__global_offset", "capture")
        r = run([args.export, "--sim", cap, "--only", "3", "-o", os.path.join(work, "x")])
        if r.returncode == 1 and "no instantiation 3" in r.stderr:
            ok("--only 3 of a one-instantiation capture: exit 1, " + r.stderr.strip())
        else:
            fail(f"--only 3: exit {r.returncode}: {r.stderr}")
        r = run([args.export, "--sim", os.path.join(work, "missing"), "-o", os.path.join(work, "x")])
        if r.returncode == 10:
            ok("a missing capture: exit 10")
        else:
            fail(f"a missing capture: exit {r.returncode}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=["crosscheck", "known-output", "refusals"])
    p.add_argument("--export", required=True)
    p.add_argument("--oclgrind-kernel", dest="oclgrind_kernel", default="oclgrind-kernel")
    p.add_argument("--import", dest="import_")
    p.add_argument("--keys")
    p.add_argument("--verify")
    args = p.parse_args()
    {"crosscheck": crosscheck, "known-output": known_output, "refusals": refusals}[args.scenario](args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
