#!/usr/bin/python3
"""The Khronos OpenCL Conformance Test Suite with and without the capture layer: same pass/fail set.

usage: cts_with_layer.py --cts SRC --headers SRC --spirv-headers SRC --build DIR --clcapture BIN
                         --driver ICD_OR_LIBRARY [--suite NAME[:TEST,TEST...]]... [--loader-dir DIR]
                         [--only NAME,...] [--jobs N] [--timeout SECONDS] [--json FILE] [--markdown FILE]
                         [--no-build] [--concurrent]

SRC is a checked-out folder or a bare git repository (a fetched copy of KhronosGroup/OpenCL-CTS,
OpenCL-Headers, SPIRV-Headers; exported with `git archive` into DIR). Nothing of the CTS is committed here.
The chosen suites' executables are built against the system's libOpenCL (ocl-icd), then each suite runs three
ways on DRIVER: bare (the loader given that driver alone), under `clcapture` (the shim ICD) and under
`clcapture --layer`, capture on with the launcher's defaults. Each run's per-test results come from the
harness's own JSON (CL_CONFORMANCE_RESULTS_FILENAME). Every test whose result differs from the bare run's is a
failure of this script (exit 1), as is a capture that does not load (captures.json and the sidecar must parse,
and every instantiation must name a kernel file that exists). Prints and writes the table of
docs/layer-conformance.md: suite, tests, passed bare / shim / layer, seconds each, instantiations captured.

--suite NAME runs the whole suite; NAME:a,b runs those tests (the CTS binaries take test names); NAME:!a,b runs
every test the binary lists (--list) but those. A suite whose harness exits before writing its JSON has its
results read from its log (`name passed`, `name FAILED`, `name test not supported`). The drivers' own compiler
caches are off (POCL_KERNEL_CACHE=0, CUDA_CACHE_DISABLE=1) so that every run compiles alike. --concurrent runs
the three ways of a suite at once, under the same load (each writes its own results, log and capture). The default
set is the subsets named in docs/layer-conformance.md that finish on PoCL on a 2-core machine. NAME is the
executable's (test_NAME): multiple_device_context builds test_multiples.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

DEFAULT_SUITES = [
    "computeinfo", "api:!set_command_queue_property", "compiler", "buffers", "events", "profiling", "multiples",
    "mem_host_flags", "atomics",
    "basic:hostptr,fpmath,intmath_int,intmath_long,hiloeo,if,sizeof,loop,pointer_cast,local_arg_def,"
    "local_kernel_def,local_kernel_scope,constant,constant_source,readimage,writeimage,image_r8,"
    "barrier,int2fp,fp2int,createkernelsinprogram,imagedim_pow2,wg_barrier,enqueue_map_buffer,"
    "work_item_functions,astype,async_copy_global_to_local,prefetch,kernel_call_kernel_function,"
    "host_numeric_constants,kernel_numeric_constants,kernel_limit_constants,kernel_preprocessor_macros,"
    "parameter_types,vector_creation,vector_swizzle,global_work_offsets,get_global_offset,"
    "kernel_memory_alignment_local,kernel_memory_alignment_global,global_linear_id,local_linear_id,"
    "progvar_prog_scope_misc,simple_read_image_pitch,simple_write_image_pitch,queue_priority",
    "integer_ops:integer_clz,integer_ctz,integer_hadd,integer_rhadd,integer_mul_hi,integer_rotate,"
    "integer_clamp,integer_mad_sat,integer_add_sat,integer_sub_sat,integer_abs,integer_abs_diff,"
    "popcount,quick_int_mul24,quick_int_mad24,integer_upsample",
]


def source_folder(given, work, name):
    """A checked-out folder as is; a bare git repository exported (git archive HEAD) under `work`, less the
    files whose objects the copy lacks (a fetched mirror may leave its largest files out)."""
    if os.path.isfile(os.path.join(given, "HEAD")) and not os.path.isdir(os.path.join(given, ".git")):
        folder = os.path.join(work, "src", name)
        if not os.path.isdir(folder):
            git = ["git", "--git-dir", given]
            tree = subprocess.run(git + ["ls-tree", "-r", "HEAD"], capture_output=True, text=True, check=True)
            entries = [line.split(None, 3) for line in tree.stdout.splitlines()]
            blobs = [(e[2], e[3]) for e in entries if len(e) == 4 and e[1] == "blob"]
            check = subprocess.run(git + ["cat-file", "--batch-check"], input="\n".join(b[0] for b in blobs) + "\n",
                                   capture_output=True, text=True, check=True)
            missing = [path for (sha, path), line in zip(blobs, check.stdout.splitlines()) if line.endswith("missing")]
            os.makedirs(folder)
            archive = subprocess.Popen(git + ["archive", "HEAD", "--", "."] + [f":(exclude){p}" for p in missing],
                                       stdout=subprocess.PIPE)
            subprocess.run(["tar", "-x", "-C", folder], stdin=archive.stdout, check=True)
            if archive.wait() != 0:
                sys.exit(f"cts_with_layer.py: git archive of {given} failed")
            if missing:
                print(f"{name}: {len(missing)} files the copy lacks were left out ({missing[0]}, ...)", flush=True)
        return folder
    return given


def build(args, suites):
    cts = source_folder(args.cts, args.build, "OpenCL-CTS")
    headers = source_folder(args.headers, args.build, "OpenCL-Headers")
    spirv = source_folder(args.spirv_headers, args.build, "SPIRV-Headers")
    out = os.path.join(args.build, "cts")
    lib_dir = "/usr/lib/x86_64-linux-gnu"
    subprocess.run(["cmake", "-S", cts, "-B", out, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    f"-DCL_INCLUDE_DIR={headers}", f"-DSPIRV_INCLUDE_DIR={spirv}", f"-DCL_LIB_DIR={lib_dir}",
                    "-DOPENCL_LIBRARIES=OpenCL", "-DCMAKE_CXX_FLAGS=-w", "-DCMAKE_C_FLAGS=-w"], check=True,
                   stdout=subprocess.DEVNULL)
    targets = sorted({"test_" + s.split(":")[0] for s in suites})
    subprocess.run(["cmake", "--build", out, "-j", str(args.jobs), "--target"] + targets, check=True)


def executable(args, suite):
    for root, _, files in os.walk(os.path.join(args.build, "cts")):
        if "test_" + suite in files:
            return os.path.join(root, "test_" + suite)
    sys.exit(f"cts_with_layer.py: test_{suite} was not built under {args.build}/cts")


def driver_library(driver):
    if driver.endswith(".icd"):
        with open(driver, encoding="utf-8") as f:
            return f.readline().strip()
    return driver


def load_capture(folder):
    """(instantiations, problem): the capture must load, and each instantiation's kernel file exist."""
    if not os.path.exists(os.path.join(folder, "captures.json")):
        return 0, None  # no launch captured (a suite may launch nothing with source)
    try:
        with open(os.path.join(folder, "captures.json"), encoding="utf-8") as f:
            captures = json.load(f)
        with open(os.path.join(folder, "captures.meta.json"), encoding="utf-8") as f:
            json.load(f)
    except (OSError, ValueError) as e:
        return 0, f"the capture in {folder} does not load: {e}"
    missing = [c["kernel_file"] for c in captures if not os.path.exists(os.path.join(folder, c["kernel_file"]))]
    if missing:
        return len(captures), f"{len(missing)} instantiations name kernel files that are not there ({missing[0]})"
    return len(captures), None


def listed_tests(args, suite):
    """The sub-tests the suite's binary lists (--list), in its order."""
    proc = subprocess.run([executable(args, suite), "--list"], capture_output=True, text=True, timeout=120)
    names = []
    for line in proc.stdout.splitlines():
        word = line.strip()
        if word and " " not in word and not word.endswith(":"):
            names.append(word)
    return names


def results_from_log(output):
    """Per-test results from the harness's lines, for a run that ended before it wrote its JSON."""
    results = {}
    for line in output.splitlines():
        m = re.match(r"^(\w+) (passed|FAILED|test not supported|skipped\b.*)$", line)
        if m:
            results[m.group(1)] = {"passed": "pass", "FAILED": "fail"}.get(m.group(2), "skip")
    return results


def run_suite(args, suite, tests, mode, env, work):
    results = os.path.join(work, f"{suite}-{mode}.json")
    capture = os.path.join(work, f"{suite}-{mode}-capture")
    shutil.rmtree(capture, ignore_errors=True)
    if os.path.exists(results):
        os.remove(results)
    command = [executable(args, suite)] + tests
    if mode != "bare":
        command = [args.clcapture] + (["--layer"] if mode == "layer" else []) + [
            "--icd", args.driver, "--dir", capture, "--"] + command
    run_env = dict(env, CL_CONFORMANCE_RESULTS_FILENAME=results)
    if mode == "bare":
        run_env.update(OCL_ICD_VENDORS=os.path.join(work, "vendors"), OCL_ICD_FILENAMES=driver_library(args.driver))
    start = time.monotonic()
    try:
        proc = subprocess.run(command, env=run_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=args.timeout, stdin=subprocess.DEVNULL,
                              cwd=os.path.dirname(executable(args, suite)))
        output, code = proc.stdout, proc.returncode
    except subprocess.TimeoutExpired as e:
        partial = e.stdout or ""
        output = partial.decode(errors="replace") if isinstance(partial, bytes) else partial
        code = "timeout"
    seconds = time.monotonic() - start
    with open(os.path.join(work, f"{suite}-{mode}.log"), "w", encoding="utf-8") as f:
        f.write(output)
    per_test = {}
    if os.path.exists(results):
        with open(results, encoding="utf-8") as f:
            per_test = json.load(f).get("results", {})
    if not per_test:
        per_test = results_from_log(output)
    instantiations, problem = (0, None) if mode == "bare" else load_capture(capture)
    return {"results": per_test, "exit": code, "seconds": round(seconds, 1), "instantiations": instantiations,
            "capture_problem": problem}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cts", required=True)
    ap.add_argument("--headers", required=True)
    ap.add_argument("--spirv-headers", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--clcapture", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--suite", action="append")
    ap.add_argument("--only", help="comma-separated suite names: the default set's entries for those suites")
    ap.add_argument("--loader-dir")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--concurrent", action="store_true",
                    help="run each suite's bare, shim and layer runs at once (a machine with cores to spare)")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.clcapture = os.path.abspath(args.clcapture)
    suites = args.suite or DEFAULT_SUITES
    if args.only:
        wanted = args.only.split(",")
        suites = [s for s in suites if s.split(":")[0] in wanted]
    if not args.no_build:
        build(args, suites)
    work = os.path.join(args.build, "runs")
    os.makedirs(os.path.join(work, "vendors"), exist_ok=True)
    with open(os.path.join(work, "vendors", "driver.icd"), "w", encoding="utf-8") as f:
        f.write(driver_library(args.driver) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLCAPTURE_", "OCL_ICD", "OPENCL_LAYERS"))}
    env.update(POCL_KERNEL_CACHE="0", CUDA_CACHE_DISABLE="1")
    if args.loader_dir:
        env["LD_LIBRARY_PATH"] = args.loader_dir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    rows, failures = [], []
    for spec in suites:
        suite, _, names = spec.partition(":")
        tests = [t for t in names.lstrip("!").split(",") if t]
        listed = listed_tests(args, suite) if tests else []
        if names.startswith("!"):
            tests = [t for t in listed if t not in tests]
        elif tests:
            unknown = [t for t in tests if t not in listed]
            if unknown:
                print(f"{suite}: this CTS has no test {', '.join(unknown)}: left out", flush=True)
            tests = [t for t in tests if t in listed]
        if args.concurrent:
            with concurrent.futures.ThreadPoolExecutor(3) as pool:
                futures = {mode: pool.submit(run_suite, args, suite, tests, mode, env, work)
                           for mode in ("bare", "shim", "layer")}
                runs = {mode: f.result() for mode, f in futures.items()}
        else:
            runs = {mode: run_suite(args, suite, tests, mode, env, work) for mode in ("bare", "shim", "layer")}
        bare = runs["bare"]["results"]
        if not bare:
            failures.append(f"{suite}: the bare run wrote no results (exit {runs['bare']['exit']}; log in {work})")
        for mode in ("shim", "layer"):
            got = runs[mode]["results"]
            # A run cut by --timeout reports the tests it finished: compare those both runs finished.
            cut = "timeout" in (runs["bare"]["exit"], runs[mode]["exit"])
            compared = set(bare) & set(got) if cut else set(bare) | set(got)
            for test in sorted(compared):
                if bare.get(test) != got.get(test):
                    failures.append(f"{suite}/{test}: {bare.get(test, 'not run')} bare, {got.get(test, 'not run')} "
                                    f"under clcapture ({mode})")
            if not cut and runs[mode]["exit"] != runs["bare"]["exit"]:
                failures.append(f"{suite}: exit status {runs['bare']['exit']} bare, {runs[mode]['exit']} under "
                                f"clcapture ({mode})")
            if runs[mode]["capture_problem"]:
                failures.append(f"{suite} ({mode}): {runs[mode]['capture_problem']}")
        row = {"suite": spec if len(spec) < 40 else spec[:37] + "...", "tests": len(bare),
               "exit": runs["bare"]["exit"]}
        for mode in ("bare", "shim", "layer"):
            row[f"passed_{mode}"] = sum(1 for r in runs[mode]["results"].values() if r == "pass")
            row[f"seconds_{mode}"] = runs[mode]["seconds"]
        row["instantiations_shim"] = runs["shim"]["instantiations"]
        row["instantiations_layer"] = runs["layer"]["instantiations"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"driver": args.driver, "rows": rows, "failures": failures}, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("| suite | tests | passed bare | passed shim | passed layer | s bare | s shim | s layer "
                    "| captured (shim / layer) |\n|---|---|---|---|---|---|---|---|---|\n")
            for r in rows:
                f.write(f"| {r['suite']} | {r['tests']} | {r['passed_bare']} | {r['passed_shim']} | "
                        f"{r['passed_layer']} | {r['seconds_bare']} | {r['seconds_shim']} | {r['seconds_layer']} | "
                        f"{r['instantiations_shim']} / {r['instantiations_layer']} |\n")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(rows)} suites, {sum(r['tests'] for r in rows)} tests: "
          + ("the same results with and without the layer" if not failures else f"{len(failures)} differences"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
