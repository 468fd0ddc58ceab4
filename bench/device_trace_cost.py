#!/usr/bin/python3
"""What recording a launch on the device costs (issue 29, docs/device-debugging.md): the instrumented launch
against the plain one, with 64, 1,024 and all work-items recording, and the trace bytes per recorded
statement.

usage: device_trace_cost.py --instrument BIN --replay BIN [--icd FILE] [--items N] [--runs K] [--markdown F]

The kernel is a 1-D stencil with a loop and a helper (tests/debugger/diff's kind of code, but long enough to
time): each work-item runs `--loop` iterations, each recording a condition and two assignments. A capture
is written here (captures.json and the input bytes), clcapture-instrument makes one instrumented source per
predicate, and clcapture-replay --instrumented runs it K times after the plain launch; the times compared are
the medians of runs 2..K (run 1 includes the driver's compilation). Only the standard library: it runs on the
lent NVIDIA machine's stock Python too.
"""
import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile

KERNEL = r"""
float weight(float v, int k) {
  float w = v * 0.5f + (float)k;
  return w;
}

__kernel void stencil(__global float *out, __global const float *in, int n, int loop) {
  int i = (int)get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < loop; ++k) {
    int j = (i + k) % n;
    acc += weight(in[j], k);
  }
  out[i] = acc;
}
"""


def write_capture(folder, items, loop):
    os.makedirs(os.path.join(folder, "kernels"), exist_ok=True)
    os.makedirs(os.path.join(folder, "data"), exist_ok=True)
    with open(os.path.join(folder, "kernels", "stencil.cl"), "w") as f:
        f.write(KERNEL)
    data = struct.pack(f"<{items}f", *[float(i % 97) for i in range(items)])
    for name in ("in", "out"):
        with open(os.path.join(folder, "data", name + ".bin"), "wb") as f:
            f.write(data)
    inst = {"language": "OpenCL", "endianness": "little", "kernel_file": "kernels/stencil.cl",
            "entry_point": "stencil", "global_size": [items], "local_size": [64],
            "kernel_arguments": [
                {"type": "array", "size": items * 4, "data": "data/out.bin"},
                {"type": "array", "size": items * 4, "data": "data/in.bin"},
                {"type": "scalar", "value": "0x" + struct.pack(">i", items).hex()},
                {"type": "scalar", "value": "0x" + struct.pack(">i", loop).hex()}]}
    with open(os.path.join(folder, "captures.json"), "w") as f:
        json.dump([inst], f)


def replay(args, folder, out, instrumented=None, trace_bytes=None):
    cmd = [args.replay, folder, "--only", "0", "--repeat", str(args.runs), "--output", out, "--format", "json"]
    if args.icd:
        cmd += ["--icd", args.icd]
    if instrumented:
        cmd += ["--instrumented", instrumented, "--trace-bytes", str(trace_bytes)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    report = json.loads(r.stdout)
    launch = report["launches"][0]
    if launch["status"] not in ("replayed",):
        sys.exit(f"replay failed: {launch.get('status')}: {launch.get('reason')}")
    return report, launch


def statements(trace_file, layout):
    """Records and bytes a trace holds, walked with the layout's record lengths."""
    words = {s["id"]: s["words"] for s in layout["sites"]}
    with open(trace_file, "rb") as f:
        data = f.read()
    used, dropped, capacity = struct.unpack("<3I", data[:12])
    body = struct.unpack(f"<{min(used, capacity)}I", data[16:16 + 4 * min(used, capacity)])
    at, count = 0, 0
    while at + 3 <= len(body) and body[at] in words:
        at += words[body[at]]
        count += 1
    return count, at * 4, dropped


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--instrument", required=True)
    p.add_argument("--replay", required=True)
    p.add_argument("--icd")
    p.add_argument("--items", type=int, default=1 << 16)
    p.add_argument("--loop", type=int, default=16)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--markdown")
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "cap")
        write_capture(folder, args.items, args.loop)
        report, plain = replay(args, folder, os.path.join(tmp, "plain"))
        device = report["device"]
        plain_s = statistics.median(plain["run_seconds"][1:] or plain["run_seconds"])
        for label, predicate in (("64", "get_global_id(0) < 64"), ("1,024", "get_global_id(0) < 1024"),
                                 (f"all ({args.items:,})", "1")):
            source = os.path.join(tmp, "instrumented.cl")
            layout_file = os.path.join(tmp, "layout.json")
            subprocess.run([args.instrument, os.path.join(folder, "kernels", "stencil.cl"), "--kernel", "stencil",
                            "--record-items", predicate, "--output-source", source, "--output-layout",
                            layout_file], check=True, capture_output=True)
            with open(layout_file) as f:
                layout = json.load(f)
            items = args.items if predicate == "1" else int(predicate.split("<")[1])
            # Every recorded statement of every recording work-item must fit: about 4 + 3·loop statements.
            trace_bytes = 16 + items * (4 + 4 * args.loop) * 40
            out = os.path.join(tmp, "traced")
            _, traced = replay(args, folder, out, source, trace_bytes)
            times = [t["seconds"] for t in traced["traces"]]
            traced_s = statistics.median(times[1:] or times)
            count, used, dropped = statements(os.path.join(out, traced["traces"][-1]["file"]), layout)
            rows.append((label, plain_s, traced_s, count, used, dropped,
                         all(t["outputs_same_as_plain"] for t in traced["traces"])))
    lines = [f"Device: {device}; {args.items:,} work-items, loop {args.loop}, medians of runs 2..{args.runs}.",
             "",
             "| work-items recording | plain (ms) | instrumented (ms) | ratio | statements | trace bytes | "
             "bytes / statement | outputs as plain |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for label, plain_s, traced_s, count, used, dropped, same in rows:
        lines.append(f"| {label} | {plain_s * 1e3:.3f} | {traced_s * 1e3:.3f} | {traced_s / plain_s:.2f}× | "
                     f"{count:,}{' (+' + str(dropped) + ' dropped)' if dropped else ''} | {used:,} | "
                     f"{used / max(count, 1):.1f} | {'yes' if same else 'NO'} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
