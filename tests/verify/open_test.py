#!/usr/bin/env python3
"""clcapture-verify --open (docs/contract.md §4): "race-free for every value?" on racy/fixed pairs.

Each kernel of tests/verify/open/ is verified with its captured values (every one is race-free there), then
with --open=scalars (strided_*) or --open=data (indexed_*): the racy one of each pair is not verified, and for
scalars the witness names the value that races (stride = 0), for data the contents it read (idx[14] = 7 and
idx[15] = 7: memory nothing writes is one array of open bytes for both work-items; for a struct passed by
value, its members: shape.width = 12 and shape.pitch = 2); the fixed one stays
`verified`. --open=sizes is refused with a clear command-line error.

    open_test.py VERIFY
"""
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "kernels"))
import run_kernel  # noqa: E402

# kernel file -> (--open value, verdict with it, a text the race's message must contain)
CASES = {
    "strided_store_race.cl": ("scalars", "defects", "with stride = 0"),
    "strided_store_fixed.cl": ("scalars", "verified", None),
    # A struct passed by value: the witness names its members (debug info).
    "struct_pitch_race.cl": ("scalars", "defects", "and shape.pitch = "),
    "struct_pitch_fixed.cl": ("scalars", "verified", None),
    # A race through values read from open contents: the witness names two equal entries of idx.
    "indexed_store_race.cl": ("data", "defects", "with idx["),
    "indexed_store_fixed.cl": ("data", "verified", None),
}


def result(verify, folder, *extra):
    r = subprocess.run([verify, "--format=json", "--no-cache", *extra, os.path.join(folder, "captures.json")],
                       capture_output=True, text=True)
    if r.returncode not in (0, 6) or not r.stdout.strip():
        raise SystemExit(f"FAIL: clcapture-verify {' '.join(extra)} exited {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)["results"][0]


def main():
    verify = sys.argv[1]
    failures = []
    for name, (what, want, message) in CASES.items():
        path = os.path.join(here, "open", name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        _, options, _ = run_kernel.parse_header(text)
        entry, params, inst, launch = run_kernel.launch_of(text, options)
        with tempfile.TemporaryDirectory() as folder:
            run_kernel.build_capture(folder, name, text, entry, params, inst, launch)
            captured = result(verify, folder)
            opened = result(verify, folder, f"--open={what}")
            if name == "strided_store_race.cl":
                r = subprocess.run([verify, "--open=sizes", os.path.join(folder, "captures.json")],
                                   capture_output=True, text=True)
                if r.returncode != 1 or "--open=sizes: opening the NDRange sizes is not supported" not in r.stderr:
                    failures.append(f"--open=sizes: exit {r.returncode}, {r.stderr.strip()}")
        if captured["verdict"] != "verified":
            failures.append(f"{name}: {captured['verdict']} with the captured values, expected verified")
        messages = [f["message"] for f in opened["findings"]] + ([opened["reason"]] if opened.get("reason") else [])
        if opened["verdict"] != want:
            failures.append(f"{name}: --open={what} gave {opened['verdict']} {messages}, expected {want}")
        elif message and not any(message in m for m in messages):
            failures.append(f"{name}: --open={what}: no finding says '{message}': {messages}")
        else:
            print(f"ok: {name}: captured verified, --open={what} {opened['verdict']} {messages[:1]}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
