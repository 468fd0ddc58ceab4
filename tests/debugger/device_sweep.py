#!/usr/bin/python3
"""Every corpus kernel (tests/kernels) recorded on PoCL by clcapture-debug's device engine, every work-item
recording (issue 29's acceptance, docs/device-debugging.md "The corpus"): clcapture-instrument instruments the
captured kernel, clcapture-replay --instrumented runs it plain and instrumented from the same inputs and
compares every buffer bit for bit, the session decodes the trace (`info recording`).

usage: device_sweep.py CORPUS_DIR --debug BIN --replay BIN [--jobs N] [--every N] [--markdown FILE] [KERNEL.cl ...]

Launches as corpus_sweep.py makes them (contents and sizes filled in). Outcomes:
  same                    recorded; the instrumented run wrote what the plain one wrote
  differs                 a failure for a race-free kernel (`//pass`); for a racy or out-of-bounds one
                          (`//xfail`, `//unknown`) the outputs may depend on the schedule: listed
  differs as expected     a race-free kernel whose outputs differ between any two runs (it stores pointers)
  not run                 the launch cannot be replayed (images, samplers, no size), or PoCL refuses it or crashes
                          running it plain (clcapture-replay alone)
  not instrumented        clcapture-instrument refuses the kernel (its message)
  recording failed        the device engine failed where the plain replay ran: a failure for `//pass`
Exit status 1 on any failure.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import signal
import subprocess
import sys
import tempfile

from corpus_sweep import EXPECTED_DIFFERENCES, corpus_capture  # noqa: E402
from debug_testing import POCL  # noqa: E402

TRACE_BYTES = str(256 << 20)


def run_group(cmd, timeout, stdin_text=None, **kwargs):
    """subprocess.run, but a timeout kills the whole process group: clcapture-debug's clcapture-replay child
    too (a launch that hangs PoCL, such as a barrier in divergent code, would otherwise outlive the sweep)."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE, text=True,
                          start_new_session=True, **kwargs) as p:
        try:
            out, err = p.communicate(stdin_text, timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise
        return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def sweep_one(path, args):
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "cap")
        name, expected, _, why = corpus_capture(path, args.corpus, folder)
        if why:
            return name, "not run", why, expected
        env = dict(os.environ, OCL_ICD_VENDORS=POCL)
        try:
            d = run_group([args.debug, folder, "--engine=device", "--record-items", "all", "--trace-bytes",
                           TRACE_BYTES, "--batch"], 300, "info recording\n", env=env)
        except subprocess.TimeoutExpired:
            return name, "not run", "slower than 300 s", expected
        out, err = d.stdout, d.stderr.strip()
        last = err.splitlines()[-1] if err else ""
        if "clcapture-instrument could not instrument" in err:
            why = [line.strip() for line in err.splitlines() if "clcapture-instrument: " in line]
            return name, "not instrumented", (why[0] if why else last), expected
        if d.returncode == 10 and ("cannot be debugged" in err or "the device did not run the launch" in err):
            # Refused by the planner (no bytes, images), or the plain launch failed on PoCL.
            if "the instrumented kernel" not in err:
                return name, "not run", last, expected
        if d.returncode != 0 or "outputs:" not in out:
            # The plain launch alone: a kernel whose filled-in inputs make it crash PoCL is not the recording's.
            try:
                r = run_group([args.replay, folder, "--output", os.path.join(tmp, "plain")], 300, env=env)
                plain_ok = r.returncode in (0, 6) and os.path.isdir(os.path.join(tmp, "plain", "0"))
            except subprocess.TimeoutExpired:
                plain_ok = False
            if not plain_ok:
                return name, "not run", ("PoCL crashes running the plain launch" if r.returncode < 0 else
                                         f"the plain replay fails too (exit {r.returncode})"), expected
            return name, "recording failed", f"exit {d.returncode}: {last}", expected
        recorded = re.search(r"(\d+) work-items? recorded \(1\), (\d+) statements?", out)
        summary = f"{recorded.group(1)} work-items, {recorded.group(2)} statements" if recorded else ""
        if "outputs: as the plain launch's" in out:
            return name, "same", summary, expected
        why = re.search(r"outputs: differ from the plain launch's: (.*)", out)
        if name in EXPECTED_DIFFERENCES:
            return name, "differs as expected", EXPECTED_DIFFERENCES[name], expected
        return name, "differs", (why.group(1)[:200] if why else ""), expected


def main():
    p = argparse.ArgumentParser()
    p.add_argument("corpus")
    p.add_argument("kernels", nargs="*")
    p.add_argument("--debug", required=True)
    p.add_argument("--replay", required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--markdown")
    p.add_argument("--every", type=int, default=1)
    args = p.parse_intermixed_args()
    kernels = args.kernels or sorted(glob.glob(os.path.join(args.corpus, "**", "*.cl"), recursive=True))
    kernels = [k for k in kernels if not os.path.basename(k).startswith("_")][::args.every]
    counts, failures, exceptions = {}, 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, outcome, why, expected in pool.map(lambda k: sweep_one(k, args), kernels):
            failure = outcome in ("differs", "recording failed") and expected == "verified"
            label = outcome + (" (race or out-of-bounds by design)" if outcome == "differs" and not failure else "")
            counts[label] = counts.get(label, 0) + 1
            if failure:
                failures += 1
                print(f"FAIL  {name}: {outcome}: {why}", flush=True)
            elif outcome != "same":
                exceptions.append((name, label, why))
                print(f"      {name}: {label}: {why}", flush=True)
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    print(f"device sweep: {len(kernels)} kernels: {summary}; {failures} failures")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"{len(kernels)} corpus kernels: {summary}; {failures} failures.\n\n"
                    "| kernel | outcome | why |\n|---|---|---|\n")
            for name, label, why in exceptions:
                f.write(f"| `{name}` | {label} | {why.replace('|', '/')} |\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
