#!/usr/bin/python3
"""GPUVerify's own loader's rules for a kernel-instantiation file, restated so the tests can apply them.

GPUVerify reads captures with GPUVerifyScript/json_loader.py (mc-imperial/gpuverify), which turns away the
WHOLE file when one instantiation breaks one of the rules below, even where the GPUVerify format
(GPUVerify's JSON kernel-instantiation format, docs/contract.md §3) is silent or looser: an offset component of 0, a local size that
does not divide the global size, an array of 0 bytes. docs/contract.md §3 promises that captures.json never does; the
exact values live in the sidecar (common/README.md). Each rule here has an id, and a violation names the
rule and the instantiation. Nothing here is GPUVerify's code: the rules are written from reading it.

usage: gpuverify_loader_rules.py [--strict] [--expect-rejected] FILE...
  --strict           also require `endianness` (the loader's strict mode, which it asks new tools to meet;
                     clcapture always writes the device's)
  --expect-rejected  a negative test of these rules: every FILE must break one, and the first violation's
                     rule id must be the file's name without `.json` (e.g. global-offset-positive.json)
Prints one line per violation (or per file). Exit status 0 when every file met the expectation, 1
otherwise, 2 when a file cannot be read as JSON (the loader turns that away too, but it is not a rule).

From Python: check(document, strict=False) -> [Violation]; describe(path, violation) -> one line.
"""
import json
import os
import re
import sys
from collections import namedtuple

# The loader checks `type(n) is int`; under Python 2, which it is written for, a JSON number above this is
# a `long` and fails that check.
LARGEST_NUMBER = 2 ** 63 - 1

INSTANTIATION_KEYS = ("language", "endianness", "kernel_file", "local_size", "global_size", "global_offset",
                      "compiler_flags", "entry_point", "kernel_arguments", "host_api_calls")
REQUIRED_KEYS = ("kernel_file", "global_size", "entry_point")
ARGUMENT_KEYS = {"scalar": ("type", "value"), "array": ("type", "size", "flags", "data", "address_space"),
                 "image": ("type",), "sampler": ("type",)}
HOST_CALL_KEYS = ("function_name", "compilation_unit", "line_number")
# A hex number both Python 2 and 3 read with int(value, 16), with the lower-case prefix the loader looks
# for. (The loader would also take surrounding whitespace, and Python 3 underscores; clcapture writes
# neither, so they count as violations here.)
HEX_VALUE = re.compile(r"0x[0-9A-Fa-f]+")

# Each rule: id -> what the loader wants. The ids are what --expect-rejected matches file names against.
RULES = {
    "top-level-array": "the file is one JSON array of instantiations",
    "instantiation-object": "each instantiation is a JSON object",
    "language-opencl": "`language` is present and is \"OpenCL\"",
    "required-keys": "`kernel_file`, `global_size` and `entry_point` are present (and `endianness` in strict mode)",
    "known-keys": "an instantiation has only the format's ten keys",
    "string-values": "`language`, `kernel_file`, `entry_point` and `compiler_flags` are strings",
    "endianness": "`endianness` is \"little\" or \"big\"",
    "global-size-positive": "`global_size` is an array of integers from 1 to 2^63-1",
    "local-size-positive": "`local_size` is an array of integers from 1 to 2^63-1",
    "global-offset-positive": "`global_offset` is an array of integers from 1 to 2^63-1: no component may be 0",
    "local-global-dimensions": "`local_size` has as many dimensions as `global_size`",
    "local-divides-global": "each component of `global_size` is a multiple of that of `local_size`",
    "compiler-flags-arguments": "a `-D` or `-I` written alone in `compiler_flags` is followed by its argument",
    "kernel-arguments-array": "`kernel_arguments` is an array of objects, each with a `type`",
    "argument-type": "an argument's `type` is scalar, array, image or sampler",
    "argument-keys": "an argument has only the keys of its type",
    "scalar-hex": "a scalar's `value` is a string 0x followed by hex digits (lower-case x)",
    "array-size-positive": "an array's `size` is an integer from 1 to 2^63-1",
    "array-flags-strings": "an array's `flags` is an array of strings",
    "array-data-string": "an array's `data` is a string",
    "address-space": "an array's `address_space` is global, local or constant",
    "host-api-calls": "`host_api_calls` is an array of objects with `function_name` and `compilation_unit` "
                      "(strings) and `line_number` (an integer from 1 to 2^63-1), and nothing else",
}

Violation = namedtuple("Violation", ["instantiation", "rule", "message"])


def _is_number(value):
    # JSON true/false arrive as bool, a subclass of int: the loader's exact type test excludes them.
    return type(value) is int and 1 <= value <= LARGEST_NUMBER


def _positive_numbers(value):
    return isinstance(value, list) and all(_is_number(v) for v in value)


def _dangling_option(flags):
    """The -D or -I that ends `flags` with nothing after it, or None. The loader splits the flags on
    whitespace and lets `-D`/`-I` written alone take the next word as its argument."""
    words = flags.split()
    i = 0
    while i < len(words):
        if words[i] in ("-D", "-I"):
            if i + 1 == len(words):
                return words[i]
            i += 1
        i += 1
    return None


def _check_argument(arg, where, out):
    if not isinstance(arg, dict) or "type" not in arg:
        out("kernel-arguments-array", f"{where} is {json.dumps(arg)[:80]}, not an object with a type")
        return
    kind = arg["type"]
    if kind not in ARGUMENT_KEYS:
        out("argument-type", f"{where} has type {json.dumps(kind)}")
        return
    for key in arg:
        if key not in ARGUMENT_KEYS[kind]:
            out("argument-keys", f"{where} ({kind}) has the key {json.dumps(key)}")
    if kind == "scalar" and "value" in arg:
        value = arg["value"]
        if not isinstance(value, str) or not HEX_VALUE.fullmatch(value):
            out("scalar-hex", f"{where}.value is {json.dumps(value)}")
    if kind != "array":
        return
    if "size" in arg and not _is_number(arg["size"]):
        out("array-size-positive", f"{where}.size is {json.dumps(arg['size'])}")
    if "flags" in arg and not (isinstance(arg["flags"], list) and all(isinstance(f, str) for f in arg["flags"])):
        out("array-flags-strings", f"{where}.flags is {json.dumps(arg['flags'])}")
    if "data" in arg and not isinstance(arg["data"], str):
        out("array-data-string", f"{where}.data is {json.dumps(arg['data'])}")
    if "address_space" in arg and arg["address_space"] not in ("global", "local", "constant"):
        out("address-space", f"{where}.address_space is {json.dumps(arg['address_space'])}")


def _check_host_call(call, where, out):
    if not isinstance(call, dict):
        out("host-api-calls", f"{where} is {json.dumps(call)[:80]}, not an object")
        return
    for key in HOST_CALL_KEYS:
        if key not in call:
            out("host-api-calls", f"{where} has no {key}")
    for key, value in call.items():
        if key not in HOST_CALL_KEYS:
            out("host-api-calls", f"{where} has the key {json.dumps(key)}")
        elif key == "line_number" and not _is_number(value):
            out("host-api-calls", f"{where}.line_number is {json.dumps(value)}")
        elif key != "line_number" and not isinstance(value, str):
            out("host-api-calls", f"{where}.{key} is {json.dumps(value)}, not a string")


def _check_instantiation(inst, out, strict):
    if not isinstance(inst, dict):
        out("instantiation-object", f"got {json.dumps(inst)[:80]}")
        return
    if inst.get("language") != "OpenCL":
        out("language-opencl", f"language is {json.dumps(inst.get('language'))}")
        return  # the loader reads nothing else of an entry in another language
    for key in REQUIRED_KEYS + (("endianness",) if strict else ()):
        if key not in inst:
            out("required-keys", f"no {key}")
    for key in inst:
        if key not in INSTANTIATION_KEYS:
            out("known-keys", f"unknown key {json.dumps(key)}")
    for key in ("language", "kernel_file", "entry_point", "compiler_flags"):
        if key in inst and not isinstance(inst[key], str):
            out("string-values", f"{key} is {json.dumps(inst[key])}, not a string")
    if "endianness" in inst and inst["endianness"] not in ("little", "big"):
        out("endianness", f"endianness is {json.dumps(inst['endianness'])}")
    for key in ("global_size", "local_size", "global_offset"):
        if key in inst and not _positive_numbers(inst[key]):
            out(key.replace("_", "-") + "-positive",
                f"{key} is {json.dumps(inst[key])}; every component must be an integer from 1 to 2^63-1")
    local, global_ = inst.get("local_size"), inst.get("global_size")
    if _positive_numbers(local) and _positive_numbers(global_):
        if len(local) != len(global_):
            out("local-global-dimensions", f"local_size {local} and global_size {global_} differ in dimensions")
        else:
            for d, (l, g) in enumerate(zip(local, global_)):
                if g % l:
                    out("local-divides-global", f"global_size[{d}] = {g} is not a multiple of local_size[{d}] = {l}")
    flags = inst.get("compiler_flags")
    if isinstance(flags, str) and _dangling_option(flags):
        out("compiler-flags-arguments", f"compiler_flags {json.dumps(flags)} ends in {_dangling_option(flags)} "
                                        "without its argument")
    if "kernel_arguments" in inst:
        args = inst["kernel_arguments"]
        if not isinstance(args, list):
            out("kernel-arguments-array", f"kernel_arguments is {json.dumps(args)[:80]}")
        else:
            for k, arg in enumerate(args):
                _check_argument(arg, f"kernel_arguments[{k}]", out)
    if "host_api_calls" in inst:
        calls = inst["host_api_calls"]
        if not isinstance(calls, list):
            out("host-api-calls", f"host_api_calls is {json.dumps(calls)[:80]}")
        else:
            for k, call in enumerate(calls):
                _check_host_call(call, f"host_api_calls[{k}]", out)


def check(document, strict=False):
    """Every rule `document` (a parsed captures.json) breaks, in file order."""
    if not isinstance(document, list):
        return [Violation(None, "top-level-array", f"got {type(document).__name__}")]
    found = []
    for i, inst in enumerate(document):
        _check_instantiation(inst, lambda rule, message, i=i: found.append(Violation(i, rule, message)), strict)
    return found


def describe(path, v):
    """`PATH: instantiation N: GPUVerify's loader rejects the file (rule RULE: what it wants): MESSAGE`"""
    where = f"{path}: " + ("" if v.instantiation is None else f"instantiation {v.instantiation}: ")
    return f"{where}GPUVerify's loader rejects the file (rule {v.rule}: {RULES[v.rule]}): {v.message}"


def main():
    args = sys.argv[1:]
    strict = "--strict" in args
    expect_rejected = "--expect-rejected" in args
    files = [a for a in args if a not in ("--strict", "--expect-rejected")]
    if not files:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    failed = False
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: cannot read: {e}", file=sys.stderr)
            return 2
        found = check(document, strict)
        if expect_rejected:
            want = os.path.basename(path)[:-len(".json")] if path.endswith(".json") else None
            if not found:
                print(f"{path}: error: GPUVerify's loader would accept this file, but it should break rule "
                      f"{want} (the file's name)")
                failed = True
            elif found[0].rule != want:
                print(f"{path}: error: expected rule {want} first, got: {describe(path, found[0])}")
                failed = True
            else:
                print(f"rejected as expected: {describe(path, found[0])}")
            continue
        for v in found:
            print(describe(path, v))
        failed = failed or bool(found)
        if not found:
            print(f"{path}: GPUVerify's loader accepts all {len(document)} instantiation(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
