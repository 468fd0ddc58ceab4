#!/usr/bin/python3
"""A memory-safety finding names the host call that created its buffer (docs/memory-safety.md).

usage: creation_site_test.py --clcapture LAUNCHER --verify CLCAPTURE_VERIFY --app OVERRUN --source overrun.c
                             --driver ICD --work DIR

samples/overrun.c reads past the end of `in` (1000 ints, 1024 work-items). Captured under `clcapture` on the
driver, `clcapture-verify` must report the out-of-bounds read on `in` with `created_by`: clCreateBuffer at the
sample's own line that creates `in` (file and line from DWARF), in `main`; the text report says so too; the
sidecar names that call with the argument's index.
"""
import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}")
    sys.exit(1)


def libdw_available():
    """libclcapture.so opens elfutils' libdw for file:line call sites; without it only module and offset."""
    try:
        ctypes.CDLL("libdw.so.1")
        return True
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser()
    for option in ("--clcapture", "--verify", "--app", "--source", "--driver", "--work"):
        ap.add_argument(option, required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    capture = os.path.join(a.work, "capture")
    r = subprocess.run([a.clcapture, "--dir", capture, "--icd", a.driver, "--", a.app], capture_output=True,
                       text=True, timeout=300, stdin=subprocess.DEVNULL)
    if r.returncode != 0 or "0 mismatches" not in r.stdout:
        fail(f"the sample under clcapture exited {r.returncode}", r.stdout + r.stderr)
    with open(a.source, encoding="utf-8") as f:
        line = next(n for n, text in enumerate(f, 1) if re.search(r"cl_mem in = clCreateBuffer\(", text))
    if not libdw_available():
        line = None  # module and offset only: the lines below are then absent, and so checked
    with open(os.path.join(capture, "captures.meta.json"), encoding="utf-8") as f:
        calls = json.load(f)["launches"][0].get("host_calls", [])
    made = [c for c in calls if c["function_name"] == "clCreateBuffer"]
    if [c.get("argument") for c in made] != [0, 1] or made[0].get("line_number") != line:
        fail(f"the sidecar's clCreateBuffer calls: {made}, expected arguments 0 and 1, `in` at line {line}")
    r = subprocess.run([a.verify, "--no-cache", "--format=json", capture], capture_output=True, text=True,
                       timeout=600)
    report = json.loads(r.stdout)
    findings = report["results"][0]["findings"]
    oob = [f for f in findings if f["kind"] == "out-of-bounds"]
    if r.returncode != 6 or not oob or oob[0].get("array") != "in":
        fail(f"expected an out-of-bounds read on in (exit 6), got exit {r.returncode}", r.stdout + r.stderr)
    site = oob[0].get("created_by")
    if not site or site["function"] != "clCreateBuffer" or site.get("line") != line or site["module_offset"] <= 0 \
            or (line and os.path.basename(site.get("file", "")) != os.path.basename(a.source)) or \
            os.path.basename(site["module"]) != os.path.basename(a.app):
        fail(f"created_by {site}, expected clCreateBuffer at {os.path.basename(a.source)}:{line} in main")
    r = subprocess.run([a.verify, "--no-cache", capture], capture_output=True, text=True, timeout=600)
    want = f"the memory of `in` was created by clCreateBuffer at "
    said = [l for l in r.stdout.splitlines() if want in l]
    where = f"{os.path.basename(a.source)}:{line}" if line else f"{os.path.basename(a.app)}+0x"
    if not said or where not in said[0]:
        fail(f"the text report does not name the creating call: {said}", r.stdout)
    print(f"PASS: out-of-bounds read on {oob[0]['array']}[{oob[0]['index'][0]}], created by clCreateBuffer: {site}")


if __name__ == "__main__":
    main()
