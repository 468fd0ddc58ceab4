#!/usr/bin/python3
"""clcapture-verify --confirm: each finding replayed under Oclgrind (clcapture-replay --icd Oclgrind's ICD).

usage: confirm_test.py KERNEL.cl --verify BIN --schemas DIR
       confirm_test.py --captured-reduce --verify BIN --schemas DIR --launcher BIN --samples DIR

KERNEL.cl carries its expectation, corpus-style (tests/kernels/run_kernel.py builds its capture folder):
  line 1   //confirmed | //not observed with this input | //not replayable: REGEX   (every finding's mark)
  line 2   //--global_size=... [--local_size=...] [--size NAME=BYTES] [--data NAME=int:...|iota:N] [--arg ...]
The JSON report must carry the mark on every finding and validate against schemas/report.schema.json.
--captured-reduce: the reduce sample captured by the real layer with --racy is confirmed, and also the text
report says it under each finding, SARIF as a result property, and without --confirm no finding has one
(confirm_tests renders every mark in every format without a device).
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "kernels"))
import run_kernel  # noqa: E402

POCL = "/etc/OpenCL/vendors/pocl.icd"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(cmd, want=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print("$ " + " ".join(cmd) + f"  -> {r.returncode}")
    if want is not None and r.returncode not in want:
        print(r.stdout + r.stderr)
        raise Failure(f"{os.path.basename(cmd[0])} exited {r.returncode}, expected {want}")
    return r


def kernel_capture(path, folder):
    """The capture folder for a kernel with a corpus-style header; returns the expected mark (a regex) and
    the header's clcapture-verify options (--checks=…)."""
    text = open(path, encoding="utf-8").read()
    lines = text.splitlines()
    check(lines[0].startswith("//") and lines[1].startswith("//--"), "line 1: expected mark, line 2: launch")
    expected = lines[0][2:].strip()
    expected = expected if expected.startswith("not replayable: ") else re.escape(expected)
    launch = {"args": {}, "sizes": {}, "data": {}, "alias": {}}
    inst = {"language": "OpenCL", "endianness": "little"}
    entry = None
    options = []
    it = iter(shlex.split(lines[1][2:]))
    for o in it:
        key, _, value = o.partition("=")
        if key == "--global_size":
            inst["global_size"] = run_kernel.dims(value)
        elif key == "--local_size":
            inst["local_size"] = run_kernel.dims(value)
        elif key == "--entry":
            entry = value
        elif key == "--checks":
            options.append(o)
        elif o == "--mem-flags":
            name, v = next(it).split("=", 1)
            launch.setdefault("flags", {})[name] = v.split("|")
        elif o in ("--arg", "--size", "--data", "--alias"):
            name, v = next(it).split("=", 1)
            launch[{"--arg": "args", "--size": "sizes", "--data": "data", "--alias": "alias"}[o]][name] = v
        else:
            raise Failure(f"unknown header option {o}")
    entry, params = run_kernel.parameters(text, entry)
    run_kernel.build_capture(folder, os.path.basename(path), text, entry, params, inst, launch)
    return expected, options


def check_reports(args, captures, expected, all_formats, options=()):
    """Runs clcapture-verify --confirm; every finding marked `expected` (a regex) in the JSON report and,
    with `all_formats`, in the text and SARIF reports, and none marked without --confirm."""
    r = run([args.verify, *options, "--confirm", "--format=json", captures], want=(6,))
    report = json.loads(r.stdout)
    findings = [f for res in report["results"] for f in res["findings"]]
    check(findings, "no finding to confirm")
    for f in findings:
        check("confirmation" in f, f"a finding without confirmation: {f['message']}")
        check(re.fullmatch(expected, f["confirmation"]), f"{f['message']}: confirmation '{f['confirmation']}', "
                                                         f"expected /{expected}/")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tmp:
        tmp.write(r.stdout)
    try:
        run([sys.executable, os.path.join(HERE, "..", "..", "schema", "validate.py"), "--schema",
             os.path.join(args.schemas, "report.schema.json"), tmp.name], want=(0,))
    finally:
        os.unlink(tmp.name)
    if not all_formats:
        return
    text = run([args.verify, *options, "--confirm", captures], want=(6,)).stdout
    print(text)
    marks = [line.strip() for line in text.splitlines() if line.startswith("  ") and not re.match(
        r"\s+(read|write|atomic|work-item|debug: clcapture-debug )", line)]
    check(len(marks) == len(findings), f"text report: {len(marks)} confirmation lines for {len(findings)} findings")
    for m in marks:
        check(re.match(expected, m), f"text report: '{m}' does not say /{expected}/")
    sarif = json.loads(run([args.verify, *options, "--confirm", "--format=sarif", captures], want=(6,)).stdout)
    marked = [res["properties"].get("confirmation") for res in sarif["runs"][0]["results"]
              if res["ruleId"] in ("data-race", "barrier-divergence") or "work_items" in res["properties"]]
    check(marked and all(m and re.fullmatch(expected, m) for m in marked), f"SARIF properties: {marked}")
    plain = json.loads(run([args.verify, *options, "--format=json", captures], want=(6,)).stdout)
    check(all("confirmation" not in f for res in plain["results"] for f in res["findings"]),
          "a confirmation without --confirm")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kernel", nargs="?")
    p.add_argument("--captured-reduce", action="store_true")
    p.add_argument("--verify", required=True)
    p.add_argument("--schemas", required=True)
    p.add_argument("--launcher")
    p.add_argument("--samples")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="clcapture-confirm-test-") as work:
        folder = os.path.join(work, "capture")
        try:
            if args.captured_reduce:
                run([args.launcher, "--icd", POCL, "--dir", folder, "--", os.path.join(args.samples, "reduce"),
                     "--racy"], want=(0,))
                expected, options = re.escape("confirmed"), []
            else:
                expected, options = kernel_capture(args.kernel, folder)
            check_reports(args, os.path.join(folder, "captures.json"), expected, args.captured_reduce or options,
                          options)
        except Failure as e:
            print(f"FAIL: {e}")
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
