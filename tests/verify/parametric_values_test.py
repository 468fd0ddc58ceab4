#!/usr/bin/env python3
"""A parametric proof covers the values its launches passed, not every value (docs/semantics.md row 35).

One kernel, `out[get_global_id(0) * stride] = get_global_id(0)`, races only when `stride` is 0. Each case is
a capture of launches that differ in `stride` and in the size of `out` (so the group opens both), verified
with a group budget large enough that the group is always attempted (--group-budget), and without groups
(--no-parametric):
  set:         strides 1, 2, 7                 every launch verified through one proof of 3 launches
  set-zero:    strides 1, 2, 0                 the proof fails (0 is among the values); the stride-0 launch
                                               has its own race witness, the others are verified alone
  range:       strides 1 … 20                  20 values: bounded by the least and the greatest, one proof
  range-zero:  strides 1 … 20, then 0          the interval holds 0: the stride-0 launch races, alone
In every case a launch's verdict equals its --no-parametric verdict, and a proof's `opened` names how the
values were bounded.

    parametric_values_test.py VERIFY
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels"))
import run_kernel  # noqa: E402

SOURCE = """__kernel void strided(__global int *out, int stride) {
  out[get_global_id(0) * stride] = (int)get_global_id(0);
}
"""
GLOBAL = 8
CASES = {
    "set": ([1, 2, 7], "its 3 captured values"),
    "set-zero": ([1, 2, 0], None),
    "range": (list(range(1, 21)), "between the least and greatest of its 20 captured values"),
    "range-zero": (list(range(1, 21)) + [0], None),
}


def make_capture(folder, strides):
    params = [("out", "global"), ("stride", "scalar")]
    inst = {"language": "OpenCL", "endianness": "little", "global_size": [GLOBAL], "local_size": [GLOBAL]}
    first = {"args": {"stride": f"0x{strides[0]:08X}"}, "sizes": {"out": 4 * (GLOBAL * strides[0] + 1)},
             "data": {}, "alias": {}}
    run_kernel.build_capture(folder, "strided.cl", SOURCE, "strided", params, inst, first)
    with open(os.path.join(folder, "captures.json"), encoding="utf-8") as f:
        captures = json.load(f)
    with open(os.path.join(folder, "captures.meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    for k, stride in enumerate(strides[1:], start=1):
        launch = json.loads(json.dumps(captures[0]))
        for arg in launch["kernel_arguments"]:
            if arg["type"] == "scalar":
                arg["value"] = f"0x{stride:08X}"
            else:
                arg["size"] = 4 * (GLOBAL * stride + 1)
                arg.pop("data", None)
        captures.append(launch)
        facts = json.loads(json.dumps(meta["launches"][0]))
        facts["launch"] = facts["instantiation"] = k
        meta["launches"].append(facts)
    if "data" in captures[0]["kernel_arguments"][0]:
        captures[0]["kernel_arguments"][0].pop("data")
    with open(os.path.join(folder, "captures.json"), "w", encoding="utf-8") as f:
        json.dump(captures, f, indent=2)
    with open(os.path.join(folder, "captures.meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)


def results(verify, folder, *extra):
    r = subprocess.run([verify, "--format=json", "--no-cache", "--quiet", "-j", "2", *extra,
                        os.path.join(folder, "captures.json")], capture_output=True, text=True)
    if r.returncode not in (0, 6) or not r.stdout.strip():
        raise RuntimeError(f"clcapture-verify {' '.join(extra)} exited {r.returncode}: {r.stderr[-400:]}")
    return {res["index"]: res for res in json.loads(r.stdout)["results"]}


def check(name, strides, bound, together, alone):
    failures = []
    for index, stride in enumerate(strides):
        t, a = together[index], alone[index]
        want = "defects" if stride == 0 else "verified"
        if a["verdict"] != want or t["verdict"] != want:
            failures.append(f"{name} #{index} (stride {stride}): {t['verdict']} with groups, {a['verdict']} "
                            f"alone; expected {want}")
        if stride == 0 and not any("race" in f.get("message", "") for f in t["findings"]):
            failures.append(f"{name} #{index}: stride 0 without a race witness: {t['findings']}")
        proof = t.get("parametric")
        if bound is None and proof:
            failures.append(f"{name} #{index}: verified through a proof whose values include 0: {proof}")
        if bound is not None:
            if not proof or proof["launches"] != len(strides):
                failures.append(f"{name} #{index}: not verified through one proof of {len(strides)} launches: "
                                f"{proof}")
            elif f"`stride` ({bound})" not in proof["opened"] or "the size and bytes of `out`" not in proof["opened"]:
                failures.append(f"{name} #{index}: the proof's opened values do not say how they were bounded: "
                                f"{proof['opened']!r}")
    return failures


def main():
    verify = sys.argv[1]
    failures = []
    for name, (strides, bound) in CASES.items():
        with tempfile.TemporaryDirectory() as folder:
            make_capture(folder, strides)
            together = results(verify, folder, "--group-budget=120", "--timeout=300")
            alone = results(verify, folder, "--no-parametric", "--timeout=300")
        found = check(name, strides, bound, together, alone)
        print(f"{name}: strides {strides}: {'ok' if not found else 'FAILED'}")
        failures += found
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
