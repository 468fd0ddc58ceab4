#!/usr/bin/python3
"""Runs clcapture-verify on one corpus kernel and checks its verdict and messages (GPUVerify-style header).

usage: run_kernel.py KERNEL.cl CLCAPTURE_VERIFY [--json-only] [--keep DIR] [--opt-level N]
  --json-only    print the result record alone (for oclgrind_crosscheck.py)
  --keep DIR     copy the generated capture folder to DIR (to rerun clcapture-verify on it by hand)
  --opt-level N  analyse the IR of LLVM's -ON pipeline (CLCAPTURE_VERIFY_OPT_LEVEL, a testing knob:
                 docs/optimisation-levels.md); the header's expectation is -O0's (opt_level_corpus.py
                 checks the whole corpus at -O2 against it and o2_differences.json)

The kernel file carries its expectation :
  line 1   //pass | //xfail:NOT_ALL_VERIFIED | //unknown      (verified | defects | unknown expected)
  line 2   //--global_size=256 [--local_size=64] [--global_offset=0] [--entry=NAME]
           [--arg NAME=0xHEX]...   a scalar's captured value (device byte order, docs/contract.md §3)
           [--size NAME=BYTES]...  an array argument's size
           [--mem-flags NAME=CL_MEM_READ_ONLY[|CL_MEM_…]]...  a buffer's flags (default CL_MEM_READ_WRITE)
           [--data NAME=int:v0,v1,... | NAME=iota:COUNT | NAME=iota:FIRST:COUNT]  a read-only buffer's captured
                                   contents (int32; iota counts up from 0 or FIRST)
           [--alias NAME=OTHER]    two arguments that are the same memory object
           [--image NAME=TYPE:WxH[xD]]  an image argument's type (image1d, image1d_buffer, image1d_array,
                                   image2d, image2d_array, image3d) and extents (width, height or array
                                   size, depth or array size), as the layer records them in the sidecar
           [--sampler NAME=ADDRESSING[,normalized][,linear]]  a sampler argument's properties (addressing:
                                   none, clamp-to-edge, clamp, repeat, mirrored-repeat)
           [--strict]              run clcapture-verify --strict (benign races count as errors)
           [--checks=LIST]         run clcapture-verify --checks=LIST (default all; races,divergence: no bounds)
           [--open=LIST]           run clcapture-verify --open=LIST (scalars, data: proven for every value)
           [--oclgrind-blind=WHY]  oclgrind_crosscheck.py skips the kernel: Oclgrind cannot observe its
                                   defect (WHY, one word or quoted), which the analysis still must find
           [--device-non-uniform=yes|no]  the device's CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT in the
                                   sidecar (default: not stated, as an OpenCL 2.x device's)
  then     //REGEX lines, each of which must match some line of the text report (and, for xfail, of
           a finding), until the first line that is not a // comment.
A capture folder is generated from the header (captures.json, sidecar for aliasing, data files) and
clcapture-verify runs on it; the test fails on the wrong verdict, a missing message, or a crash (a time limit
reached is an `unknown` like any other, checked against the header: `reported`). The capture
is written as the layer writes one (docs/contract.md §3): captures.json in the form GPUVerify's own loader accepts
(checked with tests/schema/gpuverify_loader_rules.py), the exact offset and a non-uniform local size in the
sidecar, from where clcapture-verify takes them.
"""
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import gpuverify_loader_rules  # noqa: E402

VERDICTS = {"//pass": "verified", "//xfail:NOT_ALL_VERIFIED": "defects", "//unknown": "unknown"}



def data_ints(value):
    """The int32 values of a --data option's value: int:v0,v1,… or iota:COUNT or iota:FIRST:COUNT."""
    how, values = value.split(":", 1)
    if how == "iota":
        first, _, count = values.rpartition(":")
        start = int(first or "0", 0)
        return list(range(start, start + int(count, 0)))
    return [int(v, 0) for v in values.split(",")]

def parse_header(text):
    lines = text.splitlines()
    if not lines or lines[0].strip() not in VERDICTS:
        raise SystemExit(f"line 1 must be one of {', '.join(VERDICTS)}")
    expected = VERDICTS[lines[0].strip()]
    if len(lines) < 2 or not lines[1].startswith("//--"):
        raise SystemExit("line 2 must give the launch: //--global_size=... [--local_size=...]")
    options = shlex.split(lines[1][2:])
    regexes = []
    for line in lines[2:]:
        if not line.startswith("//"):
            break
        regexes.append(line[2:].strip())
    return expected, options, [r for r in regexes if r]


# Bytes of OpenCL C scalar types (a vector: lanes × these, 3 lanes taking 4).
SCALAR_BYTES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "float": 4, "long": 8,
                "ulong": 8, "double": 8, "size_t": 8, "unsigned": 4}


def parameter_kind(p, pointer):
    """What one parameter declaration `p` is: global | local | constant (pointers), image | sampler | scalar."""
    if pointer:
        if re.search(r"\b(__)?local\b", p):
            return "local"
        if re.search(r"\b(__)?constant\b", p):
            return "constant"
        return "global"
    if re.search(r"\bimage[123]d\w*_t\b", p):
        return "image"
    if re.search(r"\bsampler_t\b", p):
        return "sampler"
    return "scalar"


def parameters(text, entry):
    """(name, kind) of the entry kernel's parameters: kind global | local | constant | scalar."""
    m = re.search(r"(?:__)?kernel\s+void\s+" + (re.escape(entry) if entry else r"(\w+)") + r"\s*\(([^)]*)\)", text, re.S)
    if not m:
        raise SystemExit("no kernel found")
    name = entry or m.group(1)
    params = m.group(m.lastindex)
    out = []
    for p in [p.strip() for p in params.split(",") if p.strip()]:
        pname = re.findall(r"(\w+)\s*(?:\[[^\]]*\])?$", p)[0]
        out.append((pname, parameter_kind(p, "*" in p)))
    return name, out


def dims(value):
    return [int(v) for v in value.split(",")]


def gpuverify_form(inst, facts):
    """Moves what GPUVerify's loader rejects from the instantiation to the sidecar, as clcapture's writer
    does (common/README.md): an offset with a 0 component (the exact offset always goes to the sidecar), a
    local size that does not divide the global size, an array of 0 bytes. Returns the sidecar launch's keys."""
    exact = {}
    if "global_offset" in inst:
        exact["global_offset"] = inst["global_offset"]
        if not all(o > 0 for o in inst["global_offset"]):
            del inst["global_offset"]
    local, glob = inst.get("local_size"), inst["global_size"]
    if local and len(local) == len(glob) and all(l > 0 for l in local) and any(g % l for g, l in zip(glob, local)):
        exact["local_size"] = inst.pop("local_size")
    for arg, fact in zip(inst["kernel_arguments"], facts):
        if arg.get("type") == "array" and arg.get("size") == 0:
            fact["size"] = arg.pop("size")
        if arg.get("type") == "scalar" and arg.get("value", "").startswith("0X"):
            arg["value"] = "0x" + arg["value"][2:]
    return exact


def build_capture(folder, kernel_name, text, entry, params, inst, launch, address_bits=64):
    """Writes a capture folder for one launch of `entry` (kernels/, data/, captures.json, captures.meta.json).

    kernel_name  the source's file name under kernels/; text its contents
    params       [(name, kind)] as parameters() returns them
    inst         the instantiation's launch keys so far (language, endianness, global_size, local_size,
                 global_offset, compiler_flags); completed here and written as captures.json's one entry
    launch       {"args": {name: "0xHEX"}, "sizes": {name: bytes}, "data": {name: "int:v,…" | "iota:N" | bytes},
                  "alias": {name: other}} and optionally "flags": {name: ["CL_MEM_…"]} (default read-write),
                 "null": {names of NULL buffer arguments}
    address_bits the device's pointer width, in the sidecar
    """
    os.makedirs(os.path.join(folder, "kernels"))
    os.makedirs(os.path.join(folder, "data"))
    kernel_file = "kernels/" + kernel_name
    with open(os.path.join(folder, kernel_file), "w", encoding="utf-8") as f:
        f.write(text)
    inst["kernel_file"] = kernel_file
    inst["entry_point"] = entry
    inst.setdefault("compiler_flags", "")
    args, facts = [], []
    mem_ids = {}
    for index, (pname, kind) in enumerate(params):
        fact = {"index": index, "kind": "scalar", "name": pname}
        if kind == "scalar":
            arg = {"type": "scalar"}
            if pname in launch["args"]:
                arg["value"] = launch["args"][pname]
        elif kind in ("image", "sampler"):
            arg = {"type": kind}
            fact["kind"] = kind
            if kind == "image" and pname in launch.get("images", {}):
                fact["image"] = launch["images"][pname]
            if kind == "sampler" and pname in launch.get("samplers", {}):
                fact["sampler"] = launch["samplers"][pname]
        elif pname in launch.get("null", ()):
            arg = {"type": "array", "address_space": kind}
            fact["kind"] = "null-buffer"
        else:
            arg = {"type": "array", "address_space": kind}
            if pname in launch["sizes"]:
                arg["size"] = int(launch["sizes"][pname])
            fact["kind"] = "local" if kind == "local" else "buffer"
            if kind != "local":
                target = launch["alias"].get(pname, pname)
                fact["mem_object"] = mem_ids.setdefault(target, len(mem_ids))
                arg["flags"] = launch.get("flags", {}).get(pname, ["CL_MEM_READ_WRITE"])
            if pname in launch["data"]:
                value = launch["data"][pname]
                if isinstance(value, bytes):
                    blob = value
                else:
                    ints = data_ints(value)
                    blob = struct.pack(f"<{len(ints)}i", *ints)
                name = f"data/{pname}.bin"
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(blob)
                arg["data"] = name
                arg["size"] = len(blob)
        args.append(arg)
        facts.append(fact)
    inst["kernel_arguments"] = args
    exact = gpuverify_form(inst, facts)
    broken = gpuverify_loader_rules.check([inst], strict=True)
    if broken:
        raise SystemExit("\n".join(gpuverify_loader_rules.describe("captures.json", v) for v in broken))
    with open(os.path.join(folder, "captures.json"), "w", encoding="utf-8") as f:
        json.dump([inst], f, indent=2)
    aliases = {}
    for pname, kind in params:
        if kind in ("global", "constant") and pname not in launch.get("null", ()):
            target = launch["alias"].get(pname, pname)
            aliases.setdefault(target, []).append([p for p, _ in params].index(pname))
    device = {"name": "corpus", "vendor": "corpus", "version": "OpenCL 1.2", "driver_version": "0",
              "address_bits": address_bits, "endianness": "little"}
    if "device_non_uniform" in launch:
        device["non_uniform_work_groups"] = launch["device_non_uniform"]
    meta = {"format": "clcapture-meta", "format_version": 2, "clcapture_version": "corpus", "process": {"executable": "corpus", "pid": 0,
            "started_at": "2026-01-01T00:00:00Z"},
            "launches": [{"launch": 0, "instantiation": 0, "enqueue_function": "clEnqueueNDRangeKernel",
                          "kernel_name": entry, "thread": 0, "queue": 0, "program": 0,
                          "program_origin": "source", "build_options": inst["compiler_flags"],
                          "device": device,
                          "arguments": facts,
                          "aliases": sorted(g for g in aliases.values() if len(g) > 1), **exact}]}
    with open(os.path.join(folder, "captures.meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)


def launch_of(text, options):
    """(entry, params, inst, launch) from a corpus header's launch options (parse_header's second part)."""
    launch = {"args": {}, "sizes": {}, "data": {}, "alias": {}, "strict": False}
    entry = None
    it = iter(options)
    inst = {"language": "OpenCL", "endianness": "little"}
    for o in it:
        if o.startswith("--global_size="):
            inst["global_size"] = dims(o.split("=", 1)[1])
        elif o.startswith("--local_size="):
            inst["local_size"] = dims(o.split("=", 1)[1])
        elif o.startswith("--global_offset="):
            inst["global_offset"] = dims(o.split("=", 1)[1])
        elif o.startswith("--entry="):
            entry = o.split("=", 1)[1]
        elif o.startswith("--flags="):
            inst["compiler_flags"] = o.split("=", 1)[1]
        elif o == "--strict":
            launch["strict"] = True
        elif o.startswith("--checks=") or o.startswith("--open="):
            launch.setdefault("verify_options", []).append(o)
        elif o.startswith("--oclgrind-blind="):
            pass  # for oclgrind_crosscheck.py
        elif o.startswith("--device-non-uniform="):
            value = o.split("=", 1)[1]
            if value not in ("yes", "no"):
                raise SystemExit(f"--device-non-uniform takes yes or no, not {value}")
            launch["device_non_uniform"] = value == "yes"
        elif o == "--mem-flags":  # NAME=CL_MEM_READ_ONLY[|CL_MEM_…]: the buffer's flags (default read-write)
            key, value = next(it).split("=", 1)
            launch.setdefault("flags", {})[key] = value.split("|")
        elif o == "--image":  # NAME=TYPE:WxH[xD]
            key, value = next(it).split("=", 1)
            kind, _, extents = value.partition(":")
            sizes = [int(v) for v in extents.split("x")]
            names = {"image1d": ["width"], "image1d_buffer": ["width"], "image1d_array": ["width", "array_size"],
                     "image2d": ["width", "height"], "image2d_array": ["width", "height", "array_size"],
                     "image3d": ["width", "height", "depth"]}.get(kind)
            if not names or len(names) != len(sizes):
                raise SystemExit(f"--image {key}={value}: expected TYPE:WxH[xD] with one extent per dimension")
            launch.setdefault("images", {})[key] = {"type": kind, **dict(zip(names, sizes))}
        elif o == "--sampler":  # NAME=ADDRESSING[,normalized][,linear]
            key, value = next(it).split("=", 1)
            parts = value.split(",")
            launch.setdefault("samplers", {})[key] = {"normalized_coords": "normalized" in parts[1:],
                                                      "addressing": parts[0],
                                                      "filter": "linear" if "linear" in parts[1:] else "nearest"}
        elif o in ("--arg", "--size", "--data", "--alias"):
            key, value = next(it).split("=", 1)
            launch[{"--arg": "args", "--size": "sizes", "--data": "data", "--alias": "alias"}[o]][key] = value
        else:
            raise SystemExit(f"unknown header option {o}")
    entry, params = parameters(text, entry)
    return entry, params, inst, launch


def reported(r):
    """Whether clcapture-verify's run `r` ended with its report: exit status 0 (every launch verified) or 6
    (not all verified), or 7 (a time limit reached, ExitCode.h) with the launch `unknown`. A time-out is an
    unknown that a loaded machine reaches where an idle one may not (cvc5 aborts when a query's budget
    interrupts its SAT solver, and the launch is then `unknown`: cli/src/AnalysisInChild.cpp); the verdict
    and the header's messages are checked as for any other."""
    if not r.stdout.strip():
        return False
    if r.returncode in (0, 6):
        return True
    try:
        results = json.loads(r.stdout)["results"]
    except (ValueError, KeyError):
        return False
    return r.returncode == 7 and all(x["verdict"] == "unknown" for x in results)


def verify_kernel(kernel_path, verify, keep=None, opt_level=None, extra_args=()):
    """Runs clcapture-verify on the kernel's generated capture: (expected verdict, header regexes, the
    completed process). opt_level: CLCAPTURE_VERIFY_OPT_LEVEL for it (None: the environment's)."""
    with open(kernel_path, encoding="utf-8") as f:
        text = f.read()
    expected, options, regexes = parse_header(text)
    entry, params, inst, launch = launch_of(text, options)
    env = None
    if opt_level is not None:
        env = dict(os.environ, CLCAPTURE_VERIFY_OPT_LEVEL=str(opt_level))
    with tempfile.TemporaryDirectory() as folder:
        build_capture(folder, os.path.basename(kernel_path), text, entry, params, inst, launch)
        strict = ["--strict"] if launch["strict"] else []
        strict += launch.get("verify_options", [])
        r = subprocess.run([verify, "--format=json", *strict, *extra_args, os.path.join(folder, "captures.json")],
                           capture_output=True, text=True, env=env)
        if keep:
            shutil.copytree(folder, keep, dirs_exist_ok=True)
    return expected, regexes, r


def main():
    kernel_path, verify = sys.argv[1], sys.argv[2]
    json_only = "--json-only" in sys.argv[3:]
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv[3:] else None
    opt_level = sys.argv[sys.argv.index("--opt-level") + 1] if "--opt-level" in sys.argv[3:] else None
    expected, regexes, r = verify_kernel(kernel_path, verify, keep, opt_level)
    if json_only:
        # For oclgrind_crosscheck.py: the result record alone, on the last line.
        print(json.dumps(json.loads(r.stdout)["results"][0]) if r.stdout.strip() else "")
        return 0
    if not reported(r):
        print(f"FAIL: clcapture-verify exited {r.returncode}: {r.stderr}")
        return 1
    result = json.loads(r.stdout)["results"][0]
    # The lines a reader sees in the text report (TextReport.cpp): verdict and reason, each finding's
    # severity and message, each access. The analysis runs once; the headers' regexes match these lines.
    report_lines = [f"{result['verdict']}: {result.get('reason', '')}"]
    for f in result["findings"]:
        report_lines.append(f"{f['severity']}: {f['message']}")
        for a in f["accesses"]:
            loc = a["location"]
            report_lines.append(f"  {a.get('access', '')} by work-item global {tuple(a['work_item']['global_id'])} "
                                f"local {tuple(a['work_item']['local_id'])} group {tuple(a['work_item']['group_id'])}, "
                                f"{loc['file']}:{loc.get('line', 0)}:{loc.get('column', 0)}: {a.get('source', '')}")
    if result.get("bounds_not_checked"):
        report_lines.append(f"  note: bounds not checked for {', '.join(result['bounds_not_checked'])}: "
                            "the capture gives no size or extent")
    report = "\n".join(report_lines)
    print(report + "\n" + r.stderr)
    failures = []
    if result["verdict"] != expected:
        failures.append(f"verdict {result['verdict']}, expected {expected}" +
                        (f" (reason: {result.get('reason')})" if result.get("reason") else ""))
    if expected == "defects":
        counting = [f for f in result["findings"] if f["severity"] == "error"]
        if not counting:
            failures.append("no finding with a witness")
        for f in counting:
            if f["kind"] != "data-race":
                continue
            a, b = f["accesses"]
            if a["work_item"]["global_id"] == b["work_item"]["global_id"]:
                failures.append("a race witness with one work-item twice")
    for rx in regexes:
        if not re.search(rx, report):
            failures.append(f"no line matches //{rx}")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
