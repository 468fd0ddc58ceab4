#!/usr/bin/python3
"""Every launch of real captures (the tests/realapps programs' captures, or any capture folder) run to its end
by clcapture-debug and by clcapture-replay on PoCL, each buffer the replay reads back compared (integers bit
for bit; a kernel that computes in float or double: values within 4 ULP), for issue 27's acceptance and
docs/debugger.md.

usage: capture_sweep.py CAPTURE... --debug BIN --replay BIN [--jobs N] [--timeout S] [--markdown FILE]

Outcomes per launch: equal; differs as expected (EXPECTED_DIFFERENCES: the kernel and the reason); differs
(listed); not run (the capture lacks
what a run needs: both tools refuse it); Oclgrind cannot run it (exit 3, or a kernel Oclgrind cannot build or
create); slower than the timeout in the interpreter; replay failed (PoCL could not run it).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

from debug_testing import POCL, same_output

# Kernels of the realapps captures whose buffers legitimately differ between Oclgrind and PoCL, with the reason
# (each checked by hand in session 27: docs/debugger.md).
EXPECTED_DIFFERENCES = {
    "mulAndScaleSpectrums": "OpenCV's complex products use mad(), whose rounding OpenCL leaves to the device "
                            "(fused on PoCL, two roundings in Oclgrind); near cancellation that is more than 4 ULP",
    "findBlockBounds": "OpenMM's min/max over the .w lanes of posq, which hold denormal and NaN bit patterns: PoCL "
                       "flushes denormals to zero (OpenCL allows it for float), Oclgrind keeps them",
    "computeNonbonded": "OpenMM accumulates forces with atomic float adds, whose order (and so rounding) is the "
                        "schedule's, and builds with -cl-mad-enable",
}


def sweep_launch(capture, index, entry, kernel_text, replayed, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "debug")
        try:
            d = subprocess.run([args.debug, capture, "--launch", str(index), "--batch", "--output", out],
                               input="run\nrun\n", capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return index, f"slower than {args.timeout} s in the interpreter", ""
        err = d.stderr.strip()
        if d.returncode == 3 or "Oclgrind cannot run" in err or "did not compile in Oclgrind" in err:
            return index, "Oclgrind cannot run it", (err.splitlines() or ["ended early"])[-1]
        if d.returncode == 10:
            return index, "not run", err.splitlines()[-1] if err else "refused"
        if d.returncode not in (0, 1) or not os.path.isdir(os.path.join(out, str(index))):
            return index, "debug failed", f"exit {d.returncode}: {err[-300:]}"
        if replayed is None:
            return index, "replay failed", "PoCL did not replay it"
        different = []
        for name, bytes_ in replayed.items():
            mine = os.path.join(out, str(index), name)
            if not os.path.exists(mine):
                different.append(name + " (not written)")
                continue
            with open(mine, "rb") as f:
                if not same_output(f.read(), bytes_, kernel_text):
                    different.append(name)
        if different and entry in EXPECTED_DIFFERENCES:
            return index, "differs as expected", f"{', '.join(different)}: {EXPECTED_DIFFERENCES[entry]}"
        return (index, "differs", ", ".join(different)) if different else (index, "equal", "")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("captures", nargs="+")
    p.add_argument("--debug", required=True)
    p.add_argument("--replay", required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--markdown")
    args = p.parse_intermixed_args()
    rows, totals, failures = [], {}, 0
    for capture in args.captures:
        with open(os.path.join(capture, "captures.json")) as f:
            instantiations = json.load(f)
        with tempfile.TemporaryDirectory() as tmp:
            replay_out = os.path.join(tmp, "replay")
            subprocess.run([args.replay, capture, "--output", replay_out], capture_output=True, text=True,
                           env=dict(os.environ, OCL_ICD_VENDORS=POCL), timeout=3600)
            replayed = {}
            for index in range(len(instantiations)):
                folder = os.path.join(replay_out, str(index))
                if os.path.isdir(folder):
                    replayed[index] = {n: open(os.path.join(folder, n), "rb").read() for n in os.listdir(folder)}
            jobs = []
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                for index, inst in enumerate(instantiations):
                    kernel = open(os.path.join(capture, inst["kernel_file"]), errors="replace").read()
                    jobs.append(pool.submit(sweep_launch, capture, index, inst["entry_point"], kernel,
                                            replayed.get(index), args))
                counts = {}
                for job in jobs:
                    index, outcome, why = job.result()
                    counts[outcome] = counts.get(outcome, 0) + 1
                    totals[outcome] = totals.get(outcome, 0) + 1
                    if outcome == "debug failed" or outcome == "differs":
                        failures += outcome == "debug failed"
                        print(f"{'FAIL ' if outcome == 'debug failed' else '     '}{capture} #{index}: {outcome}: {why}")
                    elif outcome != "equal":
                        print(f"      {capture} #{index}: {outcome}: {why}")
                        rows.append((capture, index, outcome, why))
                    if outcome == "differs":
                        rows.append((capture, index, outcome, why))
        name = os.path.basename(os.path.dirname(os.path.abspath(capture))) or capture
        summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
        print(f"{name}: {len(instantiations)} launches: {summary}", flush=True)
    print("capture sweep: " + ", ".join(f"{n} {k}" for k, n in sorted(totals.items())) + f"; {failures} failures")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("capture sweep: " + ", ".join(f"{n} {k}" for k, n in sorted(totals.items())) + "\n\n")
            for capture, index, outcome, why in rows:
                f.write(f"| `{capture}` #{index} | {outcome} | {why.replace('|', '/')} |\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
