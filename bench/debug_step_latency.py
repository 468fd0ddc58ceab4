#!/usr/bin/python3
"""clcapture-debug's step latency and peak memory at 2^10, 2^16 and 2^20 work-items (issue 27's benchmark;
numbers in docs/debugger.md). Not a test: how fast a machine is says nothing about correctness.

usage: debug_step_latency.py --debug BIN [--sizes 10,16,20] [--steps 150] [--markdown FILE]

For each size a capture of one launch is written (tests/kernels/run_kernel.py's capture folder): a kernel whose
work-items each run a loop of 64 iterations over a float buffer, local size 256. clcapture-debug --batch
--command-times runs `step` (the first stop: building the launch's first group) and then `next` STEPS times
in work-item 0, then `continue` to a breakpoint in the first work-item of the second group (every work-item of
the first group run in between). Reported: the median and 95th percentile of `next`, the first `step`, the
`continue`, the time to open the capture (start to the first prompt), and the process's peak resident memory
(getrusage of the child).
"""
import argparse
import os
import re
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "kernels"))
import run_kernel  # noqa: E402

KERNEL = """//pass
//--local_size=256 --global_size={size} --arg n=0x40
kernel void smooth(global const float *in, global float *out, int n) {{
  size_t i = get_global_id(0);
  size_t total = get_global_size(0);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {{
    float v = in[(i + (size_t)k) % total];
    acc += v * 0.5f;
  }}
  out[i] = acc;
}}
"""


def capture(folder, size):
    text = KERNEL.format(size=size)
    expected, options, _ = run_kernel.parse_header(text)
    entry, params, inst, launch = run_kernel.launch_of(text, options)
    data = struct.pack(f"<{size}f", *[float(i % 1000) for i in range(size)])
    launch["data"]["in"] = data
    launch["data"]["out"] = bytes(4 * size)
    run_kernel.build_capture(folder, "smooth.cl", text, entry, params, inst, launch)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def measure(debug, folder, steps):
    commands = ["step"] + ["next"] * steps + ["break 8 if get_global_id(0) == 256", "continue", "quit"]
    started = time.monotonic()
    proc = subprocess.Popen([debug, folder, "--batch", "--command-times"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate("\n".join(commands) + "\n")
    wall = time.monotonic() - started
    times = [float(t) for t in re.findall(r"\(command took ([0-9.]+) ms\)", out)]
    if len(times) < steps + 2:
        raise SystemExit(f"clcapture-debug stopped early (exit {proc.returncode}):\n{out[-2000:]}\n{err}")
    return {"step": times[0], "next": times[1:1 + steps], "continue": times[-1], "wall": wall, "out": out}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--debug", required=True)
    p.add_argument("--sizes", default="10,16,20")
    p.add_argument("--steps", type=int, default=150)
    p.add_argument("--markdown")
    args = p.parse_args()
    rows = []
    for exponent in [int(e) for e in args.sizes.split(",")]:
        size = 1 << exponent
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "cap")
            capture(folder, size)
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            r = measure(args.debug, folder, args.steps)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        nexts = r["next"]
        row = {"work-items": f"2^{exponent}", "next median ms": statistics.median(nexts),
               "next p95 ms": percentile(nexts, 95), "first step ms": r["step"],
               "continue to group 2 ms": r["continue"], "wall s": r["wall"],
               "peak MiB": max(peak, before) / 1024}
        rows.append(row)
        print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()), flush=True)
    if args.markdown:
        keys = list(rows[0])
        with open(args.markdown, "w") as f:
            f.write("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys) + "\n")
            for row in rows:
                f.write("| " + " | ".join(f"{row[k]:.3f}" if isinstance(row[k], float) else str(row[k])
                                          for k in keys) + " |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
