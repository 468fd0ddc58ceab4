#!/usr/bin/python3
"""The query-diff harness: the layer must not change a single answer the application gets.

usage: query_diff.py --app QUERY_DIFF_APP --clcapture CLCAPTURE --driver ICD_OR_LIBRARY --work DIR [--loader-dir DIR]

--loader-dir puts that folder first in LD_LIBRARY_PATH for every run, to choose the ICD loader the app gets
(a CUDA machine has the Khronos loader and ocl-icd side by side: docs/drivers-and-loaders.md).

Runs QueryDiffApp (every object, every clGet*Info parameter name, every deliberate refusal; one line per
answer) four ways on one driver: bare twice (the loader given only that driver), under `clcapture` (the shim
ICD) and under `clcapture --layer` (OPENCL_LAYERS). Handles, host addresses and profiling times are already
names or masks in the app's output; MASKS below hides what the driver itself answers differently from one
bare run to the next, each with its reason. The two bare runs must then agree (else a mask is missing and
the harness says which line), and each captured run must agree with the bare one line for line. Then the
captures are checked: the launches the app made are in them, with the argument kinds and names the driver
gave (on PoCL through the layer's private build: engine/ParameterLearning.h).
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)

# (pattern, replacement, why the driver's own answer varies between two bare runs)
MASKS = [
    (re.compile(r"tempfile_\w+\.cl"), "tempfile_X.cl",
     "PoCL compiles from a temporary file whose random name its build log quotes"),
    (re.compile(r"^(\S+ clGetEventInfo\(CL_EVENT_REFERENCE_COUNT\) -> 0 size=4 0) 0x\w+$"), r"\1 counted",
     "a driver's own threads hold references to an event while they finish its command"),
    (re.compile(r"^(\S+ clGetProgramInfo\(CL_PROGRAM_BINARY_SIZES\) -> 0 size=\d+ 0) 0x\w+$"), r"\1 sizes",
     "PoCL's binary holds the kernels compiled so far, which depends on its kernel cache"),
    (re.compile(r"^(\S+ clGetProgramInfo\(CL_PROGRAM_BINARIES\)\[\d+\] -> 0) size=\d+ fnv1a=\w+$"), r"\1 bytes",
     "PoCL's binary holds the kernels compiled so far, which depends on its kernel cache"),
    (re.compile(r"^(\S+ clGetKernelInfo\(CL_KERNEL_ATTRIBUTES\) -> 0 size=\d+ 0) 0x[0-9a-f]{32}([0-9a-f]*)$"),
     r"\1 ...\2",
     "Oclgrind 21.10 answers CL_KERNEL_ATTRIBUTES with 16 bytes of freed memory before the text's tail"),
    (re.compile(r"^(\S+\.unbuilt clGetProgramBuildInfo\(CL_PROGRAM_BINARY_TYPE\) -> 0 size=4 0) 0x\w+$"),
     r"\1 unset",
     "Oclgrind 21.10 leaves a program's binary type uninitialised until it is built (Program.cpp)"),
]


def normalise(lines):
    out = []
    for line in lines:
        for pattern, replacement, _ in MASKS:
            line = pattern.sub(replacement, line)
        out.append(line)
    return out


def run(argv, env, label):
    proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        sys.exit(f"FAIL: the app {label} exited with {proc.returncode}\n{proc.stderr[-3000:]}")
    return normalise(proc.stdout.splitlines()), proc.stderr


def differences(a, b, label_a, label_b):
    return [line for line in difflib.unified_diff(a, b, label_a, label_b, n=0, lineterm="")]


def check_capture(folder, label, failures):
    try:
        with open(os.path.join(folder, "captures.json"), encoding="utf-8") as f:
            captures = json.load(f)
        sidecar = sidecar_expand.load(folder)
    except (OSError, ValueError) as e:
        failures.append(f"{label}: the capture in {folder} does not load: {e}")
        return
    # fill's signature is plain (the layer reads it from the source); copyVia's is behind a function-like macro
    # (the layer builds a private copy of the program): both must carry the driver's facts.
    expected = {
        "fill": [("buffer", "out", "global"), ("buffer", "in", "constant"), ("local", "scratch", "local"),
                 ("scalar", "n", None), ("scalar", "p", None)],
        "copyVia": [("buffer", "to", "global"), ("buffer", "from", "global")],
    }
    for kernel, want in expected.items():
        found = [i for i, c in enumerate(captures) if c.get("entry_point") == kernel]
        if not found:
            failures.append(f"{label}: the launch of {kernel} is not in the capture ({len(captures)} instantiations)")
            continue
        launch = next(l for l in sidecar["launches"] if l.get("instantiation") == found[0])
        got = [(a.get("kind"), a.get("name"), a.get("address_qualifier")) for a in launch["arguments"]]
        if got != want:
            failures.append(f"{label}: {kernel}'s arguments in the sidecar are {got}, not {want} (the driver's "
                            "clGetKernelArgInfo answers, or what the source or a private build says where the "
                            "application's build has none)")
        if captures[found[0]].get("compiler_flags") != "-DFOO=2 -cl-std=CL1.2":
            failures.append(f"{label}: {kernel}'s compiler_flags are {captures[found[0]].get('compiler_flags')!r}, "
                            "not the application's own")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--clcapture", required=True)
    parser.add_argument("--driver", required=True, help="an .icd file or the driver library")
    parser.add_argument("--work", required=True)
    parser.add_argument("--loader-dir", help="put this folder's libOpenCL.so.1 in front (LD_LIBRARY_PATH)")
    parser.add_argument("--skip-layer", metavar="WHY",
                        help="no OPENCL_LAYERS run (a loader that does not load layers: say which and why)")
    args = parser.parse_args()

    shutil.rmtree(args.work, ignore_errors=True)
    vendors = os.path.join(args.work, "vendors")
    os.makedirs(vendors)
    library = args.driver
    if args.driver.endswith(".icd"):
        with open(args.driver, encoding="utf-8") as f:
            library = f.readline().strip()
    with open(os.path.join(vendors, "driver.icd"), "w", encoding="utf-8") as f:
        f.write(library + "\n")
    # The caller's capture settings cleared, but not the suite's free-space floor (tests/TestEnvironment.cmake):
    # on a disk under 10 % free the layer's default floor would leave the buffers without bytes.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CLCAPTURE_", "OCL_ICD", "OPENCL_LAYERS")) or k == "CLCAPTURE_MIN_FREE"}
    if args.loader_dir:
        env["LD_LIBRARY_PATH"] = args.loader_dir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    # ocl-icd reads OCL_ICD_VENDORS; the Khronos loader of CUDA 13 ignores it and reads OCL_ICD_FILENAMES.
    bare_env = dict(env, OCL_ICD_VENDORS=vendors, OCL_ICD_FILENAMES=library)

    # One unrecorded run first: a driver's own compiler cache (PoCL's kcache, NVIDIA's ComputeCache) makes the
    # first build's log differ from every later one's.
    run([args.app], bare_env, "bare (warm-up)")
    bare, _ = run([args.app], bare_env, "bare")
    control, _ = run([args.app], bare_env, "bare (second run)")
    failures = []
    control_diff = differences(bare, control, "bare", "bare again")
    if control_diff:
        failures.append("two bare runs differ: the driver answers these differently each time, so the harness "
                        "needs a mask for them (MASKS):\n" + "\n".join(control_diff[:40]))
    captures = {}
    front_ends = ("shim",) if args.skip_layer else ("shim", "layer")
    if args.skip_layer:
        print(f"the layer front end is not run: {args.skip_layer}")
    for front_end in front_ends:
        folder = os.path.join(args.work, f"capture-{front_end}")
        argv = [args.clcapture] + (["--layer"] if front_end == "layer" else []) + [
            "--icd", args.driver, "--dir", folder, "--", args.app]
        captured, _ = run(argv, env, f"under clcapture ({front_end})")
        diff = differences(bare, captured, "bare", f"under clcapture ({front_end})")
        if diff:
            changed = sum(1 for d in diff if d.startswith("+") and not d.startswith("+++"))
            failures.append(f"under clcapture ({front_end}) the application sees {changed} answers that differ "
                            "from the bare run's:\n" + "\n".join(diff[:60]))
        captures[front_end] = folder
        check_capture(folder, front_end, failures)
    print(f"query-diff on {args.driver}: {len(bare)} answers compared, bare twice, " + " and ".join(front_ends))
    if failures:
        print("\n\n".join("FAIL: " + f for f in failures))
        return 1
    print("PASS: every answer is the same with and without the layer (" + " and ".join(front_ends) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
