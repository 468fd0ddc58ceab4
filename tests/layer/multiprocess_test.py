#!/usr/bin/python3
"""One capture for a process tree (docs/contract.md §3): 50 processes under one launcher run.

usage: multiprocess_test.py --clcapture LAUNCHER --library LIBCLCAPTURE --verify VERIFY --pack PACK --replay REPLAY --app PROCESSES
                            --driver ICD --oclgrind ICD --work DIR

Under `clcapture --dir DIR/cap`, this script (as --suite) starts samples/processes the ways a test suite does:
24 one after another, 16 at once 8 at a time, one that forks 6 children without exec (7 processes), two whose
grandchild execs the program, and one that SIGKILLs itself after its launch: 50 processes, one launch each.
Then it checks what the tools see: the launcher's closing line counts 50 launches by 50 processes and names the
killed one; clcapture-verify analyses 50 instantiations, each named with a process of its own; clcapture pack
packs 50 from 50 processes, and the archive verifies alike; the bytes every process shares (the 256 KiB input,
the zeroed output) and the kernel are stored once. Last, three processes started without the launcher but with
its environment (CLCAPTURE_DIR and the shim's loader variables) write one capture the same way; and on Oclgrind,
whose state survives fork(), a process that captured and then forks: each child gets a part of its own.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import gpuverify_loader_rules  # noqa: E402


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def suite(app):
    """Runs inside the launcher: the processes of the suite, 50 of them launching once each."""
    def run(*args):
        return subprocess.run([app, *args], stdout=subprocess.DEVNULL, check=False).returncode

    codes = [run("work") for _ in range(24)]
    for _ in range(2):
        wave = [subprocess.Popen([app, "work"], stdout=subprocess.DEVNULL) for _ in range(8)]
        codes += [p.wait() for p in wave]
    codes.append(run("fork", "6"))
    codes += [run("chain") for _ in range(2)]
    killed = run("killed")
    if killed != -9 or any(codes):
        print(f"suite: exit statuses {codes}, killed {killed}", file=sys.stderr)
        return 1
    return 0


def verify_json(verify, target):
    proc = subprocess.run([verify, "--format=json", "--no-cache", "-j", "2", str(target)], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        fail(f"clcapture-verify {target} exited {proc.returncode}: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def check_report(report, expected, what):
    results = report["results"] if "results" in report else report["instantiations"]
    if len(results) != expected:
        fail(f"{what}: {len(results)} instantiations analysed, expected {expected}")
    if sorted(r["index"] for r in results) != list(range(expected)):
        fail(f"{what}: indices {sorted(r['index'] for r in results)} do not run 0..{expected - 1}")
    pids = {r["process"]["pid"] for r in results if "process" in r}
    if len(pids) != expected:
        fail(f"{what}: {len(pids)} distinct processes named, expected {expected}")
    parts = {r["process"]["part"] for r in results}
    if "captures.json" not in parts or not all(re.fullmatch(r"captures(-\d+(-\d+)?)?\.json", p) for p in parts):
        fail(f"{what}: unexpected part names {sorted(parts)[:5]}")
    verdicts = {r["verdict"] for r in results}
    if verdicts != {"verified"}:
        fail(f"{what}: verdicts {verdicts}, expected every launch verified")


def check_parts_load_in_gpuverify(cap):
    """Each part alone is a captures file GPUVerify's loader accepts, its paths holding from the folder."""
    parts = [f for f in os.listdir(cap) if re.fullmatch(r"captures(-\d+(-\d+)?)?\.json", f)]
    if len(parts) != 50:
        fail(f"{len(parts)} parts in {cap}, expected 50")
    for part in parts:
        with open(os.path.join(cap, part), encoding="utf-8") as f:
            document = json.load(f)
        for v in gpuverify_loader_rules.check(document, strict=True):
            fail(gpuverify_loader_rules.describe(part, v))
        for inst in document:
            if not os.path.exists(os.path.join(cap, inst["kernel_file"])):
                fail(f"{part}: kernel file {inst['kernel_file']} is not in {cap}")


def check_store(cap):
    loose = [f for f in os.listdir(os.path.join(cap, "data")) if f.endswith(".bin")]
    sizes = sorted(os.path.getsize(os.path.join(cap, "data", f)) for f in loose)
    # The input (every process fills it alike) and the zeroed output: 256 KiB each, once each.
    if sizes != [262144, 262144]:
        fail(f"data/ holds loose blobs of sizes {sizes}: expected the two 256 KiB buffers once each")
    kernels = os.listdir(os.path.join(cap, "kernels"))
    if len(kernels) != 1:
        fail(f"kernels/ holds {kernels}: expected the one source once")
    total = sum(os.path.getsize(os.path.join(cap, "data", f)) for f in os.listdir(os.path.join(cap, "data")))
    if total > 3 * 262144:
        fail(f"data/ holds {total} bytes: shared bytes are stored more than once")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--suite")
    ap.add_argument("--clcapture")
    ap.add_argument("--library")
    ap.add_argument("--verify")
    ap.add_argument("--pack")
    ap.add_argument("--replay")
    ap.add_argument("--app")
    ap.add_argument("--driver")
    ap.add_argument("--oclgrind")
    ap.add_argument("--work")
    args = ap.parse_args()
    if args.suite:
        return suite(args.suite)

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    cap = os.path.join(args.work, "cap")
    # The caller's capture settings cleared, but not the suite's free-space floor (tests/TestEnvironment.cmake):
    # on a disk under 10 % free the layer's default floor would leave the buffers without bytes.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CLCAPTURE_", "OCL_ICD", "OPENCL_LAYERS")) or k == "CLCAPTURE_MIN_FREE"}
    env["POCL_KERNEL_CACHE"] = "1"
    launcher = subprocess.run([args.clcapture, "--icd", args.driver, "--dir", cap, "--", sys.executable,
                               os.path.abspath(__file__), "--suite", args.app], capture_output=True, text=True,
                              env=env, stdin=subprocess.DEVNULL)
    print(launcher.stderr[-3000:])
    if launcher.returncode != 0:
        fail(f"the suite under clcapture exited {launcher.returncode}")
    if f"clcapture: 50 instantiations captured in {cap} by 50 processes" not in launcher.stderr:
        fail("the closing line does not count 50 instantiations by 50 processes")
    killed = re.findall(r"clcapture: process (\d+) \(\S+ killed\) ended without running its exit handlers",
                        launcher.stderr)
    if len(killed) != 1:
        fail(f"the closing lines name {len(killed)} killed processes, expected the one that SIGKILLed itself")

    check_report(verify_json(args.verify, cap), 50, "clcapture-verify DIR")
    # --only pid=N: the launches of one process, by its pid.
    one = subprocess.run([args.verify, "--format=json", "--no-cache", "--only", f"pid={killed[0]}", cap],
                         capture_output=True, text=True)
    results = json.loads(one.stdout)["results"] if one.returncode == 0 else []
    if [r["process"]["pid"] for r in results] != [int(killed[0])]:
        fail(f"clcapture-verify --only pid={killed[0]}: {one.stdout[-500:]} {one.stderr[-500:]}")
    alone = subprocess.run([args.pack, cap, "--only", f"pid={killed[0]}", "-o", os.path.join(args.work, "one.tar.gz")],
                           capture_output=True, text=True)
    if "1 instantiation(s) from 1 process," not in alone.stdout:
        fail(f"clcapture pack --only pid={killed[0]}: {alone.stdout} {alone.stderr}")
    check_store(cap)
    check_parts_load_in_gpuverify(cap)
    archive = os.path.join(args.work, "cap.tar.gz")
    packed = subprocess.run([args.pack, cap, "-o", archive], capture_output=True, text=True)
    if packed.returncode != 0 or "50 instantiation(s) from 50 processes" not in packed.stdout:
        fail(f"clcapture pack: {packed.stdout} {packed.stderr}")
    check_report(verify_json(args.verify, archive), 50, "clcapture-verify ARCHIVE")

    # fork() after the parent captured (on Oclgrind, whose state survives a fork): each child writes a part of
    # its own with a writer of its own, never into its parent's.
    forked = os.path.join(args.work, "forked")
    run = subprocess.run([args.clcapture, "--icd", args.oclgrind, "--dir", forked, "--", args.app, "forkafter", "2"],
                         capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if run.returncode != 0 or f"3 instantiations captured in {forked} by 3 processes" not in run.stderr:
        fail(f"fork after capture: exit {run.returncode}: {run.stderr[-1500:]}")
    with open(os.path.join(forked, "captures.json"), encoding="utf-8") as f:
        if len(json.load(f)) != 1:
            fail("fork after capture: the parent's part holds its children's launches")
    check_report(verify_json(args.verify, forked), 3, "fork after capture")
    replay = subprocess.run([args.replay, forked, "--icd", args.oclgrind], capture_output=True, text=True)
    named = re.findall(r"^instantiation \d \(scale, process (\d+)\): replayed", replay.stdout + replay.stderr, re.M)
    if replay.returncode != 0 or len(set(named)) != 3:
        fail(f"clcapture-replay of the whole capture: {replay.stdout[-800:]} {replay.stderr[-800:]}")

    # Without the launcher: the shim recipe's variables by hand, and CLCAPTURE_DIR.
    vendors = os.path.join(args.work, "vendors")
    os.makedirs(vendors)
    with open(os.path.join(vendors, "clcapture.icd"), "w", encoding="utf-8") as f:
        f.write(os.path.abspath(args.library) + "\n")
    by_hand = dict(env, OCL_ICD_VENDORS=vendors, OCL_ICD_FILENAMES=os.path.abspath(args.library),
                   CLCAPTURE_ICD=args.driver, CLCAPTURE_DIR=os.path.join(args.work, "env-cap"))
    for _ in range(3):
        if subprocess.run([args.app, "work"], env=by_hand, stdout=subprocess.DEVNULL).returncode != 0:
            fail("samples/processes failed without the launcher")
    with open(os.path.join(args.work, "env-cap", "run.id"), encoding="utf-8") as f:
        if f.read().strip() != "env":
            fail("a capture without the launcher is not marked as one (run.id)")
    check_report(verify_json(args.verify, os.path.join(args.work, "env-cap")), 3, "without the launcher")
    print("PASS: 50 processes, one capture; 3 without the launcher, one capture")
    return 0


if __name__ == "__main__":
    sys.exit(main())
