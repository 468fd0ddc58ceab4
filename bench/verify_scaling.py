#!/usr/bin/python3
"""Time and peak memory of clcapture-verify against `oclgrind-kernel --data-races` on the same launches as
the number of work-items grows (issue: "Benchmark with a table in the docs").

usage: bench/verify_scaling.py [--verify build/bin/clcapture-verify] [--sizes 64,4096,1048576,16777216]
                               [--reps 3] [--oclgrind-max 1048576] [--oclgrind-timeout 900]

For each kernel in bench/kernels (a tiled transpose, a tree reduction, a tiled matrix multiply and a racy
reduction) and each work-item count, a capture folder is generated (sizes, scalar values, buffer sizes;
no buffer contents: they do not decide these kernels), clcapture-verify runs on it REPS times (median wall
time, peak RSS from /usr/bin/time), and Oclgrind simulates the same launch once with --data-races (inputs
filled, so the simulated run does the real work) up to --oclgrind-max work-items, killed after
--oclgrind-timeout seconds. Prints a Markdown table; the numbers in docs/verify-benchmark.md come from it.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def scalar_hex(value):
    return f"0x{value:08X}"  # docs/contract.md §3: an int's value as 8 upper-case hex digits


def launch_for(kernel, items):
    """global size, local size, arguments [(name, kind, bytes-or-value)] for `items` work-items."""
    if kernel in ("transpose", "matmul"):
        n = math.isqrt(items)
        assert n * n == items and n % 8 == 0, f"{items} work-items is not an n × n square with 8 | n"
        if kernel == "transpose":
            return [n, n], [8, 8], [("in", "buffer", 4 * n * n), ("out", "buffer", 4 * n * n), ("n", "int", n)]
        k = 64
        return [n, n], [8, 8], [("A", "buffer", 4 * n * k), ("B", "buffer", 4 * k * n), ("C", "buffer", 4 * n * n),
                                ("n", "int", n), ("k", "int", k)]
    groups = items // 64
    return [items], [64], [("in", "buffer", 4 * items), ("out", "buffer", 4 * groups)]


def capture(folder, kernel, items):
    gsize, lsize, args = launch_for(kernel, items)
    os.makedirs(os.path.join(folder, "kernels"), exist_ok=True)
    src = open(os.path.join(HERE, "kernels", kernel + ".cl"), encoding="utf-8").read()
    with open(os.path.join(folder, "kernels", kernel + ".cl"), "w", encoding="utf-8") as f:
        f.write(src)
    kargs = []
    for name, kind, v in args:
        if kind == "buffer":
            kargs.append({"type": "array", "address_space": "global", "size": v, "flags": ["CL_MEM_READ_WRITE"]})
        else:
            kargs.append({"type": "scalar", "value": scalar_hex(v)})
    inst = {"language": "OpenCL", "kernel_file": f"kernels/{kernel}.cl",
            "entry_point": "reduction" if kernel.startswith("reduction") else kernel,
            "global_size": gsize, "local_size": lsize, "compiler_flags": "", "kernel_arguments": kargs}
    with open(os.path.join(folder, "captures.json"), "w", encoding="utf-8") as f:
        json.dump([inst], f)
    return inst, args


def timed(cmd, cwd=None, timeout=None):
    """(wall seconds, peak RSS MiB, stdout, timed out)"""
    full = ["/usr/bin/time", "-f", "%e %M", "-o", "/dev/stderr"] + cmd
    try:
        r = subprocess.run(full, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, None, "", True
    last = r.stderr.strip().splitlines()[-1].split()
    return float(last[0]), int(last[1]) / 1024, r.stdout + r.stderr, False


def oclgrind_sim(folder, inst, args):
    lines = [os.path.basename(inst["kernel_file"]), inst["entry_point"],
             " ".join(map(str, (inst["global_size"] + [1, 1])[:3])),
             " ".join(map(str, (inst["local_size"] + [1, 1])[:3])), ""]
    for name, kind, v in args:
        lines.append(f"<size={v} int fill=1>" if kind == "buffer" else f"<size=4 int> {v}")
    sim = os.path.join(folder, "launch.sim")
    with open(sim, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.link(os.path.join(folder, inst["kernel_file"]), os.path.join(folder, os.path.basename(inst["kernel_file"])))
    return sim


def fmt_size(items):
    for unit, div in (("M", 1 << 20), ("K", 1 << 10)):
        if items >= div and items % div == 0:
            return f"{items // div}{unit}"
    return str(items)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--verify", default=os.path.join(ROOT, "build", "bin", "clcapture-verify"))
    p.add_argument("--sizes", default="64,4096,1048576,16777216")
    p.add_argument("--kernels", default="transpose,reduction,matmul,reduction_race")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--oclgrind-max", type=int, default=1 << 20)
    p.add_argument("--oclgrind-timeout", type=int, default=900)
    o = p.parse_args()
    sizes = [int(s) for s in o.sizes.split(",")]
    print("| kernel | work-items | clcapture-verify s | verify peak MiB | verdict | oclgrind s | oclgrind peak MiB | oclgrind race | speed-up |")
    print("|---|---:|---:|---:|---|---:|---:|---|---:|")
    sys.stdout.flush()
    for kernel in o.kernels.split(","):
        for items in sizes:
            with tempfile.TemporaryDirectory() as folder:
                inst, args = capture(folder, kernel, items)
                runs = [timed([o.verify, "--format=json", "--no-cache", os.path.join(folder, "captures.json")]) for _ in range(o.reps)]
                wall = statistics.median(r[0] for r in runs)
                mem = max(r[1] for r in runs)
                verdict = json.loads(runs[0][2][runs[0][2].index("{"):runs[0][2].rindex("}") + 1])["results"][0]["verdict"]
                og = "—"
                ogmem = ograce = speed = "—"
                if items <= o.oclgrind_max:
                    sim = oclgrind_sim(folder, inst, args)
                    t, m, out, killed = timed(["oclgrind-kernel", "--data-races", "--max-errors", "1", sim], cwd=folder,
                                              timeout=o.oclgrind_timeout)
                    og = f"> {t:.0f} (stopped)" if killed else f"{t:.2f}"
                    ogmem = "—" if m is None else f"{m:.0f}"
                    ograce = "?" if killed else ("yes" if "data race" in out.lower() else "no")
                    ratio = t / wall
                    speed = ("> " if killed else "") + (f"{ratio:.0f}×" if ratio >= 10 else f"{ratio:.1f}×")
                print(f"| {kernel} | {fmt_size(items)} | {wall:.2f} | {mem:.0f} | {verdict} | {og} | {ogmem} | {ograce} | {speed} |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
