#!/usr/bin/python3
"""Runs the whole kernel corpus on optimised IR (CLCAPTURE_VERIFY_OPT_LEVEL, docs/optimisation-levels.md)
and checks each verdict against the kernel's header (its -O0 expectation) or, for the kernels listed in the
differences file, against the listed verdict.

usage: opt_level_corpus.py CORPUS_DIR CLCAPTURE_VERIFY [--opt-level N] [--differences FILE] [-j N]
                           [--only SUBSTRING]... [--observed FILE] [--no-cache]
  --opt-level N      the level (default 2)
  --differences FILE the accepted differences (default CORPUS_DIR/o2_differences.json):
                     {"category/name": {"verdict": "unknown", "reason": "why the optimised IR gives it"}}
  -j N               kernels analysed at once (default 2)
  --only SUBSTRING   only the kernels whose path contains it (repeatable; the listed differences of the
                     other kernels are then not checked)
  --observed FILE    write every difference seen, in the differences file's form (to review and update it)
  --no-cache         pass --no-cache to clcapture-verify (to time the analyses)

Fails when a kernel's verdict is neither its header's nor its listed one, when a listed difference is gone
(the kernel gives its header's verdict again) or names no corpus kernel, and when a listed difference is
`verified` for a kernel whose header expects `defects` or `unknown` without a `sound_because` saying why the
optimised program really has no defect (an unsound difference is never accepted silently). A `defects`
verdict must still come with a witness of two distinct work-items, as run_kernel.py checks.
"""
import argparse
import concurrent.futures
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_kernel  # noqa: E402


def corpus_kernels(corpus):
    """`category/name` → path of every corpus kernel, sorted."""
    out = {}
    for root, _, files in os.walk(corpus):
        for f in files:
            if f.endswith(".cl"):
                path = os.path.join(root, f)
                out[os.path.relpath(path, corpus)[:-3]] = path
    return dict(sorted(out.items()))


def analyse(name, path, verify, level, extra):
    start = time.monotonic()
    try:
        expected, _, r = run_kernel.verify_kernel(path, verify, opt_level=level, extra_args=extra)
    except OSError as e:  # clcapture-verify replaced by a build meanwhile, …: that kernel fails, not the run
        return name, "?", "crash", f"cannot run clcapture-verify: {e}", time.monotonic() - start
    seconds = time.monotonic() - start
    if not run_kernel.reported(r):
        return name, expected, "crash", f"clcapture-verify exited {r.returncode}: {r.stderr.strip()[-400:]}", seconds
    result = json.loads(r.stdout)["results"][0]
    verdict, reason = result["verdict"], result.get("reason", "")
    if verdict == "defects":
        counting = [f for f in result["findings"] if f["severity"] == "error"]
        if not counting:
            return name, expected, "defects-without-witness", reason, seconds
        for f in counting:
            if f["kind"] != "data-race":
                continue
            a, b = f["accesses"]
            if a["work_item"]["global_id"] == b["work_item"]["global_id"]:
                return name, expected, "defects-with-one-work-item", reason, seconds
        reason = "; ".join(sorted({f["message"] for f in counting}))
    return name, expected, verdict, reason, seconds


def check_listing(differences, kernels, headers, selected):
    """Problems with the differences file itself."""
    problems = []
    for name, entry in differences.items():
        if name not in kernels:
            problems.append(f"{name}: listed in the differences file but not a corpus kernel")
            continue
        if not isinstance(entry, dict) or entry.get("verdict") not in ("verified", "defects", "unknown", "error") \
                or not entry.get("reason"):
            problems.append(f"{name}: a listed difference needs a verdict and a reason")
            continue
        if name not in selected:
            continue
        if entry["verdict"] == headers[name]:
            problems.append(f"{name}: listed with its header's own verdict {entry['verdict']}")
        if entry["verdict"] == "verified" and headers[name] != "verified" and not entry.get("sound_because"):
            problems.append(f"{name}: verified here but the header expects {headers[name]}: an unsound difference "
                            "unless `sound_because` explains why the optimised program has no defect")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("verify")
    parser.add_argument("--opt-level", type=int, default=2)
    parser.add_argument("--differences")
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--observed")
    parser.add_argument("--no-cache", action="store_true")
    args = parser.parse_args()

    kernels = corpus_kernels(args.corpus)
    selected = [n for n in kernels if not args.only or any(s in n for s in args.only)]
    headers = {}
    for name, path in kernels.items():
        with open(path, encoding="utf-8") as f:
            headers[name] = run_kernel.parse_header(f.read())[0]
    diff_path = args.differences or os.path.join(args.corpus, f"o{args.opt_level}_differences.json")
    differences = {}
    if os.path.exists(diff_path):
        with open(diff_path, encoding="utf-8") as f:
            differences = {k: v for k, v in json.load(f).items() if not k.startswith("_")}

    start = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        futures = [pool.submit(analyse, n, kernels[n], args.verify, args.opt_level,
                               ["--no-cache"] if args.no_cache else []) for n in selected]
        for future in concurrent.futures.as_completed(futures):
            results.append(future.result())
    results.sort()
    wall = time.monotonic() - start

    failures = check_listing(differences, kernels, headers, set(selected))
    observed = {}
    same = 0
    by_category = {}
    for name, expected, verdict, reason, _ in results:
        category = name.split("/", 1)[0]
        counts = by_category.setdefault(category, [0, 0])
        if verdict == expected:
            same += 1
            counts[0] += 1
            if name in differences:
                failures.append(f"{name}: listed as {differences[name]['verdict']} at -O{args.opt_level} "
                                f"but gives its header's {verdict} again: remove it from the list")
            continue
        counts[1] += 1
        observed[name] = {"header": expected, "verdict": verdict,
                          "reason": differences.get(name, {}).get("reason", ""), "observed_reason": reason}
        listed = differences.get(name)
        if listed is None:
            failures.append(f"{name}: {verdict} at -O{args.opt_level}, header expects {expected}"
                            + (f" ({reason})" if reason else "") + " — a new difference")
        elif listed["verdict"] != verdict:
            failures.append(f"{name}: {verdict} at -O{args.opt_level}, listed as {listed['verdict']}"
                            + (f" ({reason})" if reason else ""))

    print(f"-O{args.opt_level}: {len(results)} kernels, {same} with the header's verdict, "
          f"{len(results) - same} different ({len(differences)} listed); {wall:.0f} s with -j {args.j}")
    for category, (s, d) in sorted(by_category.items()):
        if d:
            print(f"  {category}: {s} same, {d} different")
    slowest = sorted(results, key=lambda r: -r[4])[:5]
    print("slowest: " + ", ".join(f"{n} {s:.1f} s" for n, _, _, _, s in slowest))
    if args.observed:
        with open(args.observed, "w", encoding="utf-8") as f:
            json.dump(observed, f, indent=2, sort_keys=True)
            f.write("\n")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
