#!/usr/bin/python3
"""CLCAPTURE_DATA_AFTER (--data-after): the bytes of the buffers a launch may write, read after it.

usage: data_after_test.py LAUNCHER ICD SAMPLES_DIR

Runs samples under the launcher on one driver and checks the sidecar's data_after blobs against what the
kernel computes from the captured inputs:
  - reduce: `partial` (write-only) holds each work-group's sum of `in`; `in` (read-only) has no data_after;
  - user_event --in-order (work gated by a user event the host opens after the launch): data + amount;
  - user_event on an out-of-order queue: no data_after, and data_after_skipped says why;
  - without --data-after: no data_after at all.
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


def capture(launcher, icd, folder, command, extra):
    run = subprocess.run([launcher, "--icd", icd, "--dir", folder] + extra + ["--"] + command,
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} under the launcher exited {run.returncode}:\n{run.stderr}")
    with open(os.path.join(folder, "captures.json")) as f:
        captures = json.load(f)
    meta = sidecar_expand.load(folder)
    return captures, meta


def ints(folder, blob):
    data = capture_blobs.read(folder, blob)
    return list(struct.unpack(f"<{len(data) // 4}i", data))


def check(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)


def main():
    launcher, icd, samples = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as work:
        # reduce: partial[g] = sum of in over group g.
        folder = os.path.join(work, "reduce")
        captures, meta = capture(launcher, icd, folder, [os.path.join(samples, "reduce")], ["--data-after"])
        inst, launch = captures[0], meta["launches"][0]
        args = launch["arguments"]
        check("data_after" not in args[0] and "data_after_skipped" not in args[0],
              f"reduce: the read-only input has after-bytes: {args[0]}")
        check("data_after" in args[1], f"reduce: no data_after for the written partial sums: {args[1]}")
        values = ints(folder, inst["kernel_arguments"][0]["data"])
        local = inst["local_size"][0]
        expected = [sum(values[g * local:(g + 1) * local]) for g in range(len(values) // local)]
        got = ints(folder, args[1]["data_after"])
        check(got == expected, f"reduce: data_after {got[:8]}... is not the group sums {expected[:8]}...")
        check(meta["process"].get("command_line", [None])[0] == os.path.join(samples, "reduce"),
              f"reduce: process.command_line is {meta['process'].get('command_line')}")
        print(f"ok: reduce: {len(got)} partial sums after the launch match the captured input")

        # user_event --in-order: data + amount, with the launch gated by a user event.
        folder = os.path.join(work, "in-order")
        captures, meta = capture(launcher, icd, folder, [os.path.join(samples, "user_event"), "--in-order"],
                                 ["--data-after"])
        inst, launch = captures[0], meta["launches"][0]
        before = ints(folder, inst["kernel_arguments"][0]["data"])
        amount = struct.unpack("<i", bytes.fromhex(inst["kernel_arguments"][1]["value"][2:])[::-1])[0]
        after = ints(folder, launch["arguments"][0]["data_after"])
        check(after == [v + amount for v in before], f"user_event --in-order: data_after {after[:4]}... is not "
              f"{[v + amount for v in before][:4]}...")
        print(f"ok: user_event --in-order: {len(after)} values after the gated launch = before + {amount}")

        # user_event on an out-of-order queue: skipped, with the reason.
        folder = os.path.join(work, "out-of-order")
        captures, meta = capture(launcher, icd, folder, [os.path.join(samples, "user_event")], ["--data-after"])
        arg = meta["launches"][0]["arguments"][0]
        reason = arg.get("data_after_skipped", "")
        check("out-of-order queue" in reason, f"user_event: no out-of-order reason for the skipped read: {arg}")
        print(f"ok: user_event (out-of-order queue): {reason}")

        # Off by default.
        folder = os.path.join(work, "default")
        captures, meta = capture(launcher, icd, folder, [os.path.join(samples, "reduce")], [])
        check(all("data_after" not in a and "data_after_skipped" not in a
                  for l in meta["launches"] for a in l["arguments"]), "data_after without --data-after")
        print("ok: without --data-after, no after-bytes")


if __name__ == "__main__":
    main()
