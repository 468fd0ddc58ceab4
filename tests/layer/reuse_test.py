#!/usr/bin/python3
"""A buffer nothing could have written is read once; one that any writer kind changed is read again.

usage: reuse_test.py LAUNCHER ICD SAMPLES_DIR [--count-pocl-reads]

Runs samples/buffer_writers under the launcher: 1000 launches with an unchanged input, then one launch after
each kind of command that may write it (write, write rect, copy, copy rect, fill, map for writing + unmap, a
kernel, a write to a sub-buffer of it, a CL_MEM_USE_HOST_PTR buffer the host writes). Checks:
  - the 1000 launches all record the same blob for the input, holding its bytes (7s);
  - the k-th launch of the second part records the input holding 100 + k in every element;
  - with --count-pocl-reads (PoCL's own event log, POCL_DEBUG=events): the driver saw exactly
    1000 (the kernel's output, written by every launch) + 1 (the input, once) + 3 per launch of the second
    part (input, output, and the sample's own check) buffer reads.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

UNCHANGED = 1000
WRITER_KINDS = 10


def main():
    launcher, icd, samples = sys.argv[1:4]
    count_reads = "--count-pocl-reads" in sys.argv[4:]
    with tempfile.TemporaryDirectory() as work:
        folder = os.path.join(work, "capture")
        env = dict(os.environ, POCL_DEBUG="events") if count_reads else None
        run = subprocess.run([launcher, "--icd", icd, "--dir", folder, "--",
                              os.path.join(samples, "buffer_writers"), str(UNCHANGED)],
                             capture_output=True, text=True, env=env, timeout=600)
        if run.returncode != 0 or "PASS" not in run.stdout:
            sys.exit(f"FAIL: buffer_writers under the launcher exited {run.returncode}:\n{run.stdout}\n"
                     f"{run.stderr[-3000:]}")
        with open(os.path.join(folder, "captures.json")) as f:
            captures = json.load(f)
        copies = [c for c in captures if c["entry_point"] == "copy"]
        if len(copies) != UNCHANGED + WRITER_KINDS:
            sys.exit(f"FAIL: {len(copies)} launches of copy captured, expected {UNCHANGED + WRITER_KINDS}")
        first = {c["kernel_arguments"][0].get("data") for c in copies[:UNCHANGED]}
        if len(first) != 1 or None in first:
            sys.exit(f"FAIL: the unchanged input is recorded as {sorted(map(str, first))[:5]}, expected one blob")
        blob = first.pop()

        def values(name):
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            return set(struct.unpack(f"<{len(data) // 4}i", data))

        if values(blob) != {7}:
            sys.exit(f"FAIL: the unchanged input's blob holds {values(blob)}, expected 7s")
        print(f"ok: {UNCHANGED} launches with the input unchanged record one blob ({blob})")
        for k, c in enumerate(copies[UNCHANGED:]):
            got = values(c["kernel_arguments"][0]["data"])
            if got != {100 + k}:
                sys.exit(f"FAIL: launch {k} of the second part recorded the input as {got}, expected {{{100 + k}}}")
        print(f"ok: after each of {WRITER_KINDS} writer kinds the input was read again with its new bytes")
        if count_reads:
            reads = run.stderr.count("Command read_buffer")
            expected = UNCHANGED + 1 + 3 * WRITER_KINDS
            if reads != expected:
                sys.exit(f"FAIL: PoCL saw {reads} buffer reads, expected {expected} "
                         f"({UNCHANGED} outputs + 1 input + 3 per launch of the second part)")
            print(f"ok: PoCL saw {reads} buffer reads: the unchanged input was read once in {UNCHANGED} launches")


if __name__ == "__main__":
    main()
