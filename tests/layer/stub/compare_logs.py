#!/usr/bin/python3
"""Compares what the stub app sent with what the stub driver received, line by line.

usage: compare_logs.py control|shim APP_LOG STUB_LOG HOOKLIST_H [--capture DIR --schemas SCHEMAS_DIR]

Each log line is one call: `clX(arguments as sent/received) -> ret=..., out-parameters as returned`. Every
app line must appear in the stub log, in order, exactly. The stub log may hold more lines, but only these
(EXTRAS), each with its reason:
  - the loader's and the shim's own start-up calls (platform discovery, the ICD suffix, extensions);
  - in shim mode, the capture engine's own calls, the entries listed in CLCAPTURE_ENGINE_CALLS (HookList.h).
Nothing the app sends is changed: clBuildProgram and clCompileProgram receive the app's own options (the layer
once appended " -cl-kernel-arg-info", which the app could see in CL_PROGRAM_BUILD_OPTIONS).
With --capture, the capture folder must hold one instantiation per successful launch, the set-up launch with
its exact facts (sizes, the app's own build options, argument kinds, the buffer's bytes, the scalar value).
"""
import json
import os
import re
import struct
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)
import capture_blobs  # noqa: E402  (tools/: blobs loose or packed)

# Standard clGetPlatformInfo names a loader asks at start-up (CL_PLATFORM_PROFILE..CL_PLATFORM_ICD_SUFFIX_KHR);
# the app's own clGetPlatformInfo calls use distinctive names, so they never look like these.
LOADER_PLATFORM_QUERIES = set(range(0x0900, 0x090A)) | {0x0920}

LOADER_EXTRAS = [
    (re.compile(r"^clIcdGetPlatformIDsKHR\("), "the loader (or the shim) lists the stub's platforms"),
    (re.compile(r'^clGetExtensionFunctionAddress\(func_name="(?:clIcdGetPlatformIDsKHR|clGetPlatformInfo)"\)'),
     "the loader (or the shim) looks up the ICD entry points"),
    (re.compile(r"^clGetPlatformInfo\(platform=\w+, param_name=(\d+),"),
     "the loader asks the platform's suffix, extensions, name or version"),
]



def engine_calls(hooklist):
    with open(hooklist, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"#define CLCAPTURE_ENGINE_CALLS\(X\)(.*?)(?:\n\n|\Z)", text, re.S).group(1)
    return set(re.findall(r"X\((\w+)[,)]", block))


def hooked_entries(hooklist):
    with open(hooklist, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"#define CLCAPTURE_HOOKS\(X\)(.*?)(?:\n\n|\Z)", text, re.S).group(1)
    return set(re.findall(r"X\((\w+)[,)]", block))


def entry_of(line):
    return line.split("(", 1)[0]


def extra_reason(line, mode, engine):
    for pattern, reason in LOADER_EXTRAS:
        m = pattern.match(line)
        if m and (not m.groups() or int(m.group(1)) in LOADER_PLATFORM_QUERIES):
            return reason
    if mode == "shim" and entry_of(line) in engine:
        return "the capture engine's own call (CLCAPTURE_ENGINE_CALLS)"
    return None


def compare(mode, app, stub, engine, failures):
    extras = {}
    j = 0
    for i, line in enumerate(app):
        want = line
        while j < len(stub) and stub[j] != want:
            reason = extra_reason(stub[j], mode, engine)
            if reason is None:
                failures.append(f"app line {i + 1} does not match stub line {j + 1}:\n  app sent:      {line}\n"
                                f"  stub expected: {want}\n  stub received: {stub[j]}")
                return extras
            extras.setdefault(reason, []).append(entry_of(stub[j]))
            j += 1
        if j == len(stub):
            failures.append(f"app line {i + 1} never reached the stub: {line}")
            return extras
        j += 1
    for line in stub[j:]:
        reason = extra_reason(line, mode, engine)
        if reason is None:
            failures.append(f"the stub received a call the app did not make: {line}")
        else:
            extras.setdefault(reason, []).append(entry_of(line))
    return extras


def check_capture(folder, schemas, app, failures):
    def expect(cond, message):
        if not cond:
            failures.append(f"capture: {message}")

    path = os.path.join(folder, "captures.json")
    if not os.path.isfile(path):
        failures.append(f"capture: {path} missing")
        return
    with open(path, encoding="utf-8") as f:
        captures = json.load(f)
    with open(os.path.join(folder, "captures.meta.json"), encoding="utf-8") as f:
        raw_meta = json.load(f)
    meta = sidecar_expand.expand(json.loads(json.dumps(raw_meta)))
    import jsonschema
    for name, doc in (("captures.schema.json", captures), ("captures.meta.schema.json", raw_meta)):
        with open(os.path.join(schemas, name), encoding="utf-8") as f:
            schema = json.load(f)
        for e in jsonschema.Draft202012Validator(schema).iter_errors(doc):
            failures.append(f"capture: {name}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    launched = [l for l in app if re.match(r"^clEnqueue(NDRangeKernel|Task)\(.*\) -> ret=0,", l)]
    expect(len(captures) == len(launched),
           f"{len(captures)} instantiation(s) for the app's {len(launched)} successful launch(es)")
    if not captures:
        return
    first = captures[0]
    expect(first["entry_point"] == "stub_kernel", f"entry point {first['entry_point']}")
    expect(first["global_size"] == [16] and first.get("local_size") == [4], "the set-up launch's sizes")
    expect(first["compiler_flags"] == "-DSTUB_SETUP=1", f"the app's own build options: {first['compiler_flags']}")
    args = first.get("kernel_arguments", [])
    kinds = [(a.get("type"), a.get("address_space"), a.get("size")) for a in args]
    expect(kinds == [("array", "global", 64), ("scalar", None, None), ("array", "local", 32)], f"arguments {kinds}")
    if len(args) == 3:
        expect(args[0].get("flags") == ["CL_MEM_READ_WRITE", "CL_MEM_COPY_HOST_PTR"], f"flags {args[0].get('flags')}")
        expect(args[1].get("value") == "0x00005A5A", f"scale {args[1].get('value')}")
        data = args[0].get("data")
        want = struct.pack("<16i", *[1000 + 3 * i for i in range(16)])
        got = capture_blobs.read(folder, data) if data else None
        expect(got == want, "the buffer's bytes at launch are the app's (read through the stub)")
    launch = meta["launches"][0]
    expect(launch["device"]["name"] == "clcapture stub device", f"device facts from the stub: {launch['device']}")
    expect([a.get("name") for a in launch["arguments"]] == ["out", "scale", "scratch"],
           "argument names from the stub's clGetKernelArgInfo")


def main():
    mode, app_log, stub_log, hooklist = sys.argv[1:5]
    opts = dict(zip(sys.argv[5::2], sys.argv[6::2]))
    with open(app_log, encoding="utf-8") as f:
        app = f.read().splitlines()
    with open(stub_log, encoding="utf-8") as f:
        stub = f.read().splitlines()
    engine = engine_calls(hooklist)
    failures = []
    extras = compare(mode, app, stub, engine, failures)

    entries = {entry_of(l) for l in app}
    missing_hooks = hooked_entries(hooklist) - entries
    if missing_hooks:
        failures.append(f"hooked entries the app never called: {sorted(missing_hooks)}")
    if mode == "shim":
        seen = set(extras.get("the capture engine's own call (CLCAPTURE_ENGINE_CALLS)", []))
        for needed in ("clGetKernelArgInfo", "clEnqueueReadBuffer", "clGetEventInfo"):
            if needed not in seen:
                failures.append(f"the capture engine never called {needed}: was the launch captured?")
        if "--capture" in opts:
            check_capture(opts["--capture"], opts["--schemas"], app, failures)

    for f in failures:
        print(f"compare_logs ({mode}): FAIL: {f}")
    print(f"compare_logs ({mode}): {len(app)} app calls over {len(entries)} entry points, {len(stub)} stub lines")
    for reason, names in sorted(extras.items()):
        counts = {n: names.count(n) for n in sorted(set(names))}
        print(f"  extra stub lines, {reason}: {counts}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
