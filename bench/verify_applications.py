#!/usr/bin/python3
"""Application-scale verification: parametric proofs against launch by launch, cold and cached.

usage: verify_applications.py [--verify PATH] [--clcapture PATH] [--capture NAME=DIR]... [--realapps DIR]
                              [--suite NAME]... [--work DIR] [-j N] [--timeout S] [--json OUT] [--markdown OUT]

  --capture NAME=DIR  a capture folder to verify (repeatable)
  --realapps DIR      every DIR/*/capture (default build/tests/realapps/work, written by `ctest -L realapps`)
  --suite NAME        a whole test suite of a Debian package, run under `clcapture` first (repeatable):
                      clblast-level1  CLBlast's level-1 routine tests (clblast-tests: axpy, copy, scal, swap, dot,
                                      dotu, dotc, nrm2, asum, amax; 10 programs)
                      clblast-level2  CLBlast's level-2 routine tests (gemv, ger, trmv and their kin)
  -j N / --timeout S  clcapture-verify's (default 2 / 300)

Each capture is verified four times with `clcapture-verify --format=json -j N --timeout S`: with
`--no-parametric` and with parametric proofs (the default), each cold (an empty verdict cache of its own) and
then cached (the same cache again). It records wall time, the analyses made (results with their own
seconds), the verdicts, and whether any launch's verdict differs between the two modes (a time limit is not
a verdict and is left out). The Markdown table goes to docs/verify-benchmark.md.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POCL = "/etc/OpenCL/vendors/pocl.icd"
SUITES = {
    "clblast-level1": ["xaxpy", "xcopy", "xscal", "xswap", "xdot", "xdotu", "xdotc", "xnrm2", "xasum", "xamax"],
    "clblast-level2": ["xgemv", "xgbmv", "xhemv", "xsymv", "xtrmv", "xger", "xher", "xsyr"],
}


def capture_suite(name, clcapture, work):
    """Runs every program of the suite under clcapture into one capture folder each; returns [(name, dir)]."""
    out = []
    for program in SUITES[name]:
        exe = shutil.which(f"clblast_test_{program}")
        if not exe:
            print(f"{name}: clblast_test_{program} not installed (tools/setup.sh installs clblast-tests)")
            continue
        folder = os.path.join(work, name, program)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        start = time.monotonic()
        p = subprocess.run([clcapture, "--dir", folder, "--icd", POCL, "--", exe], capture_output=True, text=True,
                           env=dict(os.environ, OCL_ICD_VENDORS=POCL))
        print(f"{name}/{program}: captured in {time.monotonic() - start:.1f} s (exit {p.returncode})")
        if os.path.exists(os.path.join(folder, "captures.json")):
            out.append((f"{name}/{program}", folder))
    return out


def verify(binary, folder, cache, jobs, timeout, parametric):
    args = [binary, "--format=json", "--quiet", "-j", str(jobs), f"--timeout={timeout}"]
    if not parametric:
        args.append("--no-parametric")
    start = time.monotonic()
    p = subprocess.run(args + [folder], capture_output=True, text=True,
                       env=dict(os.environ, XDG_CACHE_HOME=cache))
    seconds = time.monotonic() - start
    if p.returncode not in (0, 2, 6, 7):
        raise SystemExit(f"clcapture-verify {folder} exited {p.returncode}: {p.stderr[-1000:]}")
    report = json.loads(p.stdout)
    return seconds, report


def analyses(report):
    return sum(1 for r in report["results"] if r.get("seconds", 0) > 0)


def timed_out(r):
    return bool(re.search(r"timed out|not analysed", r.get("reason", "")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verify", default=os.path.join(ROOT, "build", "bin", "clcapture-verify"))
    ap.add_argument("--clcapture", default=os.path.join(ROOT, "build", "bin", "clcapture"))
    ap.add_argument("--capture", action="append", default=[])
    ap.add_argument("--realapps", default=os.path.join(ROOT, "build", "tests", "realapps", "work"))
    ap.add_argument("--suite", action="append", default=[], choices=sorted(SUITES))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "bench", "applications"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    a = ap.parse_args()

    captures = [tuple(c.split("=", 1)) for c in a.capture]
    for folder in sorted(glob.glob(os.path.join(a.realapps, "*", "capture"))):
        captures.append((os.path.basename(os.path.dirname(folder)), folder))
    for suite in a.suite:
        captures += capture_suite(suite, a.clcapture, a.work)

    rows = []
    for name, folder in captures:
        row = {"capture": name, "launches": None}
        verdicts = {}
        for parametric in (False, True):
            mode = "parametric" if parametric else "alone"
            cache = tempfile.mkdtemp(prefix="clcapture-bench-cache-")
            try:
                for phase in ("cold", "cached"):
                    seconds, report = verify(a.verify, folder, cache, a.j, a.timeout, parametric)
                    row[f"{mode}_{phase}_s"] = round(seconds, 2)
                    row[f"{mode}_{phase}_analyses"] = analyses(report)
                    row["launches"] = len(report["results"])
                    if phase == "cold":
                        s = report["summary"]
                        row[f"{mode}_verdicts"] = {k: s[k] for k in ("verified", "defects", "unknown", "error")}
                        verdicts[mode] = {r["index"]: (r["verdict"], timed_out(r)) for r in report["results"]}
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        differ = [i for i, (v, t) in verdicts["alone"].items()
                  if not t and not verdicts["parametric"][i][1] and verdicts["parametric"][i][0] != v]
        row["verdicts_differ"] = len(differ)
        row["parametric_over_alone"] = round(row["parametric_cold_s"] / max(row["alone_cold_s"], 1e-9), 3)
        rows.append(row)
        print(f"{name}: {row['launches']} launches; alone {row['alone_cold_s']} s cold "
              f"({row['alone_cold_analyses']} analyses), {row['alone_cached_s']} s cached; parametric "
              f"{row['parametric_cold_s']} s cold ({row['parametric_cold_analyses']} analyses), "
              f"{row['parametric_cached_s']} s cached; ratio {row['parametric_over_alone']}; "
              f"{len(differ)} verdicts differ", flush=True)

    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)
    lines = ["| capture | launches | alone cold s (analyses) | alone cached s | parametric cold s (analyses) | "
             "parametric cached s | parametric / alone | verdicts (parametric) | verdicts differ |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in rows:
        v = r["parametric_verdicts"]
        lines.append(f"| {r['capture']} | {r['launches']} | {r['alone_cold_s']} ({r['alone_cold_analyses']}) | "
                     f"{r['alone_cached_s']} | {r['parametric_cold_s']} ({r['parametric_cold_analyses']}) | "
                     f"{r['parametric_cached_s']} | {r['parametric_over_alone']} | {v['verified']} / {v['defects']} / "
                     f"{v['unknown']} / {v['error']} | {r['verdicts_differ']} |")
    text = "\n".join(lines) + "\n"
    if a.markdown:
        with open(a.markdown, "w", encoding="utf-8") as f:
            f.write(text)
    print(text)
    return 1 if any(r["verdicts_differ"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
