#!/usr/bin/python3
"""clcapture-instrument on the corpus (tests/kernels): each kernel instrumented (every work-item records),
compiled by clang-16, then run on PoCL plain and instrumented from the same inputs; the buffers must be the
same (the instrumented kernel keeps the kernel's meaning) and the trace must be well formed (every work-item
recorded, its sequence numbers 0, 1, 2, … without a gap, every record's site and length the layout's).

usage: instrument_sweep.py CORPUS_DIR --instrument BIN [--every N] [--kernel KERNEL.cl]...

Launches come from the corpus headers (tests/kernels/run_kernel.py); a buffer without contents gets bytes 3,
10, 17, … (1 MiB when the header gives no size, as corpus_sweep.py); kernels with images, samplers or aliased arguments are not run (listed). Outcomes: equal; not run;
differs (a failure for a race-free `//pass` kernel; for a racy or out-of-bounds one the device's order may
differ run to run); nondeterministic (two plain runs already differ); crashes plain (the kernel's own
out-of-bounds access brings PoCL down; each kernel runs in a child process); crashes (the instrumented run of
a kernel with a defect, which may also crash plain); hangs plain, hangs (likewise: a divergent barrier).
Exit status 1 on any failure.
"""
import argparse
import glob
import math
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "kernels"))
import run_kernel  # noqa: E402

from debug_testing import POCL, Failure, same_output  # noqa: E402
from instrument_testing import Trace, clang_compiles, instrument, trace_buffer  # noqa: E402

TRACE_WORDS = 1 << 22


def arguments(params, launch, inst, entry_site):
    """The ctypes driver's arguments for the corpus header's launch, or a reason it cannot run."""
    from opencl_ctypes import Local, Scalar
    sizes = {v["name"]: v["size"] for v in entry_site["values"]}
    items = math.prod(inst.get("global_size", [1]))
    local_items = math.prod(inst.get("local_size", inst.get("global_size", [1])))
    args = []
    for name, kind in params:
        if kind in ("image", "sampler"):
            return None, "images and samplers"
        if name in launch["alias"]:
            return None, "aliased arguments"
        if kind in ("global", "constant"):
            if name in launch["data"]:
                data = struct.pack("<%di" % len(run_kernel.data_ints(launch["data"][name])),
                                   *run_kernel.data_ints(launch["data"][name]))
                size = int(launch["sizes"].get(name, len(data)))
                data = (data + bytes(size))[:max(size, len(data))]
            else:
                size = int(launch["sizes"].get(name, max(1 << 20, 64 * items)))
                pattern = bytes((i * 7 + 3) & 0xff for i in range(256))
                data = (pattern * (size // 256 + 1))[:size]
            args.append(bytearray(data))
        elif kind == "local":
            args.append(Local(int(launch["sizes"].get(name, max(1024, 64 * local_items)))))
        elif name in launch["args"]:  # one integer in the device's (little-endian) byte order
            size = sizes.get(name, (len(launch["args"][name]) - 1) // 2)
            args.append(Scalar((int(launch["args"][name], 16) % (1 << (8 * size))).to_bytes(size, "little")))
        elif name in sizes:
            args.append(Scalar(bytes(sizes[name])))
        else:
            return None, f"scalar {name} of a type the layout does not record"
    return args, None


def sweep_one(device, path, args):
    name = os.path.relpath(path, args.corpus)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    expected, options, _ = run_kernel.parse_header(text)
    print("EXPECTED " + expected, flush=True)  # for the parent, should PoCL crash
    entry, params, inst, launch = run_kernel.launch_of(text, options)
    flags = inst.get("compiler_flags", "")
    result = instrument(args.instrument, path, entry, ["--options", flags], show=False)
    clang_compiles(result.full, flags, os.path.dirname(path), show=False)
    kernel_args, why = arguments(params, launch, inst, result.sites("entry", entry)[0])
    if kernel_args is None:
        return name, "not run", why
    items = math.prod(inst["global_size"])
    local = inst.get("local_size")
    required = re.search(r"reqd_work_group_size\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)", text)
    if local is None and required:  # the kernel's own size, which PoCL wants when none is given
        local = [int(v) for v in required.groups()][:len(inst["global_size"])]
    launch_shape = dict(global_size=inst["global_size"], local_size=local, offset=inst.get("global_offset"),
                        options=flags)
    from opencl_ctypes import OpenClError
    try:
        plain = device.run(text, entry, kernel_args, **launch_shape)
    except OpenClError as e:
        return name, "not run", "PoCL: " + str(e).splitlines()[0]
    print("PLAIN RAN", flush=True)  # for the parent: a crash after this line is the instrumented kernel's
    traced = device.run(result.full, entry, kernel_args + [trace_buffer(TRACE_WORDS)], **launch_shape)
    trace = Trace(traced[-1], result.layout)
    trace.check_structure(items)
    if trace.dropped == 0 and set(trace.by_item()) != set(range(items)):
        raise Failure(f"{name}: {items - len(trace.by_item())} work-items recorded nothing")
    different = [i for i, (a, b) in enumerate(zip(plain, traced)) if a is not None and not same_output(a, b, text)]
    if not different:
        return name, "equal", f"{len(trace.records)} records"
    again = device.run(text, entry, kernel_args, **launch_shape)
    if any(a is not None and not same_output(a, b, text) for a, b in zip(plain, again)):
        return name, "nondeterministic", "two plain runs differ"
    if expected == "verified":
        raise Failure(f"{name}: the instrumented kernel wrote other bytes (arguments {different})")
    return name, "differs", f"a {expected} kernel (arguments {different})"


def run_child(path, args):
    """One kernel in a child process: a kernel's own out-of-bounds write can bring PoCL down."""
    name = os.path.relpath(path, args.corpus)
    cmd = [sys.executable, os.path.abspath(__file__), args.corpus, "--instrument", args.instrument, "--one", path]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as e:
        partial = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        if "PLAIN RAN" not in partial:
            return name, "hangs plain", "the plain run did not end in 120 s (the kernel's own fault)"
        if "EXPECTED verified" not in partial:
            return name, "hangs", "the instrumented run of a kernel with a defect did not end in 120 s"
        return name, "FAIL", "the instrumented run did not end in 120 s"
    lines = r.stdout.strip().splitlines()
    if r.returncode == 0 and lines and lines[-1].startswith("OUTCOME\t"):
        _, outcome, detail = lines[-1].split("\t", 2)
        return name, outcome, detail
    if r.returncode < 0 and "PLAIN RAN" not in lines:
        return name, "crashes plain", f"signal {-r.returncode} in the plain run (the kernel's own fault)"
    if r.returncode < 0 and "EXPECTED verified" not in lines:
        # A kernel with a race or an out-of-bounds access: whether it crashes PoCL depends on the run.
        return name, "crashes", f"signal {-r.returncode} in the instrumented run of a kernel with a defect"
    return name, "FAIL", (r.stdout + r.stderr).strip()[-2000:] or f"exit {r.returncode}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("corpus")
    p.add_argument("--kernel", action="append", default=[])
    p.add_argument("--instrument", required=True)
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--one", help=argparse.SUPPRESS)
    args = p.parse_args()
    os.environ.setdefault("OCL_ICD_VENDORS", POCL)
    if args.one:
        from opencl_ctypes import Device
        try:
            name, outcome, detail = sweep_one(Device(), args.one, args)
        except Failure as e:
            print(f"OUTCOME\tFAIL\t{e}")
            return 0
        print(f"OUTCOME\t{outcome}\t{detail}")
        return 0
    paths = args.kernel or sorted(glob.glob(os.path.join(args.corpus, "**", "*.cl"), recursive=True))[::args.every]
    counts, failures = {}, []
    for path in paths:
        name, outcome, detail = run_child(path, args)
        if outcome == "FAIL":
            failures.append(name)
        counts[outcome] = counts.get(outcome, 0) + 1
        print(f"{outcome:16} {name}  {detail}", flush=True)
    print(", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    if failures:
        print("FAIL: " + ", ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
