#!/usr/bin/python3
"""Times the real applications of tests/realapps under two builds of clcapture, in turn.

usage: capture_apps.py --clcapture A --vs B [--reps N] [--apps APP,...] [--json FILE] [--markdown FILE]

Each application of tests/realapps/run_app.py runs under `A --dir … -- CMD` and `B --dir … -- CMD` in turn
(A B A B …, N pairs), as run_app.py runs it: on PoCL, PoCL's kernel cache off (every build compiles), a fresh
HOME where the application keeps one, default capture settings. Prints each application's median wall
seconds under A and B and the median of the pairwise ratios A/B, and the geometric mean of those ratios:
the figure for "a change must not make a real application's capture slower" (docs/capture-benchmark.md).
A run that fails (non-zero exit, or the application's own result not found) is reported and not timed.
"""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "realapps"))
import run_app  # noqa: E402  (the applications, their commands and result checks)


def one_run(clcapture, app, work):
    env = dict(os.environ, OCL_ICD_VENDORS=run_app.POCL, POCL_KERNEL_CACHE="0", **app.get("env", {}))
    for key in [k for k in env if k.startswith("CLCAPTURE_")]:
        env.pop(key)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run_app.fresh_home(app, env, work, "home")
    start = time.monotonic()
    p = subprocess.run([clcapture, "--dir", os.path.join(work, "capture"), "--"] + app["cmd"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=1800,
                       stdin=subprocess.DEVNULL)
    seconds = time.monotonic() - start
    result, ok = app["result"](p.stdout)
    if p.returncode != 0 or not ok:
        return None, f"exit {p.returncode}, result {result!r}"
    return seconds, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clcapture", required=True, help="A: the launcher measured")
    ap.add_argument("--vs", required=True, help="B: the launcher compared with")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--apps", help="comma-separated subset of " + ",".join(sorted(run_app.APPS)))
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    names = a.apps.split(",") if a.apps else list(run_app.APPS)
    work = tempfile.mkdtemp(prefix="capture-apps-")
    rows = []
    for name in names:
        app = run_app.APPS[name]
        times = {"A": [], "B": []}
        ratios, problems = [], []
        for rep in range(a.reps):
            pair = {}
            for side, launcher in (("A", a.clcapture), ("B", a.vs)):
                seconds, problem = one_run(launcher, app, os.path.join(work, f"{name}-{side}"))
                if problem:
                    problems.append(f"{side} run {rep + 1}: {problem}")
                else:
                    pair[side] = seconds
                    times[side].append(seconds)
            if len(pair) == 2:
                ratios.append(pair["A"] / pair["B"])
        row = {"app": name, "a_median_s": round(statistics.median(times["A"]), 2) if times["A"] else None,
               "b_median_s": round(statistics.median(times["B"]), 2) if times["B"] else None,
               "ratio_median": round(statistics.median(ratios), 3) if ratios else None,
               "ratios": [round(r, 3) for r in ratios], "problems": problems}
        rows.append(row)
        print(f"{name:18} A {row['a_median_s']} s  B {row['b_median_s']} s  A/B {row['ratio_median']}  "
              f"{row['ratios']} {'; '.join(problems)}", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    good = [r["ratio_median"] for r in rows if r["ratio_median"]]
    geomean = round(math.exp(sum(math.log(r) for r in good) / len(good)), 3) if good else None
    print(f"geometric mean of A/B over {len(good)} applications: {geomean}")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"a": a.clcapture, "b": a.vs, "reps": a.reps, "rows": rows, "geomean": geomean}, f, indent=1)
    if a.markdown:
        with open(a.markdown, "w", encoding="utf-8") as f:
            f.write("| application | A median s | B median s | A/B (median of pairs) |\n|---|---|---|---|\n")
            for r in rows:
                f.write(f"| {r['app']} | {r['a_median_s']} | {r['b_median_s']} | {r['ratio_median']} |\n")
            f.write(f"| geometric mean | | | {geomean} |\n")
    return 1 if any(r["problems"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
