#!/usr/bin/python3
"""What recording a launch on the device costs (issue 29, docs/device-debugging.md): the instrumented launch
against the plain one, with 64, 1,024 and all work-items recording, and the trace bytes per recorded
statement.

usage: device_trace_cost.py --instrument BIN --replay BIN [--icd FILE] [--items N] [--runs K] [--markdown F]
       device_trace_cost.py --prepare DIR --instrument BIN [--items N]      (where Clang is)
       device_trace_cost.py --run DIR --replay BIN [--icd FILE] [--runs K]  (where the device is)

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


CASES = (("64", "get_global_id(0) < 64", 64), ("1,024", "get_global_id(0) < 1024", 1024), ("all", "1", None))


def prepare(args, folder):
    """The capture and one instrumentation per predicate, under `folder`."""
    write_capture(os.path.join(folder, "cap"), args.items, args.loop)
    for n, (label, predicate, _) in enumerate(CASES):
        case = os.path.join(folder, f"case{n}")
        os.makedirs(case, exist_ok=True)
        subprocess.run([args.instrument, os.path.join(folder, "cap", "kernels", "stencil.cl"), "--kernel", "stencil",
                        "--record-items", predicate, "--output-source", os.path.join(case, "instrumented.cl"),
                        "--output-layout", os.path.join(case, "layout.json")], check=True, capture_output=True)
    with open(os.path.join(folder, "settings.json"), "w") as f:
        json.dump({"items": args.items, "loop": args.loop}, f)


def measure(args, folder):
    """The plain and instrumented replays of a prepared folder; the table's rows."""
    with open(os.path.join(folder, "settings.json")) as f:
        settings = json.load(f)
    items_all, loop = settings["items"], settings["loop"]
    cap = os.path.join(folder, "cap")
    with tempfile.TemporaryDirectory() as tmp:
        report, plain = replay(args, cap, os.path.join(tmp, "plain"))
        plain_s = statistics.median(plain["run_seconds"][1:] or plain["run_seconds"])
        rows = []
        for n, (label, _, items) in enumerate(CASES):
            case = os.path.join(folder, f"case{n}")
            with open(os.path.join(case, "layout.json")) as f:
                layout = json.load(f)
            items = items or items_all
            # Every statement of every recording work-item must fit: about 4 + 3·loop statements of ≤ 40 bytes.
            trace_bytes = 16 + items * (4 + 4 * loop) * 40
            out = os.path.join(tmp, f"traced{n}")
            _, traced = replay(args, cap, out, os.path.join(case, "instrumented.cl"), trace_bytes)
            times = [t["seconds"] for t in traced["traces"]]
            traced_s = statistics.median(times[1:] or times)
            count, used, dropped = statements(os.path.join(out, traced["traces"][-1]["file"]), layout)
            rows.append((label if items != items_all else f"all ({items_all:,})", plain_s, traced_s, count, used,
                         dropped, all(t["outputs_same_as_plain"] for t in traced["traces"])))
    return report["device"], items_all, loop, rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--instrument")
    p.add_argument("--replay")
    p.add_argument("--icd")
    p.add_argument("--prepare")
    p.add_argument("--run")
    p.add_argument("--items", type=int, default=1 << 16)
    p.add_argument("--loop", type=int, default=16)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--markdown")
    args = p.parse_args()
    if args.prepare:
        prepare(args, args.prepare)
        return
    if args.run:
        device, items, loop, rows = measure(args, args.run)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            prepare(args, tmp)
            device, items, loop, rows = measure(args, tmp)
    lines = [f"Device: {device}; {items:,} work-items, loop {loop}, medians of runs 2..{args.runs}.",
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
