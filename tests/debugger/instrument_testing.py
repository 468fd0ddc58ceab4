"""What instrument_test.py and instrument_sweep.py share: clcapture-instrument run on a source, the
instrumented source compiled by Debian's clang-16, a trace buffer made and read back as records
(docs/device-debugging.md, "The trace buffer"), and the checks every trace must pass."""
import json
import os
import re
import shlex
import struct
import subprocess
import tempfile

from debug_testing import check

HEADER_WORDS = 4
NOT_WRITTEN = 0xFFFFFFFF


HOOK = re.compile(r" CLCAPTURE_INJECT_(\d+)")


class Instrumented:
    """`full`: the instrumented file as written (the injection hooks' default definitions, `#line 1`, the
    kernel with a hook before each statement, barrier and entry record); `source`: the same without the hooks
    (what the line-by-line checks read, line N being the kernel's line N; it compiles and runs the same)."""

    def __init__(self, returncode, stdout, stderr, full, layout):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
        self.full, self.layout = full, layout
        self.source = None
        if full is not None:
            prologue, marker, body = full.partition("#line 1\n")
            if not marker:
                prologue, body = "", full
            used = [int(n) for n in HOOK.findall(body)]
            defined = [int(n) for n in re.findall(r"^#define CLCAPTURE_INJECT_(\d+)$", prologue, re.M)]
            hooked = [s["id"] for s in layout["sites"] if s["kind"] in ("statement", "barrier", "entry")]
            check(sorted(used) == sorted(defined) == sorted(hooked),
                  f"injection hooks: used {sorted(used)}, defined {sorted(defined)}, statement/barrier/entry "
                  f"sites {sorted(hooked)}")
            self.source = HOOK.sub("", body)

    def sites(self, kind=None, function=None):
        return [s for s in self.layout["sites"]
                if (kind is None or s["kind"] == kind) and (function is None or s["function"] == function)]

    def site_at(self, line, kind="statement"):
        found = [s for s in self.layout["sites"] if s["line"] == line and s["kind"] == kind]
        check(len(found) == 1, f"expected one {kind} site at line {line}, found {len(found)}: "
                               f"{[(s['kind'], s['line'], s['text']) for s in self.layout['sites']]}")
        return found[0]


def instrument(binary, source_path, kernel, extra=(), want=0, show=True):
    """clcapture-instrument on `source_path`; checks its exit status is `want`; the outputs when it is 0."""
    with tempfile.TemporaryDirectory() as tmp:
        out_source, out_layout = os.path.join(tmp, "out.cl"), os.path.join(tmp, "layout.json")
        cmd = [binary, source_path, "--kernel", kernel, *extra, "--output-source", out_source,
               "--output-layout", out_layout]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if show or r.returncode != want:
            print("$ " + " ".join(shlex.quote(c) for c in cmd) + f"  -> {r.returncode}")
            if r.stdout.strip():
                print(r.stdout.rstrip())
            if r.stderr.strip():
                print(r.stderr.rstrip())
        check(r.returncode == want, f"clcapture-instrument exited {r.returncode}, expected {want}")
        check(r.returncode >= 0, "clcapture-instrument crashed")
        if r.returncode != 0:
            check(not os.path.exists(out_source) and not os.path.exists(out_layout),
                  "a failed run wrote its outputs")
            return Instrumented(r.returncode, r.stdout, r.stderr, None, None)
        with open(out_source) as f:
            source = f.read()
        with open(out_layout) as f:
            layout = json.load(f)
        return Instrumented(r.returncode, r.stdout, r.stderr, source, layout)


def clang_compiles(source, flags="", include_dir=None, show=True):
    """The instrumented source through Debian's clang-16: syntax, then code generation for spir64 (the
    optimiser, whose verifier would catch malformed IR)."""
    std = re.search(r"-cl-std=(\S+)", flags)
    defines = [f for f in shlex.split(flags) if f.startswith("-D")]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "instrumented.cl")
        with open(path, "w") as f:
            f.write(source)
        common = ["clang-16", "-x", "cl", "-cl-std=" + (std.group(1) if std else "CL1.2"), "-Xclang",
                  "-finclude-default-header", *defines] + (["-I", include_dir] if include_dir else [])
        for extra in (["-fsyntax-only"], ["-target", "spir64", "-O1", "-emit-llvm", "-c", "-o", os.devnull]):
            r = subprocess.run(common + extra + [path], capture_output=True, text=True, timeout=120)
            if r.returncode != 0:
                print(r.stderr[-3000:])
            check(r.returncode == 0, "clang-16 " + " ".join(extra) + " rejects the instrumented source")
    if show:
        print("clang-16: the instrumented source compiles (syntax, spir64)")


def trace_buffer(capacity_words):
    """A trace buffer as the host prepares it: cursor 0, dropped 0, capacity, records as 0xFF bytes."""
    return struct.pack("<4I", 0, 0, capacity_words, 0) + b"\xff" * (4 * capacity_words)


class Trace:
    """A trace buffer read back: the header and the records, each (site, item, sequence, value words)."""

    def __init__(self, data, layout):
        words = struct.unpack("<%dI" % (len(data) // 4), data)
        self.cursor, self.dropped, self.capacity, reserved = words[:HEADER_WORDS]
        check(reserved == 0, f"trace word 3 is {reserved}")
        sites = {s["id"]: s for s in layout["sites"]}
        self.records = []
        at, used = 0, min(self.cursor, self.capacity)
        while at < used:
            site = words[HEADER_WORDS + at]
            if site == NOT_WRITTEN:  # reserved by a record that did not fit: nothing after it fits either
                check(self.dropped > 0, f"an unwritten record at word {at} but no record was dropped")
                break
            check(site in sites, f"record at word {at} names site {site}, which the layout does not have")
            length = sites[site]["words"]
            check(at + length <= used, f"record at word {at} runs past the used words")
            item, sequence = words[HEADER_WORDS + at + 1], words[HEADER_WORDS + at + 2]
            self.records.append((site, item, sequence, words[HEADER_WORDS + at + 3:HEADER_WORDS + at + length]))
            at += length
        self.words_read = at

    def by_item(self):
        out = {}
        for r in sorted(self.records, key=lambda r: (r[1], r[2])):
            out.setdefault(r[1], []).append(r)
        return out

    def check_structure(self, items):
        """Every record's work-item is one of the launch's; each work-item's sequence numbers run 0, 1, 2, …
        without a gap unless records were dropped; with none dropped, the records fill the cursor's words."""
        check(all(r[1] < items for r in self.records), "a record names a work-item outside the launch")
        if self.dropped == 0:
            check(self.cursor <= self.capacity, "the cursor passed the capacity but no record was dropped")
            check(self.words_read == self.cursor, f"records fill {self.words_read} words, the cursor says {self.cursor}")
        for item, records in self.by_item().items():
            sequences = [r[2] for r in records]
            check(len(set(sequences)) == len(sequences), f"work-item {item} has a sequence number twice")
            if self.dropped == 0:
                check(sequences == list(range(len(sequences))), f"work-item {item}'s sequence has gaps: {sequences}")


def as_int(words, signed=True):
    value = 0
    for i, w in enumerate(words):
        value |= w << (32 * i)
    bits = 32 * len(words)
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def as_float(word):
    return struct.unpack("<f", struct.pack("<I", word))[0]
