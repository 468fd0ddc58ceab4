#!/usr/bin/env python3
"""Parametric proofs never change a launch's verdict (docs/contract.md §4).

Every corpus kernel (tests/kernels/**.cl) that takes scalars with values becomes a capture of VARIANTS launches:
the header's launch and launches whose scalar values are changed (v ^ 1, v + 2, the byte width kept).
clcapture-verify analyses it twice: with parametric grouping (the default: the launches differ only in
values, so they are first tried together with those values open, each bounded by its launches' values; with
--group-budget, so that every group is attempted however cheap its launches) and with --no-parametric (each launch
alone). Per launch the two verdicts must be equal, except that a launch may gain `verified` through the
group's proof where its own analysis said `unknown`; a launch whose own analysis finds a defect must never
be `verified`. Also checks that each `verified` with a `parametric` record names the values it opened, and has
no reason (a proof that names a possible same-value race does not stand for its launches).

    parametric_test.py VERIFY KERNELS_DIR [--only SUBSTRING]
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels"))
import run_kernel  # noqa: E402

VARIANTS = 3


def changed(value, k):
    """The k-th variant of a "0x…" scalar: v ^ 1, then v + 2, in as many hex digits."""
    digits = len(value) - 2
    v = int(value, 16)
    v = v ^ 1 if k == 1 else v + 2
    return "0x" + format(v % (1 << (4 * digits)), f"0{digits}X")


def make_capture(folder, path):
    """A capture of the kernel's header launch and its scalar variants; False when it takes no scalar."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    _, options, _ = run_kernel.parse_header(text)
    entry, params, inst, launch = run_kernel.launch_of(text, options)
    scalars = [p for p, kind in params if kind == "scalar" and p in launch["args"]]
    if not scalars:
        return False
    run_kernel.build_capture(folder, os.path.basename(path), text, entry, params, inst, launch)
    captures_path = os.path.join(folder, "captures.json")
    meta_path = os.path.join(folder, "captures.meta.json")
    with open(captures_path, encoding="utf-8") as f:
        captures = json.load(f)
    with open(meta_path, encoding="utf-8") as f:
        meta = json.load(f)
    first, facts = captures[0], meta["launches"][0]
    for k in range(1, VARIANTS):
        variant = copy.deepcopy(first)
        for arg, (name, kind) in zip(variant["kernel_arguments"], params):
            if name in scalars and "value" in arg:
                arg["value"] = changed(arg["value"], k)
        captures.append(variant)
        more = copy.deepcopy(facts)
        more["launch"] = more["instantiation"] = k
        meta["launches"].append(more)
    with open(captures_path, "w", encoding="utf-8") as f:
        json.dump(captures, f, indent=2)
    with open(meta_path, "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    return True


def verdicts(verify, folder, *extra):
    r = subprocess.run([verify, "--format=json", "--no-cache", "-j", "2", *extra,
                        os.path.join(folder, "captures.json")], capture_output=True, text=True)
    if r.returncode not in (0, 2, 6, 7) or not r.stdout.strip():
        raise RuntimeError(f"clcapture-verify {' '.join(extra)} exited {r.returncode}: {r.stderr[-400:]}")
    return {res["index"]: res for res in json.loads(r.stdout)["results"]}


def main():
    verify, kernels = sys.argv[1], sys.argv[2]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    failures, checked, gained, proofs = [], 0, 0, 0
    for path in sorted(glob.glob(os.path.join(kernels, "**", "*.cl"), recursive=True)):
        name = os.path.relpath(path, kernels)
        if only not in name:
            continue
        with tempfile.TemporaryDirectory() as folder:
            try:
                if not make_capture(folder, path):
                    continue
            except (SystemExit, Exception) as e:  # a header this test cannot vary: not its subject
                print(f"skip {name}: {e}")
                continue
            together = verdicts(verify, folder, "--group-budget=30")
            alone = verdicts(verify, folder, "--no-parametric")
        checked += 1
        for index in sorted(alone):
            a, t = alone[index], together[index]
            if "parametric" in t:
                proofs += 1
                if t["verdict"] != "verified" or not t["parametric"]["opened"] or t["findings"] or t.get("reason"):
                    failures.append(f"{name} #{index}: a parametric record on {t['verdict']} "
                                    f"with {len(t['findings'])} findings and reason {t.get('reason', '')[:80]!r}")
            if a["verdict"] == t["verdict"]:
                continue
            if t["verdict"] == "verified" and "parametric" in t and a["verdict"] == "unknown":
                gained += 1
                print(f"{name} #{index}: unknown alone, verified for every value of "
                      f"{t['parametric']['opened']} ({a.get('reason', '')[:80]})")
                continue
            failures.append(f"{name} #{index}: alone {a['verdict']}, with the parametric proof {t['verdict']}")
    for f in failures:
        print("FAIL:", f)
    print(f"{checked} kernels with scalar variants ({VARIANTS} launches each): {proofs} launches verified by a "
          f"parametric proof, {gained} of them unknown alone, {len(failures)} disagreements")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
