#!/usr/bin/python3
"""PySchedCL export and import (clcapture export --pyschedcl / clcapture import --pyschedcl).

usage: pyschedcl_test.py SCENARIO --export EXE --import EXE [--keys EXE] [--verify EXE] [--corpus DIR] [--seed FILE]

scenarios
  roundtrip     every corpus kernel (tests/kernels/, captured as run_kernel.py captures it): export, check
                each spec against PySchedCL's spec field table, import, and compare the analysis keys of the
                original and the imported capture (--keys: clcapture-verify's own key, InstantiationKey.cpp)
  verdicts      a sample of corpus kernels (races, aliasing, local memory, scalars, struct scalars, vectors,
                images, offsets): clcapture-verify --no-cache on the original and on the round trip give the
                same verdict and findings
  seed-example  PySchedCL's own VectorAdd spec, without extras: exit 10 naming `dataset`; with
                --define dataset=1024 a capture with the scalar and the buffers' contents open, said so
  values        a hand-made capture with every kind of scalar (int, negative char, float, NaN, double, ulong,
                half, int4, struct), data, data after, flags, aliasing, a sub-buffer, an image, a big-endian
                device: the spec's values and extras, and an exact round trip
Each check prints `ok …` or `FAIL: …`; the exit status is 1 on any failure.
"""
import argparse
import ast
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
import corpus_capture  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)

# PySchedCL's spec field table (PySchedCL's per-kernel JSON spec, docs/contract.md §1), restated: name -> (JSON type, required).
SEED_FIELDS = {
    "name": ("String", True), "src": ("String", True), "workDimension": ("Integer", True),
    "partition": ("Integer", True), "globalWorkSize": ("String", True), "inputBuffers": ("List", True),
    "ioBuffers": ("List", True), "outputBuffers": ("List", True), "varArguments": ("List", True),
    "localArguments": ("List", True), "id": ("String", False),
}
PY_TYPES = {"String": str, "Integer": int, "List": list}
# The documented extras (bugreport/README.md, export/): keys PySchedCL ignores.
TOP_EXTRAS = {"localWorkSize", "globalWorkOffset", "compilerFlags", "clcapture"}
BUFFER_FIELDS, BUFFER_EXTRAS = {"break", "pos", "size", "type"}, {"addressSpace", "flags", "data", "dataAfter"}
VAR_FIELDS, VAR_EXTRAS = {"pos", "type", "value"}, {"captured"}
LOCAL_FIELDS, LOCAL_EXTRAS = {"pos", "size", "type"}, {"flags"}
CLCAPTURE_KEYS = {"format", "version", "instantiation", "language", "endianness", "argumentCount",
                  "otherArguments", "hostApiCalls", "meta", "launch"}

# The verdict sample: what each one covers.
SAMPLE = [
    "local/reduction_race.cl",              # a local-memory race
    "local/reduction.cl",                   # its fix
    "aliasing/halves_race.cl",              # two arguments, one buffer
    "aliasing/distinct.cl",                 # aliasing that does not race
    "aliasing/constant_aliases_written_global_race.cl",
    "scalars/short_value.cl",               # a short scalar written with one digit ("0x1")
    "scalars/short_value_race.cl",
    "scalars/float_scalar.cl",              # a float scalar
    "scalars/vector_value_race.cl",         # a vector scalar
    "data/struct_arg.cl",                   # a struct scalar
    "data/struct_pitch_race.cl",
    "vectors/int4_lanes_race.cl",           # vector buffers
    "data/captured_index_race.cl",          # captured buffer contents
    "ndrange/global_offset_race.cl",        # a global offset
    "ndrange/null_local_size.cl",           # no local size
    "images/write_own_pixel.cl",            # an image argument
]

failures = []


def ok(msg):
    print("ok    " + msg)


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def seed_table(path):
    """PySchedCL's spec field table: name -> (type, required), from its `Attribute | Type | Description |` rows."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    table = text.split("Attribute | Type | Description |", 1)[1].split("An Illustrative Example", 1)[0]
    fields = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) >= 3 and re.fullmatch(r"[A-Za-z]+", cells[0]) and cells[1] in PY_TYPES:
            fields[cells[0]] = (cells[1], "optional field" not in cells[2])
    return fields


def check_spec(spec, where):
    """The spec has exactly PySchedCL's spec fields with PySchedCL's spec types, plus only documented extras."""
    problems = []
    for name, (kind, required) in SEED_FIELDS.items():
        if name not in spec:
            if required:
                problems.append(f"missing seed field {name}")
            continue
        if type(spec[name]) is not PY_TYPES[kind]:
            problems.append(f"{name} is {type(spec[name]).__name__}, PySchedCL's spec says {kind}")
    for key in spec:
        if key not in SEED_FIELDS and key not in TOP_EXTRAS:
            problems.append(f"undocumented key {key}")
    if not 0 <= spec.get("partition", -1) <= 10:
        problems.append("partition outside [0..10]")
    try:
        gws = ast.literal_eval(spec["globalWorkSize"])
        if not (isinstance(gws, list) and len(gws) == spec["workDimension"] and all(isinstance(n, int) for n in gws)):
            problems.append(f"globalWorkSize {spec['globalWorkSize']!r} is not a list of workDimension integers")
    except (ValueError, SyntaxError, KeyError):
        problems.append("globalWorkSize is not a Python list expression")
    lists = [("inputBuffers", BUFFER_FIELDS, BUFFER_EXTRAS), ("ioBuffers", BUFFER_FIELDS, BUFFER_EXTRAS),
             ("outputBuffers", BUFFER_FIELDS, BUFFER_EXTRAS), ("varArguments", VAR_FIELDS, VAR_EXTRAS),
             ("localArguments", LOCAL_FIELDS, LOCAL_EXTRAS)]
    for name, fields, extras in lists:
        for i, e in enumerate(spec.get(name, [])):
            keys = set(e)
            if not fields <= keys:
                problems.append(f"{name}[{i}] lacks {sorted(fields - keys)}")
            if keys - fields - extras:
                problems.append(f"{name}[{i}] has undocumented {sorted(keys - fields - extras)}")
            if not isinstance(e.get("pos"), int) or not isinstance(e.get("type"), str):
                problems.append(f"{name}[{i}]: pos must be an integer and type a string")
            if "size" in e and not isinstance(e["size"], (int, str)):
                problems.append(f"{name}[{i}].size must be a number or an expression")
            if name == "localArguments" and not isinstance(e.get("size"), str):
                problems.append(f"{name}[{i}].size must be a string (PySchedCL eval()s it)")
    extras = spec.get("clcapture", {})
    if set(extras) - CLCAPTURE_KEYS:
        problems.append(f"clcapture has undocumented {sorted(set(extras) - CLCAPTURE_KEYS)}")
    for p in problems:
        fail(f"{where}: {p}")
    return not problems


def export_import(args, kernel, work):
    """Builds the corpus capture of `kernel`, exports it, imports it. Returns (orig, imported, spec paths)."""
    name = os.path.relpath(kernel, args.corpus).replace("/", "__")[:-3]
    orig, specs, imported = (os.path.join(work, d, name) for d in ("orig", "spec", "imp"))
    corpus_capture.build(kernel, orig)
    r = run([args.export, "--pyschedcl", orig, "-o", specs])
    if r.returncode != 0:
        return name, None, f"export exited {r.returncode}: {r.stderr.strip()}"
    paths = sorted(os.path.join(specs, f) for f in os.listdir(specs) if f.endswith(".json"))
    r = run([args.import_, "--pyschedcl", *paths, "-o", imported])
    if r.returncode != 0:
        return name, None, f"import exited {r.returncode}: {r.stderr.strip()}"
    return name, (orig, imported, paths), None


def keys_of(args, captures):
    r = run([args.keys, *captures])
    if r.returncode != 0:
        fail(f"capture_keys exited {r.returncode}: {r.stderr.strip()}")
    keys = {}
    for line in r.stdout.splitlines():
        path, index, key = line.split(" ", 2)
        keys[(os.path.dirname(path), int(index))] = key
    return keys


# Corpus kernels whose capture is malformed on purpose: the import must refuse the exported spec, naming why.
IMPORT_REFUSES = {
    "scalars__value_too_wide_unknown": "does not fit in 4 bytes",
}


def roundtrip(args):
    if args.seed and os.path.exists(args.seed):
        table = seed_table(args.seed)
        if table != SEED_FIELDS:
            fail(f"the restated field table differs from {args.seed}: {table}")
        else:
            ok(f"PySchedCL's spec field table ({len(table)} fields) is the one the checks use")
    kernels = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(args.corpus) for f in fs if f.endswith(".cl"))
    with tempfile.TemporaryDirectory() as work:
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda k: export_import(args, k, work), kernels))
        pairs, refused = [], 0
        for name, done, error in results:
            expected = IMPORT_REFUSES.get(name)
            if expected:
                if error and expected in error:
                    ok(f"{name}: the import refuses it: {error.split('error: ', 1)[-1]}")
                    refused += 1
                else:
                    fail(f"{name}: the import should refuse it ({expected!r}); got {error or 'no error'}")
                continue
            if error:
                fail(f"{name}: {error}")
                continue
            orig, imported, paths = done
            for p in paths:
                with open(p, encoding="utf-8") as f:
                    check_spec(json.load(f), f"{name}: {os.path.basename(p)}")
            pairs.append((name, orig, imported))
        keys = keys_of(args, [os.path.join(d, "captures.json") for _, o, i in pairs for d in (o, i)])
        same = 0
        for name, orig, imported in pairs:
            a, b = keys.get((orig, 0)), keys.get((imported, 0))
            if a is None or a != b:
                fail(f"{name}: the imported capture's analysis key differs:\n  original {a}\n  imported {b}")
            else:
                same += 1
    print(f"pyschedcl round trip: {same} of {len(kernels)} corpus kernels give the same analysis key, "
          f"{refused} refused by the import as they should be")
    if same < 200:
        fail(f"only {same} kernels compared; the corpus has {len(kernels)}")
    # A capture in the layer's own shape: type names, host calls, flags, an image and a sampler, an offset
    # with a 0 component (kept in the sidecar), a NULL local size, a launch that is not an instantiation.
    handwritten = os.path.join(REPO, "tests", "data", "captures", "handwritten")
    with tempfile.TemporaryDirectory() as work:
        specs, imported = os.path.join(work, "specs"), os.path.join(work, "imp")
        r = run([args.export, "--pyschedcl", handwritten, "-o", specs])
        paths = sorted(os.path.join(specs, f) for f in os.listdir(specs) if f.endswith(".json")) if r.returncode == 0 else []
        for p in paths:
            with open(p, encoding="utf-8") as f:
                check_spec(json.load(f), f"handwritten: {os.path.basename(p)}")
        r2 = run([args.import_, "--pyschedcl", *paths, "-o", imported]) if paths else r
        if r.returncode != 0 or r2.returncode != 0:
            fail(f"handwritten capture: export {r.returncode}, import {r2.returncode}: {r.stderr}{r2.stderr}")
            return
        original = os.path.join(handwritten, "captures.json")
        keys = keys_of(args, [original, os.path.join(imported, "captures.json")])
        count = sum(1 for (d, _) in keys if d == handwritten)
        differ = [i for (d, i), k in keys.items() if d == handwritten and keys.get((imported, i)) != k]
        if count == 3 and not differ:
            ok("the hand-written capture (3 instantiations, layer-shaped sidecar) keeps its 3 analysis keys")
        else:
            fail(f"the hand-written capture: {count} instantiations, keys differ at {differ}")


_no_cache = {}


def verdict(args, captures):
    """clcapture-verify's verdict and findings, analysed afresh (--no-cache where it caches verdicts)."""
    if args.verify not in _no_cache:
        _no_cache[args.verify] = "--no-cache" in run([args.verify, "--help"]).stdout
    cmd = [args.verify, "--format=json", *(["--no-cache"] if _no_cache[args.verify] else []), captures]
    r = run(cmd, timeout=300)
    if not r.stdout.strip():
        return None, r.stderr
    result = json.loads(r.stdout)["results"][0]
    findings = sorted((f["kind"], f.get("conflict", ""), f.get("memory", ""), f.get("array", ""), f["benign"])
                      for f in result["findings"])
    return (result["verdict"], result.get("reason", ""), findings), r.stderr


def verdicts(args):
    with tempfile.TemporaryDirectory() as work:
        def one(rel):
            name, done, error = export_import(args, os.path.join(args.corpus, rel), work)
            if error:
                return rel, None, None, error
            orig, imported, _ = done
            a, ea = verdict(args, os.path.join(orig, "captures.json"))
            b, eb = verdict(args, os.path.join(imported, "captures.json"))
            return rel, a, b, None if a is not None and b is not None else (ea + eb).strip()
        with ThreadPoolExecutor(max_workers=2) as pool:
            for rel, a, b, error in pool.map(one, SAMPLE):
                if error:
                    fail(f"{rel}: {error}")
                elif a != b:
                    fail(f"{rel}: original {a}, imported {b}")
                else:
                    ok(f"{rel}: {a[0]} both ({len(a[2])} finding(s))")


VECTOR_ADD = """// OpenCL Kernel Function for element by element vector addition
__kernel void VectorAdd(__global const float* a, __global const float* b, __global float* c, int iNumElements)
{
    int iGID = get_global_id(0);
    if (iGID >= iNumElements)
    {
        return;
    }
    c[iGID] = a[iGID] + b[iGID];
}
"""

# PySchedCL's spec example spec, as printed in PySchedCL's per-kernel JSON spec, docs/contract.md §1.
SEED_SPEC = {"globalWorkSize": "[dataset]",
             "inputBuffers": [{"break": 1, "pos": 0, "size": "dataset", "type": "float"},
                              {"break": 1, "pos": 1, "size": "dataset", "type": "float"}],
             "name": "VectorAdd",
             "outputBuffers": [{"break": 1, "pos": 2, "size": "dataset", "type": "float"}],
             "partition": 10, "src": "VectorAdd.cl",
             "varArguments": [{"pos": 3, "type": "int", "value": "partition_round(dataset, size_percent)"}],
             "workDimension": 1}


def seed_example(args):
    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "VectorAdd.cl"), "w", encoding="utf-8") as f:
            f.write(VECTOR_ADD)
        spec = os.path.join(work, "VectorAdd.json")
        with open(spec, "w", encoding="utf-8") as f:
            json.dump(SEED_SPEC, f, indent=1)
        r = run([args.import_, "--pyschedcl", spec, "-o", os.path.join(work, "a")])
        if r.returncode == 10 and "dataset" in r.stderr and "--define dataset=" in r.stderr:
            ok("without --define: exit 10 naming dataset: " + r.stderr.strip().splitlines()[-1])
        else:
            fail(f"without --define: exit {r.returncode}: {r.stderr}")
        out = os.path.join(work, "b")
        r = run([args.import_, "--pyschedcl", spec, "-o", out, "--define", "dataset=1024"])
        if r.returncode != 0:
            fail(f"with --define dataset=1024: exit {r.returncode}: {r.stderr}")
            return
        for needle in ("partition_round", "stays open", "no data for buffer argument(s) 0, 1, 2"):
            if needle not in r.stderr:
                fail(f"the import does not say what stays open ({needle!r} missing): {r.stderr}")
        with open(os.path.join(out, "captures.json"), encoding="utf-8") as f:
            inst = json.load(f)[0]
        with open(os.path.join(out, "captures.meta.json"), encoding="utf-8") as f:
            meta = sidecar_expand.expand(json.load(f))["launches"][0]
        args_ = inst["kernel_arguments"]
        expect = [{"type": "array", "size": 4096, "address_space": "global", "flags": ["CL_MEM_READ_ONLY"]},
                  {"type": "array", "size": 4096, "address_space": "global", "flags": ["CL_MEM_READ_ONLY"]},
                  {"type": "array", "size": 4096, "address_space": "global", "flags": ["CL_MEM_WRITE_ONLY"]},
                  {"type": "scalar"}]
        if inst["global_size"] == [1024] and args_ == expect and "local_size" not in inst:
            ok("with --define dataset=1024: sizes 1024 × float, the scalar open, the local size open")
        else:
            fail(f"unexpected capture: {inst}")
        if [a.get("type_name") for a in meta["arguments"]] == ["float*", "float*", "float*", "int"]:
            ok("the sidecar names the spec's types")
        else:
            fail(f"sidecar arguments: {meta['arguments']}")
        if args.verify:
            v, err = verdict(args, os.path.join(out, "captures.json"))
            if v and v[0] == "verified":
                ok("clcapture-verify reads the imported capture: verified")
            else:
                fail(f"clcapture-verify on the imported seed example: {v} {err}")
        # A spec whose size is an expression PySchedCL writes (dataset**2) and a number value.
        spec2 = dict(SEED_SPEC, globalWorkSize="[dataset, 2]", workDimension=2,
                     varArguments=[{"pos": 3, "type": "int", "value": "dataset // 2 + 0x10"}])
        spec2["inputBuffers"] = [dict(b, size="dataset**2") for b in SEED_SPEC["inputBuffers"]]
        with open(spec, "w", encoding="utf-8") as f:
            json.dump(spec2, f)
        out = os.path.join(work, "c")
        r = run([args.import_, "--pyschedcl", spec, "-o", out, "--define", "dataset=8"])
        with open(os.path.join(out, "captures.json"), encoding="utf-8") as f:
            inst = json.load(f)[0]
        a = inst["kernel_arguments"]
        if r.returncode == 0 and a[0]["size"] == 256 and a[3]["value"] == "0x00000014" and inst["global_size"] == [8, 2]:
            ok("expressions: dataset**2 elements, dataset // 2 + 0x10 = 20, [dataset, 2]")
        else:
            fail(f"expressions: exit {r.returncode} {inst} {r.stderr}")


def values(args):
    """A capture written by hand (the layer's shapes), exported and imported."""
    with tempfile.TemporaryDirectory() as work:
        cap = os.path.join(work, "cap")
        os.makedirs(os.path.join(cap, "kernels"))
        os.makedirs(os.path.join(cap, "data"))
        src = """typedef struct { int a; int b; } Pair;
__kernel void k(__global const float *in, __global float *out, int n, char c, float f, float nan_f,
                double d, ulong big, half h, int4 v, Pair p, __local int *scratch,
                __read_only image2d_t img, __global int *alias, __constant int *lut) { out[0] = in[0]; }
"""
        with open(os.path.join(cap, "kernels", "k.cl"), "w", encoding="utf-8") as f:
            f.write(src)
        in_bytes = struct.pack("<4f", 1.5, -2.25, 1e-40, float("nan"))
        with open(os.path.join(cap, "data", "in.bin"), "wb") as f:
            f.write(in_bytes)
        with open(os.path.join(cap, "data", "after.bin"), "wb") as f:
            f.write(b"\x01\x02\x03\x04" * 4)
        with open(os.path.join(cap, "data", "lut.bin"), "wb") as f:
            f.write(struct.pack("<2i", 7, -7))
        kernel_args = [
            {"type": "array", "size": 16, "address_space": "global", "flags": ["CL_MEM_READ_ONLY"], "data": "data/in.bin"},
            {"type": "array", "size": 16, "address_space": "global", "flags": ["CL_MEM_READ_WRITE"]},
            {"type": "scalar", "value": "0x00000400"},          # int 1024
            {"type": "scalar", "value": "0xFE"},                # char -2
            {"type": "scalar", "value": "0x40490FDB"},          # float 3.14159265
            {"type": "scalar", "value": "0x7FC00001"},          # a NaN with a payload
            {"type": "scalar", "value": "0x3FB999999999999A"},  # double 0.1
            {"type": "scalar", "value": "0xFFFFFFFFFFFFFFFF"},  # ulong max
            {"type": "scalar", "value": "0x3C00"},              # half 1.0
            {"type": "scalar", "value": "0x00000004000000030000000200000001"},  # int4 (1, 2, 3, 4)
            {"type": "scalar", "value": "0x0000000400000002"},  # Pair {2, 4}
            {"type": "array", "size": 256, "address_space": "local"},
            {"type": "image"},
            {"type": "array", "size": 16, "address_space": "global", "flags": ["CL_MEM_READ_WRITE"]},
            {"type": "array", "size": 8, "address_space": "constant", "flags": ["CL_MEM_READ_ONLY"], "data": "data/lut.bin"},
        ]
        inst = {"language": "OpenCL", "endianness": "little", "kernel_file": "kernels/k.cl", "local_size": [4, 2],
                "global_size": [8, 4], "global_offset": [2, 1], "compiler_flags": "-DX=1 -cl-fast-relaxed-math",
                "entry_point": "k", "kernel_arguments": kernel_args,
                "host_api_calls": [{"function_name": "clEnqueueNDRangeKernel", "compilation_unit": "main.c",
                                    "line_number": 42}]}
        names = ["in", "out", "n", "c", "f", "nan_f", "d", "big", "h", "v", "p", "scratch", "img", "alias", "lut"]
        types = ["float*", "float*", "int", "char", "float", "float", "double", "ulong", "half", "int4", "Pair",
                 "int*", "image2d_t", "int*", "int*"]
        kinds = ["buffer", "buffer"] + ["scalar"] * 9 + ["local", "image", "buffer", "buffer"]
        facts = [{"index": i, "kind": kinds[i], "name": names[i], "type_name": types[i]} for i in range(len(names))]
        facts[1].update(mem_object=1, data_after="data/after.bin", mem_flags=1)
        facts[13].update(mem_object=1, mem_flags=1, sub_buffer={"parent": 1, "origin": 0})
        facts[0].update(mem_object=0, mem_flags=4)
        facts[14].update(mem_object=2, mem_flags=4)
        meta = {"format": "clcapture-meta", "format_version": 2, "clcapture_version": "test",
                "process": {"executable": "app", "pid": 7, "started_at": "2026-01-01T00:00:00Z"},
                "launches": [{"launch": 3, "instantiation": 0, "enqueue_function": "clEnqueueNDRangeKernel",
                              "kernel_name": "k", "thread": 0, "queue": 0, "program": 0,
                              "program_origin": "source", "build_options": "-DX=1", "global_offset": [2, 1],
                              "device": {"name": "dev", "vendor": "v", "version": "OpenCL 3.0",
                                         "driver_version": "1", "address_bits": 64, "endianness": "little"},
                              "arguments": facts, "aliases": [[1, 13]]}]}
        with open(os.path.join(cap, "captures.json"), "w", encoding="utf-8") as f:
            json.dump([inst], f, indent=1)
        with open(os.path.join(cap, "captures.meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1)
        specs = os.path.join(work, "specs")
        r = run([args.export, "--pyschedcl", cap, "-o", specs])
        if r.returncode != 0:
            fail(f"export exited {r.returncode}: {r.stderr}")
            return
        with open(os.path.join(specs, "0-k.json"), encoding="utf-8") as f:
            spec = json.load(f)
        check_spec(spec, "values: 0-k.json")
        var = {v["pos"]: v["value"] for v in spec["varArguments"]}
        want = {2: 1024, 3: -2, 4: 3.1415927410125732, 5: "0x7FC00001", 6: 0.1, 7: 18446744073709551615,
                8: "0x3C00", 9: "0x00000004000000030000000200000001", 10: "0x0000000400000002"}
        if var == want:
            ok("scalars: numbers for int, char, float, double, ulong; the captured hex for NaN, half, int4, a struct")
        else:
            fail(f"scalars: {var}")
        inputs = {b["pos"]: b for b in spec["inputBuffers"]}
        ios = {b["pos"]: b for b in spec["ioBuffers"]}
        outputs = {b["pos"]: b for b in spec["outputBuffers"]}
        if set(inputs) == {0, 14} and set(outputs) == {1} and set(ios) == {13}:
            ok("buffers: const/constant → input, only stored to → output, the rest io")
        else:
            fail(f"classification: in {sorted(inputs)}, out {sorted(outputs)}, io {sorted(ios)}")
        b0, b1 = inputs.get(0, {}), outputs.get(1, {})
        if (b0.get("size"), b0.get("type"), b0.get("break")) == (4, "float", 0) and \
                open(os.path.join(specs, b0.get("data", "-")), "rb").read() == in_bytes and \
                open(os.path.join(specs, b1.get("dataAfter", "-")), "rb").read() == b"\x01\x02\x03\x04" * 4:
            ok("buffers: size in elements of the type, data and dataAfter copied beside the spec")
        else:
            fail(f"buffers: {b0} {b1}")
        if spec["localArguments"] == [{"pos": 11, "size": "64", "type": "int"}] and \
                spec["localWorkSize"] == "[4, 2]" and spec["globalWorkOffset"] == "[2, 1]" and \
                spec["clcapture"]["otherArguments"] == [{"pos": 12, "type": "image"}] and \
                spec["clcapture"]["launch"]["aliases"] == [[1, 13]]:
            ok("local memory in elements, local size, offset, the image and the aliasing in the extras")
        else:
            fail(f"extras: {spec['localArguments']} {spec.get('localWorkSize')} {spec.get('globalWorkOffset')} "
                 f"{spec['clcapture'].get('otherArguments')}")
        imported = os.path.join(work, "imp")
        r = run([args.import_, "--pyschedcl", os.path.join(specs, "0-k.json"), "-o", imported])
        if r.returncode != 0:
            fail(f"import exited {r.returncode}: {r.stderr}")
            return
        if args.keys:
            keys = keys_of(args, [os.path.join(cap, "captures.json"), os.path.join(imported, "captures.json")])
            if len(set(keys.values())) == 1 and len(keys) == 2:
                ok("values: the round trip keeps the analysis key")
            else:
                fail(f"values: keys differ: {keys}")
        with open(os.path.join(imported, "captures.meta.json"), encoding="utf-8") as f:
            launch = sidecar_expand.expand(json.load(f))["launches"][0]
        after = launch["arguments"][1].get("data_after", "-")
        if open(os.path.join(imported, after), "rb").read() == b"\x01\x02\x03\x04" * 4:
            ok("values: data_after comes back")
        else:
            fail(f"values: data_after {after}")
        # An edited value wins over the captured spelling; a symbolic one leaves the scalar open.
        spec["varArguments"][0]["value"] = 7
        spec["varArguments"][1]["value"] = "n_chars"
        with open(os.path.join(specs, "0-k.json"), "w", encoding="utf-8") as f:
            json.dump(spec, f)
        edited = os.path.join(work, "edited")
        r = run([args.import_, "--pyschedcl", os.path.join(specs, "0-k.json"), "-o", edited])
        with open(os.path.join(edited, "captures.json"), encoding="utf-8") as f:
            a = json.load(f)[0]["kernel_arguments"]
        if r.returncode == 0 and a[2] == {"type": "scalar", "value": "0x00000007"} and a[3] == {"type": "scalar"} \
                and "n_chars" in r.stderr:
            ok("values: an edited value is used; a symbolic one stays open, said so")
        else:
            fail(f"values: edited import {r.returncode} {a[2]} {a[3]} {r.stderr}")
        # A big-endian device: values are the same numbers, their bytes the device's order.
        for x in (inst, meta["launches"][0]["device"]):
            x["endianness"] = "big"
        kernel_args[2]["value"] = "0x00000400"
        with open(os.path.join(cap, "captures.json"), "w", encoding="utf-8") as f:
            json.dump([inst], f)
        with open(os.path.join(cap, "captures.meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f)
        specs_be = os.path.join(work, "specs-be")
        r = run([args.export, "--pyschedcl", cap, "-o", specs_be])
        with open(os.path.join(specs_be, "0-k.json"), encoding="utf-8") as f:
            spec = json.load(f)
        if spec["varArguments"][0]["value"] == 1024 and spec["varArguments"][1]["value"] == -2:
            ok("values: a big-endian capture's int 0x00000400 is 1024")
        else:
            fail(f"values: big-endian {spec['varArguments'][:2]}")
        spec["varArguments"][0]["value"] = 1025
        with open(os.path.join(specs_be, "0-k.json"), "w", encoding="utf-8") as f:
            json.dump(spec, f)
        imported = os.path.join(work, "imp-be")
        r = run([args.import_, "--pyschedcl", os.path.join(specs_be, "0-k.json"), "-o", imported])
        with open(os.path.join(imported, "captures.json"), encoding="utf-8") as f:
            a = json.load(f)[0]["kernel_arguments"]
        if r.returncode == 0 and a[2]["value"] == "0x00000401":
            ok("values: 1025 back on a big-endian device is 0x00000401 (the device's byte order)")
        else:
            fail(f"values: big-endian import {r.returncode} {a[2]} {r.stderr}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=["roundtrip", "verdicts", "seed-example", "values"])
    p.add_argument("--export", required=True)
    p.add_argument("--import", dest="import_", required=True)
    p.add_argument("--keys")
    p.add_argument("--verify")
    p.add_argument("--corpus", default=os.path.join(REPO, "tests", "kernels"))
    p.add_argument("--seed", default=os.path.join(REPO, "..", "shared", "seeds", "pyschedcl-kernel-spec.txt"))
    args = p.parse_args()
    {"roundtrip": roundtrip, "verdicts": verdicts, "seed-example": seed_example, "values": values}[args.scenario](args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
