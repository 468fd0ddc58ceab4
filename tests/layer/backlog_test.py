#!/usr/bin/python3
"""Bounded memory without a wait on the driver: user_event --launches 3000 queues 3000 launches behind a user
event the application opens only afterwards. The layer holds at most 1,024 launches for the writer; past that,
with the writer unable to progress (every read waits for the gate), it must neither wait for room (that would
hang the application, which opens the gate later) nor keep bytes for the rest.

usage: backlog_test.py LAUNCHER ICD SAMPLES_DIR [--in-order]
Checks: the sample passes (its alarm turns a hang into exit 3) within 60 s; all 3000 launches are
instantiations; the first launches have their buffer's bytes; the later ones have none, each with the
backlog reason; the closing line counts them and says what to do.
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)

LAUNCHES = 3000
MAX_PENDING = 1024


def main():
    launcher, icd, samples = sys.argv[1:4]
    extra = ["--in-order"] if "--in-order" in sys.argv[4:] else []
    with tempfile.TemporaryDirectory() as work:
        folder = os.path.join(work, "capture")
        run = subprocess.run([launcher, "--icd", icd, "--dir", folder, "--data-per-shape", "all", "--",
                              os.path.join(samples, "user_event"), *extra, "--launches", str(LAUNCHES)],
                             capture_output=True, text=True, timeout=120)
        if run.returncode != 0 or "PASS" not in run.stdout:
            sys.exit(f"FAIL: user_event exited {run.returncode}:\n{run.stdout}\n{run.stderr[-3000:]}")
        with open(os.path.join(folder, "captures.json")) as f:
            captures = json.load(f)
        with open(os.path.join(folder, "captures.meta.json")) as f:
            facts = {l["instantiation"]: l for l in sidecar_expand.expand(json.load(f))["launches"] if "instantiation" in l}
        if len(captures) != LAUNCHES:
            sys.exit(f"FAIL: {len(captures)} instantiations, expected {LAUNCHES}")
        with_bytes = [i for i, c in enumerate(captures) if "data" in c["kernel_arguments"][0]]
        shed = [i for i in range(LAUNCHES) if "behind and had written nothing" in
                (facts[i]["arguments"][0].get("data_skipped") or "")]
        if not with_bytes or with_bytes[0] != 0 or len(with_bytes) > MAX_PENDING + 64:
            sys.exit(f"FAIL: {len(with_bytes)} launches kept bytes (first {with_bytes[:1]}), expected the first "
                     f"~{MAX_PENDING}")
        if len(shed) + len(with_bytes) != LAUNCHES or min(shed) <= max(with_bytes):
            sys.exit(f"FAIL: {len(shed)} launches carry the backlog reason and {len(with_bytes)} have bytes, of "
                     f"{LAUNCHES}; the shed ones must be all the later ones")
        line = f"clcapture: {len(shed)} buffers of {len(shed)} launches left without bytes: the capture's writer was"
        if line not in run.stderr + run.stdout or "capture fewer launches" not in run.stderr + run.stdout:
            sys.exit(f"FAIL: no closing line '{line} …' with its advice in:\n{run.stderr[-2000:]}")
        print(f"ok: {LAUNCHES} launches behind a user event: {len(with_bytes)} with bytes, {len(shed)} without "
              f"(backlog), no hang")


if __name__ == "__main__":
    main()
