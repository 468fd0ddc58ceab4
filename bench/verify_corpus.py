#!/usr/bin/python3
"""Per-kernel analysis time of clcapture-verify over the kernel corpus (tests/kernels).

usage: bench/verify_corpus.py [--verify build/bin/clcapture-verify] [--reps 3] [--checks LIST]

Each corpus kernel's capture folder is generated from its header (tests/kernels/run_kernel.py --keep), then
clcapture-verify is timed on it REPS times (median wall time per kernel, whole process: start-up, Clang,
encoding, every query). Prints the median, 90th percentile and maximum over the corpus, the slowest
kernels and the verdict counts; the numbers in docs/verify-benchmark.md come from it.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--verify", default=os.path.join(ROOT, "build", "bin", "clcapture-verify"))
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--checks", help="passed as clcapture-verify --checks=LIST (default: the verifier's default)")
    o = p.parse_args()
    kernels = sorted(glob.glob(os.path.join(ROOT, "tests", "kernels", "*", "*.cl")))
    times, verdicts = {}, {}
    for path in kernels:
        name = os.path.relpath(path, os.path.join(ROOT, "tests", "kernels"))
        with tempfile.TemporaryDirectory() as d:
            folder = os.path.join(d, "capture")
            subprocess.run([sys.executable, os.path.join(ROOT, "tests", "kernels", "run_kernel.py"), path, o.verify,
                            "--json-only", "--keep", folder], capture_output=True, text=True)
            runs = []
            for _ in range(o.reps):
                start = time.monotonic()
                checks = [f"--checks={o.checks}"] if o.checks else []
                r = subprocess.run([o.verify, "--format=json", "--no-cache", *checks, os.path.join(folder, "captures.json")],
                                   capture_output=True, text=True)
                runs.append(time.monotonic() - start)
            times[name] = statistics.median(runs)
            try:
                verdicts[name] = json.loads(r.stdout)["results"][0]["verdict"]
            except (ValueError, KeyError, IndexError):
                verdicts[name] = f"exit {r.returncode}"
    values = sorted(times.values())
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    print(f"{len(values)} kernels, {o.reps} runs each: median {statistics.median(values):.3f} s, "
          f"90th percentile {p90:.3f} s, max {values[-1]:.3f} s, total {sum(values):.1f} s")
    counts = {}
    for v in verdicts.values():
        counts[v] = counts.get(v, 0) + 1
    print("verdicts: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    print("slowest:")
    for name in sorted(times, key=times.get, reverse=True)[:8]:
        print(f"  {times[name]:7.3f} s  {name} ({verdicts[name]})")


if __name__ == "__main__":
    main()
