#!/usr/bin/python3
"""Checks a capture folder written by libclcapture.so for one of the samples.

usage: check_capture.py SAMPLE DIR SCHEMAS_DIR|--no-schema

Every capture must validate against schemas/, be accepted by GPUVerify's own loader (its rules restated in
tests/schema/gpuverify_loader_rules.py, strict mode), name kernel files that exist and hold the entry point,
and pair each instantiation with exactly one launch in the sidecar. Then the sample's own expectations are
checked: instantiation count, sizes, argument kinds, flags, scalar values. Exits 1 with one line per
failed expectation.
"""
import ctypes
import json
import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import gpuverify_loader_rules  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)
import capture_blobs  # noqa: E402  (tools/: blobs loose or packed)

failures = []
NO_SCHEMA = "--no-schema" in sys.argv


def expect(condition, message):
    if not condition:
        failures.append(message)


def array(size, space, flags=None):
    arg = {"type": "array", "size": size, "address_space": space}
    if flags is not None:
        arg["flags"] = flags
    return arg


def scalar(value):
    return {"type": "scalar", "value": value}


def without_data(args):
    return [{k: v for k, v in a.items() if k != "data"} for a in args]


def data_of(folder, arg):
    """The captured bytes of an array argument (None when it has none)."""
    if "data" not in arg:
        return None
    return capture_blobs.read(folder, arg["data"])


def ints(values):
    return struct.pack(f"<{len(values)}i", *values)


def floats(values):
    return struct.pack(f"<{len(values)}f", *values)


def device_version(meta):
    """The first launch's device version as 10 x major + minor ("OpenCL 3.0 PoCL" -> 30)."""
    text = meta["launches"][0]["device"]["version"].split()[1] if meta["launches"] else "1.0"
    major, minor = text.split(".")[:2]
    return int(major) * 10 + int(minor[0])


def compiles_alone(folder, inst):
    """Clang 16 parses the stored kernel with its compiler flags, from a scratch folder (no -I paths left).
    On a machine without Debian's packages (--no-schema, the GPU machine) the check is left to the test suite."""
    import shlex
    import shutil
    if NO_SCHEMA and not shutil.which("clang-16"):
        print("note: clang-16 not found; the stored kernel was not compiled")
        return True
    import subprocess
    import tempfile
    flags = [f for f in shlex.split(inst.get("compiler_flags", "")) if f.startswith(("-D", "-cl-std"))]
    with tempfile.TemporaryDirectory() as scratch:
        r = subprocess.run(["clang-16", "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                            "-fsyntax-only", *flags, os.path.join(os.path.abspath(folder), inst["kernel_file"])],
                           cwd=scratch, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr)
    return r.returncode == 0


SAMPLES = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples"))
# The sample's host source for each capture test that checks host_api_calls.
SAMPLE_SOURCES = {"reduce": "reduce.c", "reduce-racy": "reduce.c", "struct_arg": "struct_arg.c",
                  "user_event": "user_event.c", "threads": "threads.c", "threads-launches-4-7-nodata": "threads.c",
                  "killed": "bench_launches.c", "reduce-nodebug": "reduce.c", "reduce-stripped": "reduce.c",
                  "reduce-no-libdw": "reduce.c"}


def call_lines(path, function):
    """{first argument or None: line} of the calls to `function` in a source file (a call, not a comment or
    an error string: the name directly after `(` or `=`)."""
    lines = {}
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"[(=]\s*" + function + r"\((\w+)(?:,\s*(\d+))?", text)
            if m:
                key = int(m.group(2)) if function == "clSetKernelArg" else None
                expect(key not in lines, f"{path}: {function} called twice; the test cannot tell which")
                lines[key] = number
    expect(lines, f"{path}: no call to {function}")
    return lines


def buffer_creations(path):
    """{argument index: line} of the clCreateBuffer that made each buffer argument of the sample: the variable
    clSetKernelArg passes (`&out`) and the line `cl_mem out = clCreateBuffer(`."""
    with open(path, encoding="utf-8") as f:
        text = f.read().splitlines()
    created = {m.group(1): n for n, line in enumerate(text, 1)
               for m in [re.search(r"cl_mem\s+(\w+)\s*=\s*clCreateBuffer\(", line)] if m}
    out = {}
    for line in text:
        m = re.search(r"clSetKernelArg\(\w+,\s*(\d+),[^,]*,\s*&(\w+)\)", line)
        if m and m.group(2) in created:
            out[int(m.group(1))] = created[m.group(2)]
    return out


def expected_host_calls(source, num_args):
    """(function, argument, file, line) of the calls behind one launch of a sample, computed from its source:
    the program is built in common/sample_util.h, buffers are created, arguments set and the kernel launched
    in the sample."""
    util = os.path.join(SAMPLES, "common", "sample_util.h")
    main = os.path.join(SAMPLES, source)
    set_lines = call_lines(main, "clSetKernelArg")
    creations = buffer_creations(main)
    expect(creations, f"{main}: no buffer argument made by clCreateBuffer")
    return ([("clCreateProgramWithSource", None, util, call_lines(util, "clCreateProgramWithSource")[None]),
             ("clBuildProgram", None, util, call_lines(util, "clBuildProgram")[None])] +
            [("clCreateBuffer", i, main, line) for i, line in sorted(creations.items())] +
            [("clSetKernelArg", i, main, set_lines.get(i)) for i in range(num_args)] +
            [("clEnqueueNDRangeKernel", None, main, call_lines(main, "clEnqueueNDRangeKernel")[None])])


def libdw_available():
    """Whether this machine has elfutils' libdw, which libclcapture.so opens for file:line call sites (a stock
    GPU machine has none; the capture then records module and offset only)."""
    try:
        ctypes.CDLL("libdw.so.1")
        return True
    except OSError:
        return False


def check_host_calls(sample, captures, launches, repeats):
    """docs/contract.md §3 host_api_calls: the exact file and line of the sample's own calls, from DWARF; the sidecar's
    host_calls add the argument index, module and calling function. Without debug info (a copy of the
    sample with its DWARF stripped) the sidecar still names the calls and their function, captures.json has
    no host_api_calls (the seed requires a file and line); fully stripped, only module and offset remain.
    A launch in `repeats` (its sidecar entry repeats its slot's host calls) has no host_api_calls in
    captures.json: clcapture's reader takes them from the sidecar, so they are checked there."""
    for i, inst in enumerate(captures):
        want = expected_host_calls(SAMPLE_SOURCES[sample], len(inst.get("kernel_arguments", [])))
        calls = launches[i].get("host_calls", []) if i in launches else []
        got = [(c["function_name"], c.get("argument"), c.get("compilation_unit"), c.get("line_number"))
               for c in calls]
        if sample == "reduce-no-libdw" or not libdw_available():
            # libdw missing: the dynamic linker's dladdr gives module and offset; the sample's functions are
            # not in its dynamic symbol table, so no caller is named, and no file:line reaches captures.json.
            binary = os.path.splitext(SAMPLE_SOURCES[sample])[0]
            expect("host_api_calls" not in inst, f"instantiation {i}: host_api_calls without libdw")
            expect(got == [(f, a, None, None) for f, a, _, _ in want], f"instantiation {i}: host_calls {got}")
            expect(all(os.path.basename(c["module"]) == binary and c["module_offset"] > 0 for c in calls),
                   f"instantiation {i}: modules {[(c['module'], c['module_offset']) for c in calls]}")
            continue
        if sample in ("reduce-nodebug", "reduce-stripped"):
            expect("host_api_calls" not in inst, f"instantiation {i}: host_api_calls without debug info")
            expect(got == [(f, a, None, None) for f, a, _, _ in want], f"instantiation {i}: host_calls {got}")
            expect(all(os.path.basename(c["module"]) == sample and c["module_offset"] > 0 for c in calls),
                   f"instantiation {i}: modules {[c['module'] for c in calls]}")
            callers = [c.get("caller") for c in calls]
            if sample == "reduce-nodebug":  # the symbol table survives --strip-debug
                expect(callers[2:] == ["main"] * (len(calls) - 2) and
                       all(c in ("main", "sample_build") for c in callers[:2]), f"callers {callers}")
            else:
                expect(callers == [None] * len(calls), f"callers of a stripped binary: {callers}")
            continue
        if i in repeats:
            expect("host_api_calls" not in inst, f"instantiation {i}: a repeat with host_api_calls")
            written = [c for c in calls if "line_number" in c]
        else:
            written = inst.get("host_api_calls", [])
        api = [(f, os.path.realpath(u), l) for f, u, l in
               ((c["function_name"], c["compilation_unit"], c["line_number"]) for c in written)]
        expect(api == [(f, u, l) for f, _, u, l in want],
               f"instantiation {i}: host_api_calls {api}, expected {[(f, u, l) for f, _, u, l in want]}")
        expect([(f, a, os.path.realpath(u) if u else u, l) for f, a, u, l in got] == want,
               f"instantiation {i}: sidecar host_calls {got}")
        expect(all(c.get("caller") for c in calls), f"instantiation {i}: every call names its function")


def check_common(captures, meta, folder):
    launches = {l["instantiation"]: l for l in meta["launches"] if l["instantiation"] is not None}
    for i, inst in enumerate(captures):
        kernel = os.path.join(folder, inst["kernel_file"])
        expect(os.path.isfile(kernel), f"instantiation {i}: kernel file {inst['kernel_file']} missing")
        if os.path.isfile(kernel):
            with open(kernel, encoding="utf-8") as f:
                expect(f"kernel void {inst['entry_point']}(" in f.read(),
                       f"instantiation {i}: kernel file does not define {inst['entry_point']}")
        expect(i in launches, f"instantiation {i}: no launch facts in the sidecar")
        if i in launches:
            expect(launches[i]["kernel_name"] == inst["entry_point"], f"instantiation {i}: sidecar names another kernel")
        for k, arg in enumerate(inst.get("kernel_arguments", [])):
            skipped = i in launches and k < len(launches[i]["arguments"]) and \
                launches[i]["arguments"][k].get("data_skipped")
            if arg.get("type") == "array" and arg.get("address_space") in ("global", "constant") and not skipped:
                data = data_of(folder, arg)
                expect(data is not None, f"instantiation {i}: argument {k}: buffer contents missing")
                expect(data is None or len(data) == arg["size"], f"instantiation {i}: argument {k}: data size")
            expect(len(launches[i]["arguments"]) == len(inst.get("kernel_arguments", [])),
                   f"instantiation {i}: sidecar has a different argument count")
    return launches


def main():
    sample, folder, schemas = sys.argv[1], sys.argv[2], sys.argv[3]
    if sample == "nothing":
        # A filter that matches no launch: no capture folder is created at all.
        expect(not os.path.exists(folder), f"expected no capture folder, found {folder}")
        for f in failures:
            print(f"{folder}: {f}")
        if not failures:
            print(f"{folder}: nothing captured, as expected")
        return 1 if failures else 0
    with open(os.path.join(folder, "captures.json"), encoding="utf-8") as f:
        captures = json.load(f)
    with open(os.path.join(folder, "captures.meta.json"), encoding="utf-8") as f:
        raw_meta = json.load(f)
    meta = sidecar_expand.expand(json.loads(json.dumps(raw_meta)))
    # --no-schema: for machines without Debian's python3-jsonschema (the GPU machine); tests always validate.
    checks = [] if schemas == "--no-schema" else [("captures.schema.json", captures), ("captures.meta.schema.json", raw_meta)]
    if checks:
        import jsonschema
    for name, doc in checks:
        with open(os.path.join(schemas, name), encoding="utf-8") as f:
            schema = json.load(f)
        for e in jsonschema.Draft202012Validator(schema).iter_errors(doc):
            failures.append(f"{name}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    # docs/contract.md §3: GPUVerify's own loader accepts captures.json (it turns away the whole file for one bad value).
    for v in gpuverify_loader_rules.check(captures, strict=True):
        failures.append(gpuverify_loader_rules.describe("captures.json", v))
    launches = check_common(captures, meta, folder)
    if sample in SAMPLE_SOURCES:
        repeats = {l["instantiation"] for l in raw_meta["launches"] if "like" in l and "host_calls" not in l}
        check_host_calls(sample, captures, launches, repeats)

    if sample == "reduce-no-call-sites":
        expect(len(captures) == 1 and 0 in launches and "host_api_calls" not in captures[0] and
               "host_calls" not in launches[0],
               "CLCAPTURE_CALL_SITES=off records no call sites")
    if sample in ("reduce", "reduce-racy", "reduce-nodebug", "reduce-stripped", "reduce-no-call-sites",
                  "reduce-no-libdw"):
        expect(len(captures) == 1, f"expected 1 instantiation, got {len(captures)}")
        inst = captures[0]
        expect(inst["entry_point"] == "reduce", "entry point")
        expect(inst["global_size"] == [256] and inst.get("local_size") == [64], "sizes")
        expect(inst["compiler_flags"] == ("-DRACY" if sample == "reduce-racy" else ""), "the app's own build options")
        expect(without_data(inst["kernel_arguments"]) == [
            array(1024, "global", ["CL_MEM_READ_ONLY", "CL_MEM_COPY_HOST_PTR"]),
            array(16, "global", ["CL_MEM_WRITE_ONLY"]),
            {"type": "array", "size": 256, "address_space": "local"}], f"arguments: {inst['kernel_arguments']}")
        expect(data_of(folder, inst["kernel_arguments"][0]) == ints([i % 97 + 1 for i in range(256)]),
               "input buffer contents at launch")
        expect([a["kind"] for a in launches[0]["arguments"]] == ["buffer", "buffer", "local"], "sidecar kinds")
    elif sample == "program_forms":
        # Compiled with an input header and a -I include, then linked with a second program; cloned where the
        # platform is OpenCL 2.1+ (the clone keeps bias 1000 while the original is set back to 0).
        clone = device_version(meta) >= 21
        expect(len(captures) == (2 if clone else 1), f"expected {2 if clone else 1} instantiations, got {len(captures)}")
        inst = captures[0]
        expect(inst["entry_point"] == "apply" and inst["global_size"] == [64], "entry point and size")
        expect(launches[0]["program_origin"] == "linked", "the sidecar says the program was linked")
        kernel_text = open(os.path.join(folder, inst["kernel_file"]), encoding="utf-8").read()
        expect("#define SCALE 3" in kernel_text and "#define OFFSET 7" in kernel_text,
               "the input header and the -I include are inlined into the stored source")
        expect("#include" not in kernel_text.replace("begin #include", "").replace("end #include", ""),
               "no #include is left to resolve")
        expect(compiles_alone(folder, inst), "the stored kernel compiles from the capture folder alone")
        expect(data_of(folder, inst["kernel_arguments"][0]) == ints(range(64)), "buffer contents at launch")
        expect(inst["kernel_arguments"][1] == scalar("0x00000000"), "bias of the original kernel")
        if clone:
            expect(captures[1]["kernel_arguments"][1] == scalar("0x000003E8"),
                   "the clone launched with the value it was cloned with")
    elif sample == "memory_forms":
        svm = device_version(meta) >= 20
        expect(len(captures) == (5 if svm else 4), f"expected {5 if svm else 4} instantiations, got {len(captures)}")
        args = [l["arguments"] for l in (launches[i] for i in range(len(captures)))]
        # The parent (launch 2, argument 1) is four quarters; a quarter is 256 bytes or the device's alignment.
        parent_size = captures[2]["kernel_arguments"][1]["size"]
        quarter, q = parent_size // 4, parent_size // 16
        expect([a.get("sub_buffer") for a in args[0]] == [{"parent": 0, "origin": 2 * quarter},
                                                       {"parent": 0, "origin": 0}], f"launch 0 sub-buffers: {args[0]}")
        expect(launches[0]["aliases"] == [], "disjoint sub-buffers of one parent do not alias")
        expect(launches[1]["aliases"] == [[1, 2]], "overlapping sub-buffers alias")
        expect(launches[2]["aliases"] == [[1, 2]], "a parent aliases its sub-buffer")
        expect("sub_buffer" not in args[2][1] and parent_size in (1024, 2048, 4096, 8192, 16384), "the parent")
        expect(data_of(folder, captures[0]["kernel_arguments"][1]) == ints(range(2 * q)), "a sub-buffer's own bytes")
        hidden = captures[3]["kernel_arguments"][1]
        expect("CL_MEM_HOST_NO_ACCESS" in hidden["flags"], "CL_MEM_HOST_NO_ACCESS flag")
        expect(data_of(folder, hidden) == ints(range(5000, 5000 + 4 * q)), "a CL_MEM_HOST_NO_ACCESS buffer's bytes")
        if svm:
            expect(args[4][0]["kind"] == "svm" and args[4][0].get("svm") == {"allocation": 0, "offset": 64},
                   f"SVM argument: {args[4][0]}")
            expect(captures[4]["kernel_arguments"][0]["size"] == 192, "SVM size from the pointer to the end")
            expect(data_of(folder, captures[4]["kernel_arguments"][0]) == ints(range(116, 164)), "SVM bytes")
    elif sample == "struct_arg":
        expect(len(captures) == 1, f"expected 1 instantiation, got {len(captures)}")
        inst = captures[0]
        expect(inst["global_size"] == [256] and inst.get("local_size") == [32], "sizes")
        # {int begin=16, int end=240, float scale=2.0f, float offset=0.5f}, little-endian, as one integer.
        expect(inst["kernel_arguments"][2] == scalar("0x3F00000040000000000000F000000010"),
               f"struct value: {inst['kernel_arguments'][2]}")
        expect(launches[0]["arguments"][2].get("type_name") == "params_t", "struct type name from arg info")
        expect(data_of(folder, inst["kernel_arguments"][0]) == floats([float(i) for i in range(256)]), "input contents")
        expect(data_of(folder, inst["kernel_arguments"][1]) == floats([-1.0] * 256), "output contents before launch")
    elif sample == "user_event":
        expect(len(captures) == 1, f"expected 1 instantiation, got {len(captures)}")
        inst = captures[0]
        expect(inst["global_size"] == [1024] and inst.get("local_size") == [64], "sizes")
        expect(without_data(inst["kernel_arguments"]) == [
            array(4096, "global", ["CL_MEM_READ_WRITE", "CL_MEM_COPY_HOST_PTR"]), scalar("0x000003E8")],
            f"arguments: {inst['kernel_arguments']}")
        # The buffer was created from zeros; the write gated by the user event put 1..N there just before
        # the launch. Reading too early (or blocking) would show zeros (or hang).
        expect(data_of(folder, inst["kernel_arguments"][0]) == ints(list(range(1, 1025))),
               "the bytes written just before the launch")
    elif sample == "threads":
        expect(len(captures) == 32, f"expected 32 instantiations (4 threads x 8 launches), got {len(captures)}")
        values = sorted(int(c["kernel_arguments"][1]["value"], 16) for c in captures)
        want = sorted(t * 100000 + l * 1000 for t in range(4) for l in range(8))
        expect(values == want, f"each launch's own scalar value: {values}")
        expect(all("local_size" not in c for c in captures), "NULL local size is omitted")
        expect(len({l["thread"] for l in meta["launches"]}) == 4, "four host threads")
        expect(len({l["queue"] for l in meta["launches"]}) == 4, "four queues")
        expect(sorted(l["launch"] for l in meta["launches"]) == list(range(32)), "launch numbers 0..31")
    elif sample in ("pyopencl", "pyopencl-recovered"):
        expect(len(captures) == 2, f"expected 2 instantiations, got {len(captures)}")
        if sample == "pyopencl-recovered":
            # Run 2 of PyOpenCL's own binary cache: the program came from the cache, its source from the store.
            expect(len(meta["launches"]) == 2 and
                   all(l["program_origin"] == "binary (source recovered)" for l in meta["launches"]),
                   f"every launch captured with the recovered source: {meta['launches']}")
            expect(all("kernel void axpy(" in open(os.path.join(folder, c["kernel_file"]), encoding="utf-8").read()
                       for c in captures), "the stored source is PyOpenCL's program")
        expect([c["kernel_arguments"][2] for c in captures] == [scalar("0x40000000"), scalar("0x40400000")],
               "a = 2.0f, then 3.0f")
        expect(all(c["global_size"] == [64] and c.get("local_size") == [16] for c in captures), "sizes")
        expect(data_of(folder, captures[0]["kernel_arguments"][1]) == floats([float(i) for i in range(64)]), "x")
        expect(data_of(folder, captures[1]["kernel_arguments"][0]) == floats([1.0 + 2.0 * i for i in range(64)]),
               "y before the second launch holds the first launch's result")
        # The application's call sites are in pyopencl's extension module (stripped on Debian: module only).
        expect(all([c["function_name"] for c in l.get("host_calls", [])][-1:] == ["clEnqueueNDRangeKernel"] and
                   all("pyopencl" in c["module"] for c in l["host_calls"]) for l in launches.values()),
               f"host calls from pyopencl: {[l.get('host_calls') for l in launches.values()]}")
    elif sample in ("pyopencl-binary", "binary_cache-unrecovered"):
        # A binary the program store does not know: listed as not verifiable, with how to get the source.
        expect(len(captures) == 0, f"expected no instantiation, got {len(captures)}")
        expect([l["launch"] for l in meta["launches"]] == [0, 1], "both launches listed")
        expect(all(l["instantiation"] is None and l["program_origin"] == "binary" and
                   l["not_captured_reason"].startswith(
                       "program built from a binary that the program store does not know: no source to verify; "
                       "to capture it, clear the application's binary cache")
                   for l in meta["launches"]), f"listed as not verifiable: {meta['launches']}")
    elif sample in ("binary_cache", "binary_cache-recovered"):
        # Run 1 builds from source; run 2 loads the binary run 1 saved, its source recovered from the store.
        origin = "source" if sample == "binary_cache" else "binary (source recovered)"
        expect(len(captures) == 2 and len(meta["launches"]) == 2,
               f"expected 2 instantiations, got {len(captures)} of {len(meta['launches'])} launches")
        expect(all(l["program_origin"] == origin and l["build_options"] == "-DFACTOR=3" for l in meta["launches"]),
               f"origin {origin} and the options of the source build: {meta['launches']}")
        expect(all(c["entry_point"] == "scale" and c["compiler_flags"] == "-DFACTOR=3" and c["global_size"] == [256]
                   and c.get("local_size") == [64] for c in captures), "entry point, options and sizes")
        expect([c["kernel_arguments"][1] for c in captures] == [scalar("0x00000001"), scalar("0x00000002")],
               "bias 1, then 2")
        expect(data_of(folder, captures[0]["kernel_arguments"][0]) == ints(range(256)), "contents at launch 0")
        expect(data_of(folder, captures[1]["kernel_arguments"][0]) == ints([3 * i + 1 for i in range(256)]),
               "contents at launch 1")
        expect(all(compiles_alone(folder, c) for c in captures[:1]), "the stored kernel compiles from the folder alone")
        created = [c for c in launches[0].get("host_calls", []) if c["function_name"].startswith("clCreateProgram")]
        want = "clCreateProgramWithSource" if sample == "binary_cache" else "clCreateProgramWithBinary"
        expect([c["function_name"] for c in created] == [want], f"the program's creation: {created}")
        if sample == "binary_cache-recovered":
            expect(created and os.path.basename(created[0].get("compilation_unit", "")) == "binary_cache.c",
                   f"clCreateProgramWithBinary called in binary_cache.c: {created}")
    elif sample == "killed":
        expect(len(captures) == 5, f"expected the 5 launches before SIGKILL, got {len(captures)}")
        expect([int(c["kernel_arguments"][1]["value"], 16) for c in captures] == [0, 1, 2, 3, 4], "values in order")
        # Launch n sees the buffer after launches 0..n-1 added 0+1+...+(n-1).
        expect([data_of(folder, c["kernel_arguments"][0]) for c in captures] ==
               [ints([n * (n - 1) // 2] * 256) for n in range(5)], "each launch's own buffer contents")
    elif sample == "threads-launches-4-7-nodata":
        expect([l["launch"] for l in meta["launches"]] == [4, 5, 6, 7], "launches 4 to 7 only")
        expect(sorted(int(c["kernel_arguments"][1]["value"], 16) for c in captures) == [4000, 5000, 6000, 7000],
               "each captured launch's own value")
        expect(all("data" not in c["kernel_arguments"][0] for c in captures), "metadata only: no data")
        expect(all(l["arguments"][0].get("data_skipped") == "metadata-only mode (CLCAPTURE_DATA=none)"
                   for l in meta["launches"]), "the sidecar says why there is no data")
    else:
        failures.append(f"unknown sample {sample}")

    for f in failures:
        print(f"{folder}: {f}")
    if not failures:
        print(f"{folder}: {len(captures)} instantiation(s) as expected for {sample}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
