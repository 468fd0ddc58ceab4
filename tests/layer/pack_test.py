#!/usr/bin/python3
"""Pack files: small blobs appended to DIR/data/*.pack, resolved by every reader.

usage: pack_test.py SCENARIO LAUNCHER ICD SAMPLES_DIR [VERIFY]
SCENARIO
  sigkill   bench_launches 200 --finish-each --sigkill under the launcher: all 200 launches in captures.json,
            every blob packed (no loose data/*.bin), each launch's bytes resolved from the pack are the
            buffer it saw; clcapture-verify (when given) reads the folder (exit 0); the last pack cut inside
            its last record: clcapture-verify exits 10 naming the blob that is gone
  unpack    clcapture unpack DIR: no pack left, every data path captures.json names is a loose file holding
            the bytes it had packed; unpack again: nothing to do; a folder without captures.json: exit 1
  off       --pack off: no pack at all, one loose data/<hash>.bin per distinct blob, as before packs
  export    clcapture export --sim (reduce) and --pyschedcl (memory_forms, --data-after) of a packed capture:
            the same files, byte for byte, as of that capture after clcapture unpack
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import capture_blobs  # noqa: E402  (tools/: blobs loose or packed)

LAUNCHES = 200


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")


def run(cmd, want):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(r.returncode == want, f"{' '.join(cmd)} exited {r.returncode}, expected {want}:\n{r.stdout[-2000:]}\n"
                                f"{r.stderr[-3000:]}")
    return r


def capture(launcher, icd, folder, launches, extra=(), sigkill=False):
    cmd = [launcher, "--icd", icd, "--dir", folder, *extra, "--", os.path.join(SAMPLES, "bench_launches"),
           str(launches), "--finish-each"] + (["--sigkill"] if sigkill else [])
    run(cmd, 128 + 9 if sigkill else 0)
    with open(os.path.join(folder, "captures.json")) as f:
        return json.load(f)


def expected_bytes(n):
    # bench_launches: launch n adds n to each of 256 ints, so launch n sees 0 + 1 + ... + (n - 1).
    return struct.pack("<256i", *([n * (n - 1) // 2] * 256))


def data_files(folder, extension):
    return sorted(n for n in os.listdir(os.path.join(folder, "data")) if n.endswith(extension))


def check_launches(folder, captures, count):
    check(len(captures) == count, f"{len(captures)} instantiations, expected {count}")
    values = [int(c["kernel_arguments"][1]["value"], 16) for c in captures]
    check(values == list(range(count)), f"launch values out of order: {values[:10]}...")
    for n, c in enumerate(captures):
        name = c["kernel_arguments"][0]["data"]
        check(capture_blobs.read(folder, name) == expected_bytes(n), f"launch {n}: {name} does not hold its bytes")


def scenario_sigkill(launcher, icd, work, verify):
    folder = os.path.join(work, "killed")
    captures = capture(launcher, icd, folder, LAUNCHES, sigkill=True)
    check_launches(folder, captures, LAUNCHES)
    check(data_files(folder, ".bin") == [], f"loose blobs in a packed capture: {data_files(folder, '.bin')[:3]}")
    packs = data_files(folder, ".pack")
    check(len(packs) == 1, f"expected one pack, found {packs}")
    print(f"ok: {LAUNCHES} launches after SIGKILL, every blob resolved from {packs[0]}")
    if not verify:
        return
    # Exit 0: both launches verified, which needs their bytes (a missing file is exit 10).
    run([verify, "--no-cache", "--only=0,199", os.path.join(folder, "captures.json")], 0)
    print("ok: clcapture-verify reads the packed capture (exit 0)")
    # A kill inside the last append: the last record is cut, its blob gone; the reader names it.
    last = captures[-1]["kernel_arguments"][0]["data"]
    pack = os.path.join(folder, "data", packs[0])
    with open(pack, "r+b") as f:
        f.truncate(os.path.getsize(pack) - 10)
    r = run([verify, "--no-cache", "--only=0", os.path.join(folder, "captures.json")], 10)
    wanted = f'file "{last}" does not exist in'
    check(wanted in r.stdout + r.stderr, f"clcapture-verify did not name the missing blob {last}:\n{r.stderr[-1500:]}")
    print(f"ok: a pack cut inside its last record: clcapture-verify exits 10 naming {last}")


def scenario_unpack(launcher, icd, work, verify):
    folder = os.path.join(work, "packed")
    captures = capture(launcher, icd, folder, 30)
    before = {c["kernel_arguments"][0]["data"]: capture_blobs.read(folder, c["kernel_arguments"][0]["data"])
              for c in captures}
    check(data_files(folder, ".pack"), "the capture has no pack to unpack")
    r = run([launcher, "unpack", folder], 0)
    check(f"blobs unpacked, 1 pack removed in {folder}" in r.stdout, f"unpack said: {r.stdout}")
    check(data_files(folder, ".pack") == [], f"packs left after unpack: {data_files(folder, '.pack')}")
    for name, data in before.items():
        path = os.path.join(folder, name)
        check(os.path.isfile(path), f"{name} is not a loose file after unpack")
        with open(path, "rb") as f:
            check(f.read() == data, f"{name}: unpacked bytes differ")
    check(len(data_files(folder, ".bin")) == len(before), f"{len(data_files(folder, '.bin'))} loose files, "
                                                           f"expected {len(before)}")
    check_launches(folder, captures, 30)
    r = run([launcher, "unpack", os.path.join(folder, "captures.json")], 0)
    check("0 blobs unpacked, 0 packs removed" in r.stdout, f"a second unpack said: {r.stdout}")
    r = run([launcher, "unpack", work], 1)
    check("not a capture folder (no captures.json)" in r.stderr, f"unpack of a non-capture said: {r.stderr}")
    print(f"ok: clcapture unpack: {len(before)} loose files with their bytes, no pack left")
    if verify:
        run([verify, "--no-cache", "--only=0,29", os.path.join(folder, "captures.json")], 0)
        print("ok: clcapture-verify reads the unpacked capture (exit 0)")


def scenario_off(launcher, icd, work, verify):
    folder = os.path.join(work, "loose")
    captures = capture(launcher, icd, folder, 30, ["--pack", "off"])
    check(data_files(folder, ".pack") == [], "--pack off wrote a pack")
    names = {c["kernel_arguments"][0]["data"] for c in captures}
    check(sorted(f"data/{n}" for n in data_files(folder, ".bin")) == sorted(names),
          "--pack off: the loose files are not the blobs captures.json names")
    check_launches(folder, captures, 30)
    print(f"ok: --pack off: {len(names)} loose files, no pack")


def tree(folder):
    """{relative path: bytes} of every file under `folder`."""
    files = {}
    for root, _, names in os.walk(folder):
        for n in names:
            with open(os.path.join(root, n), "rb") as f:
                files[os.path.relpath(os.path.join(root, n), folder)] = f.read()
    return files


def scenario_export(launcher, icd, work, verify):
    for kind, sample in (("--sim", "reduce"), ("--pyschedcl", "memory_forms")):
        folder = os.path.join(work, sample)
        run([launcher, "--icd", icd, "--dir", folder, "--data-after", "--", os.path.join(SAMPLES, sample)], 0)
        check(data_files(folder, ".pack"), f"{sample} packed nothing")
        loose = os.path.join(work, sample + "-loose")
        shutil.copytree(folder, loose)
        run([launcher, "unpack", loose], 0)
        outs = []
        for source in (folder, loose):
            out = os.path.join(work, f"out{kind}-{os.path.basename(source)}")
            run([launcher, "export", kind, source, "-o", out], 0)
            outs.append(tree(out))
        check(len(outs[0]) >= 2 and outs[0] == outs[1],
              f"clcapture export {kind}: the packed capture gives other files than the unpacked one: "
              f"{sorted(outs[0])[:5]} / {sorted(outs[1])[:5]}")
        print(f"ok: clcapture export {kind} of {sample}: {len(outs[0])} files, the same as from the unpacked capture")


SCENARIOS = {"sigkill": scenario_sigkill, "unpack": scenario_unpack, "off": scenario_off,
             "export": scenario_export}


def main():
    global SAMPLES
    if len(sys.argv) not in (5, 6) or sys.argv[1] not in SCENARIOS:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    scenario, launcher, icd, SAMPLES = sys.argv[1:5]
    verify = sys.argv[5] if len(sys.argv) == 6 else None
    work = tempfile.mkdtemp(prefix="clcapture-pack-test-")
    try:
        SCENARIOS[scenario](launcher, icd, work, verify)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


SAMPLES = None

if __name__ == "__main__":
    sys.exit(main())
