"""The launch manifest fuzz_host reads: one generated kernel per launch, with its launch description.

{"format": "clcapture-soundness-manifest", "version": 1, "seed": S,
 "launches": [{"kernel": NAME,                   entry point, unique in the manifest
               "source": "kernels/NAME.cl",      relative to the manifest's folder
               "headers": ["kernels/NAME.h"],    files the source #includes (the build passes -I)
               "build_options": "...",
               "global_size": [..], "local_size": [..] (absent: NULL), "global_offset": [..] (optional),
               "args": [{"kind": "buffer", "bytes": N, "read_only": bool, "contents": HEX (absent:
                         little-endian int32 1, 2, 3, …)} | {"kind": "buffer", "same_as": I}
                        | {"kind": "local", "bytes": N} | {"kind": "scalar", "bytes": N, "value": HEX}],
               "expectation": "racefree" | "benign" | "unknown-expectation",
               "strategy": "grammar" | "mutation",
               "oracle_source": "kernels/NAME.oracle.cl",  the same kernel for Oclgrind (see oracle_text)
               "features": [...],                what the kernel exercises (docs/soundness-fuzzer.md)
               "origin": ..., "mutations": [...]}]}   (mutations of corpus kernels)
HEX strings are bytes in memory order (little-endian for numbers). `expectation`: "racefree" when the
kernel is race-free and divergence-free by construction (a `defects` verdict on it is a false alarm);
"benign" when its only races are writes of one value by every writer (clcapture-verify must not say
`defects` either, docs/contract.md §4); "unknown-expectation" otherwise.
"""
import json
import os
import re
import struct

FORMAT = "clcapture-soundness-manifest"
EXPECTATIONS = ("racefree", "benign", "unknown-expectation")


def int32_hex(values):
    """Little-endian int32 values as a HEX contents string."""
    return struct.pack(f"<{len(values)}i", *values).hex()


def float_hex(values):
    return struct.pack(f"<{len(values)}f", *values).hex()


def scalar_hex(value, size):
    """An integer scalar argument of `size` bytes as HEX (little-endian, two's complement)."""
    return (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little").hex()


class Launch:
    """One kernel and its launch; `files` maps paths relative to the manifest to their text."""

    def __init__(self, kernel, source_text, strategy):
        self.kernel = kernel
        self.files = {f"kernels/{kernel}.cl": source_text}
        self.source = f"kernels/{kernel}.cl"
        self.headers = []
        self.build_options = ""
        self.global_size = [1]
        self.local_size = None
        self.global_offset = None
        self.args = []
        self.expectation = "unknown-expectation"
        self.strategy = strategy
        self.features = []
        self.origin = None
        self.mutations = []
        self.hazards = []

    def add_header(self, name, text):
        path = f"kernels/{name}"
        self.files[path] = text
        self.headers.append(path)

    def record(self):
        r = {"kernel": self.kernel, "source": self.source, "build_options": self.build_options,
             "global_size": self.global_size}
        if self.headers:
            r["headers"] = self.headers
        if self.local_size is not None:
            r["local_size"] = self.local_size
        if self.global_offset is not None:
            r["global_offset"] = self.global_offset
        r["args"] = self.args
        r["expectation"] = self.expectation
        r["strategy"] = self.strategy
        r["features"] = sorted(set(self.features))
        if self.origin:
            r["origin"] = self.origin
        if self.mutations:
            r["mutations"] = self.mutations
        if self.hazards:
            r["hazards"] = self.hazards
        assert self.expectation in EXPECTATIONS, self.expectation
        return r


# A helper's inline spelling at the start of its definition (INLINE and HELPER: the macros the generator
# and the corpus spell them through).
INLINE_PREFIX = re.compile(r"^(?:/\*\s*extern inline\s*\*/\s*)?(?:static\s+inline|extern\s+__inline__|extern\s+inline|"
                           r"__inline__|__inline|inline|INLINE|HELPER)\s+(?=[\w\s*]+\()", re.M)
INCLUDE = re.compile(r'^#include "([^"]+)"\n', re.M)


def oracle_text(text, headers=None):
    """The kernel as Oclgrind runs it: included headers inlined and every inline helper made `static`.
    Oclgrind compiles without optimisation, where C99 gives a plain `inline` function no body outside its
    translation unit ("Undefined external function"); PoCL inlines it, and every spelling's body is what
    a driver runs, so `static` runs the same code. None when nothing changes."""
    out = INCLUDE.sub(lambda m: (headers or {}).get(m.group(1), m.group(0)), text)
    out = INLINE_PREFIX.sub("static ", out)
    return out if out != text else None


def include_option(folder):
    """The -I option that finds the headers of launches written into `folder`."""
    return "-I " + os.path.join(os.path.abspath(folder), "kernels")


def write(folder, seed, launches):
    """Writes every launch's files and manifest.json into `folder`; returns the manifest's path. Launches
    with headers get the -I option of the folder's kernels/ (absolute: the layer resolves it from the
    host's working folder, SourceInliner.h)."""
    os.makedirs(os.path.join(folder, "kernels"), exist_ok=True)
    records = []
    for launch in launches:
        for path, text in launch.files.items():
            with open(os.path.join(folder, path), "w", encoding="utf-8") as f:
                f.write(text)
        if launch.headers:
            launch.build_options = (launch.build_options + " " + include_option(folder)).strip()
        record = launch.record()
        headers = {os.path.basename(h): launch.files[h] for h in launch.headers}
        oracle = oracle_text(launch.files[launch.source], headers)
        if oracle is not None:
            record["oracle_source"] = f"kernels/{launch.kernel}.oracle.cl"
            with open(os.path.join(folder, record["oracle_source"]), "w", encoding="utf-8") as f:
                f.write(oracle)
        records.append(record)
    names = [r["kernel"] for r in records]
    assert len(set(names)) == len(names), "kernel names must be unique in a manifest"
    path = os.path.join(folder, "manifest.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"format": FORMAT, "version": 1, "seed": seed, "launches": records}, f, indent=1)
        f.write("\n")
    return path


def read(path):
    with open(path, encoding="utf-8") as f:
        manifest = json.load(f)
    if manifest.get("format") != FORMAT:
        raise SystemExit(f"{path}: not a {FORMAT}")
    return manifest
