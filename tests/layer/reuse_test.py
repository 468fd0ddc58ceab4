#!/usr/bin/python3
"""A buffer nothing could have written is read once; one that any writer kind changed is read again.

usage: reuse_test.py LAUNCHER ICD SAMPLES_DIR [--count-pocl-reads]
       reuse_test.py LAUNCHER ICD SAMPLES_DIR --default-quota

Runs samples/buffer_writers under the launcher: 1000 launches with an unchanged input, then one launch after
each kind of command that may write it (write, write rect, copy, copy rect, fill, map for writing + unmap, a
kernel, a write to a sub-buffer of it, a CL_MEM_USE_HOST_PTR buffer the host writes). Checks:
  - the 1000 launches all record the same blob for the input, holding its bytes (7s);
  - the k-th launch of the second part records the input holding 100 + k in every element;
  - with --count-pocl-reads (PoCL's own event log, POCL_DEBUG=events): the driver saw exactly
    1000 (the kernel's output, written by every launch) + 1 (the input, once) + 3 per launch of the second
    part (input, output, and the sample's own check) buffer reads.
These runs pass --data-per-shape all. With --default-quota the launcher's default (--data-per-shape 64) is
checked instead: every launch of `copy` has one shape, so its first 64 launches read their output and the
later ones record it without bytes, naming the shape's first launch; the unchanged input is still recorded
by name in the first 1000 (a reuse costs no read), the inputs changed by the writers are not; the closing
line counts what was left out and says how to get it.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)
import capture_blobs  # noqa: E402  (tools/: blobs loose or packed)

UNCHANGED = 1000
WRITER_KINDS = 10


def main():
    launcher, icd, samples = sys.argv[1:4]
    count_reads = "--count-pocl-reads" in sys.argv[4:]
    if "--default-quota" in sys.argv[4:]:
        return default_quota(launcher, icd, samples)
    with tempfile.TemporaryDirectory() as work:
        folder = os.path.join(work, "capture")
        env = dict(os.environ, POCL_DEBUG="events") if count_reads else None
        run = subprocess.run([launcher, "--icd", icd, "--dir", folder, "--data-per-shape", "all", "--",
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
            data = capture_blobs.read(folder, name)
            return set(struct.unpack(f"<{len(data) // 4}i", data))

        if values(blob) != {7}:
            sys.exit(f"FAIL: the unchanged input's blob holds {values(blob)}, expected 7s")
        if capture_blobs.copies(folder, blob) != 1:
            sys.exit(f"FAIL: the input's blob is stored {capture_blobs.copies(folder, blob)} times (loose or "
                     "packed), expected once")
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


def default_quota(launcher, icd, samples):
    per_shape = 64
    with tempfile.TemporaryDirectory() as work:
        folder = os.path.join(work, "capture")
        run = subprocess.run([launcher, "--icd", icd, "--dir", folder, "--",
                              os.path.join(samples, "buffer_writers"), str(UNCHANGED)],
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0 or "PASS" not in run.stdout:
            sys.exit(f"FAIL: buffer_writers exited {run.returncode}:\n{run.stdout}\n{run.stderr[-3000:]}")
        with open(os.path.join(folder, "captures.json")) as f:
            captures = json.load(f)
        with open(os.path.join(folder, "captures.meta.json")) as f:
            launches = {l["instantiation"]: l for l in sidecar_expand.expand(json.load(f))["launches"] if "instantiation" in l}
        copies = [(i, c) for i, c in enumerate(captures) if c["entry_point"] == "copy"]
        if len(copies) != UNCHANGED + WRITER_KINDS:
            sys.exit(f"FAIL: {len(copies)} launches of copy captured, expected {UNCHANGED + WRITER_KINDS}")
        first_launch = launches[copies[0][0]]["launch"]
        for n, (i, c) in enumerate(copies):
            out_arg = c["kernel_arguments"][1]
            reason = next(a for a in launches[i]["arguments"] if a["index"] == 1).get("data_skipped", "")
            if n < per_shape and "data" not in out_arg:
                sys.exit(f"FAIL: launch {n} of copy (within the first {per_shape}) has no output bytes: {reason}")
            if n >= per_shape:
                if "data" in out_arg:
                    sys.exit(f"FAIL: launch {n} of copy read its output past the quota of {per_shape}")
                if f"launch {first_launch} has the same shape" not in reason or \
                        f"--data-per-shape {per_shape}" not in reason:
                    sys.exit(f"FAIL: launch {n} of copy: data_skipped does not name launch {first_launch} "
                             f"and the option: {reason!r}")
            if n < UNCHANGED and "data" not in c["kernel_arguments"][0]:
                sys.exit(f"FAIL: launch {n} of copy lost the unchanged input's bytes (a reuse costs no read)")
        changed = [c for _, c in copies[UNCHANGED:] if "data" in c["kernel_arguments"][0]]
        if changed:
            sys.exit(f"FAIL: {len(changed)} launches past the quota read the input the writers changed")
        left = UNCHANGED + WRITER_KINDS - per_shape
        expected = (f"clcapture: {left + WRITER_KINDS} buffers of {left} launches left without bytes: each launch "
                    f"shape (program, kernel, NDRange, scalar values) keeps bytes for its first {per_shape} "
                    f"launches only (--data-per-shape {per_shape}); raise --data-per-shape")
        if expected not in run.stderr + run.stdout:
            sys.exit(f"FAIL: no closing line '{expected}' in:\n{run.stderr[-2000:]}")
        print(f"ok: default quota: {per_shape} launches of copy with output bytes, {left} without, each naming "
              f"launch {first_launch}; the closing line says so")


if __name__ == "__main__":
    main()
