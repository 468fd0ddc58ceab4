#!/usr/bin/python3
"""Runs one third-party OpenCL program bare and under clcapture on PoCL, checks that its own result is
unchanged, that the capture holds one instantiation per launch (counted independently from PoCL's event
log), and that clcapture-verify gives every captured launch a verdict other than `error` without crashing.

usage: run_app.py APP --clcapture BIN --verify BIN --work DIR [--timeout SECONDS] [--replay BIN] [--pack]

The capture is taken with --data-after (each launch's written buffers after it). The bug-report
checks, per program: `replay` ones are replayed from the capture alone on PoCL with `clcapture-replay
--compare` (integers exact, floats within 4 ULP); `pack` ones are packed with `clcapture pack` and
clcapture-verify on the archive must give the folder's verdicts.

APP is one of the programs below (issue "Real applications"). Writes DIR/APP/summary.json (the numbers of
docs/real-apps.md; tools/realapps_table.py renders them) and prints a short report; exits 1 on any failed
check. Debian's programs are used as installed (tools/setup.sh installs them).
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import gpuverify_loader_rules  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)

HERE = os.path.dirname(os.path.abspath(__file__))
POCL = "/etc/OpenCL/vendors/pocl.icd"
POCL_LIBRARY = "/usr/lib/x86_64-linux-gnu/libpocl.so.2"
PY = "/usr/bin/python3"

FFMPEG_CHAIN = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-init_hw_device", "opencl=ocl:0.0",
                "-filter_hw_device", "ocl", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=1",
                "-vf", "format=yuv420p,hwupload,avgblur_opencl,unsharp_opencl,sobel_opencl,hwdownload,format=yuv420p",
                "-f", "md5", "-"]


def clblast_result(out):
    """CLBlast's test summary: the passed/failed counts of every routine tested."""
    counts = re.findall(r"(\d+) test\(s\) (passed|skipped|failed)", re.sub(r"\x1b\[[0-9;]*m", "", out))
    failed = sum(int(n) for n, what in counts if what == "failed")
    return counts, failed == 0 and any(what == "passed" and int(n) > 0 for n, what in counts)


def line_result(pattern):
    def result(out):
        lines = re.findall(pattern, out, re.M)
        return lines, bool(lines)
    return result


def clfft_result(out):
    return re.findall(r"Client Test \*+(\w+)\*+", out), "Client Test *****PASS*****" in out


APPS = {
    "clblast-xdot": {"cmd": ["clblast_test_xdot"], "result": clblast_result, "replay": True},
    "clblast-xamax": {"cmd": ["clblast_test_xamax"], "result": clblast_result, "replay": True},
    # Every frame is an image2d_t: the capture holds no image format or contents (docs/bug-reports.md), so
    # replay must say so for every launch rather than run it.
    "ffmpeg-filters": {"cmd": FFMPEG_CHAIN, "result": line_result(r"^MD5=[0-9a-f]{32}$"),
                       "replay": "an image; the capture holds neither its format nor its contents"},
    "clfft-inplace": {"cmd": ["clFFT-client", "-c", "-x", "1024", "-p", "1"], "result": clfft_result,
                      "race": True, "pack": True},
    "clfft-outofplace": {"cmd": ["clFFT-client", "-c", "-x", "1024", "-p", "1", "-o"], "result": clfft_result,
                         "race": False, "replay": True},
    "clfft-2d": {"cmd": ["clFFT-client", "-c", "-x", "64", "-y", "64", "-p", "1"], "result": clfft_result},
    "opencv-tapi": {"cmd": [PY, os.path.join(HERE, "opencv_pipeline.py")],
                    "env": {"OPENCV_OPENCL_DEVICE": ":CPU:", "OPENCV_OPENCL_CACHE_ENABLE": "0"},
                    "result": line_result(r"^opencv: (?!device).*$"), "pack": True},
    "openmm-lj": {"cmd": [PY, os.path.join(HERE, "openmm_lj.py")], "result": line_result(r"^openmm: .*$")},
    # hashcat's DES crypt (-m 1500, a 2,700-line bit-slice kernel) brute-forcing a two-letter password
    # ("hc" with salt "48", from Python's crypt.crypt); --force: hashcat warns about PoCL. Each run has a HOME
    # of its own (fresh_home): hashcat keeps its compiled kernels and sessions there.
    "hashcat-des": {"cmd": ["hashcat", "-m", "1500", "-a", "3", "--potfile-disable", "--force", "--quiet",
                            "48sdo3RRRdyO.", "?l?l"],
                    "result": line_result(r"^48sdo3RRRdyO\.:hc$"), "home": True},
}


def fresh_home(app, env, work, name):
    """An app marked `home` gets an empty HOME of its own for each run: a cache of compiled kernels left by
    the bare run would make the captured one load binaries instead of building the sources."""
    if app.get("home"):
        env["HOME"] = os.path.join(work, name)
        os.makedirs(env["HOME"])


class Failed(Exception):
    pass


def run(cmd, env, log):
    start = time.monotonic()
    with open(log, "w", encoding="utf-8") as f:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=f, text=True, timeout=1800)
    return p.returncode, p.stdout, time.monotonic() - start


def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("app", choices=sorted(APPS))
    ap.add_argument("--clcapture", required=True)
    ap.add_argument("--verify", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--replay", help="clcapture-replay: replay the capture on PoCL and compare the outputs")
    ap.add_argument("--pack", action="store_true", help="pack the capture and verify the archive too")
    ap.add_argument("--debug", help="clcapture-debug: follow the first race finding (--finding) to both accesses")
    ap.add_argument("--timeout", type=int, default=30,
                    help="clcapture-verify --timeout per instantiation (default 30, for the suite's time: an "
                         "instantiation that needs more is unknown, reason: time limit)")
    a = ap.parse_args()
    app = APPS[a.app]
    work = os.path.join(a.work, a.app)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # PoCL's kernel cache off: otherwise the second run (captured) skips the compilation the first paid for.
    env = dict(os.environ, OCL_ICD_VENDORS=POCL, POCL_KERNEL_CACHE="0", **app.get("env", {}))

    env.pop("CLCAPTURE_ICD", None)
    failures = []
    summary = {"app": a.app, "command": " ".join(app["cmd"])}

    # 1. Bare.
    fresh_home(app, env, work, "home-bare")
    rc, out, bare_s = run(app["cmd"], env, os.path.join(work, "bare.log"))
    bare_result, bare_ok = app["result"](out)
    summary["bare_seconds"] = round(bare_s, 2)
    if rc != 0 or not bare_ok:
        raise SystemExit(f"{a.app}: FAIL: the program fails without clcapture (exit {rc}): {bare_result}")

    # 2. Under clcapture, with PoCL's event log to count launches independently.
    capture = os.path.join(work, "capture")
    cenv = dict(env, POCL_DEBUG="events")
    fresh_home(app, cenv, work, "home-captured")
    rc, out, cap_s = run([a.clcapture, "--dir", capture, "--data-after", "--"] + app["cmd"], cenv,
                         os.path.join(work, "captured.log"))
    cap_result, cap_ok = app["result"](out)
    summary["captured_seconds"] = round(cap_s, 2)
    if rc != 0 or not cap_ok:
        failures.append(f"the program fails under clcapture (exit {rc})")
    if cap_result != bare_result:
        failures.append(f"its result changed under clcapture: {bare_result} → {cap_result}")
    with open(os.path.join(work, "captured.log"), encoding="utf-8", errors="replace") as f:
        pocl_launches = sum(1 for line in f if "Command ndrange_kernel" in line)
    with open(os.path.join(capture, "captures.json"), encoding="utf-8") as f:
        instantiations = json.load(f)
    meta = sidecar_expand.load(capture)
    # docs/contract.md §3: GPUVerify's own loader accepts captures.json.
    failures += [gpuverify_loader_rules.describe("captures.json", v)
                 for v in gpuverify_loader_rules.check(instantiations, strict=True)]
    not_captured = [l for l in meta["launches"] if "instantiation" not in l]
    summary.update(launches=pocl_launches, instantiations=len(instantiations), not_captured=len(not_captured),
                   capture_bytes=folder_bytes(capture))
    if len(instantiations) + len(not_captured) != pocl_launches:
        failures.append(f"PoCL ran {pocl_launches} launches; the capture has {len(instantiations)} instantiations "
                        f"and {len(not_captured)} launches it could not record")
    if not_captured:
        failures.append(f"{len(not_captured)} launches not captured: {not_captured[0].get('not_captured')}")

    # 3. Verify, with a verdict cache of this run's own (so the time is the analysis's, and the archive's
    # verify below can reuse its results).
    cache_home = os.path.join(work, "cache")
    shutil.rmtree(cache_home, ignore_errors=True)
    verify_env = dict(os.environ, XDG_CACHE_HOME=cache_home)
    start = time.monotonic()
    p = subprocess.run([a.verify, "--format=json", f"--timeout={a.timeout}", "-j", str(os.cpu_count() or 2),
                        os.path.join(capture, "captures.json")], capture_output=True, text=True, env=verify_env)
    summary["verify_seconds"] = round(time.monotonic() - start, 2)
    if p.returncode not in (0, 6, 7) or not p.stdout.strip():
        raise SystemExit(f"{a.app}: FAIL: clcapture-verify exited {p.returncode}: {p.stderr[-2000:]}")
    with open(os.path.join(work, "report.json"), "w", encoding="utf-8") as f:
        f.write(p.stdout)
    report = json.loads(p.stdout)
    results = report["results"]
    distinct = [r for r in results if r.get("same_as") is None]
    verdicts = collections.Counter(r["verdict"] for r in distinct)
    summary.update(distinct=len(distinct), verdicts=dict(verdicts), summary=report["summary"])
    reasons = collections.Counter()
    for r in distinct:
        if r["verdict"] == "unknown":
            reasons[unknown_cause(r.get("reason", ""))] += 1
    summary["unknown_causes"] = dict(reasons)
    findings = []
    for r in distinct:
        for f in r["findings"]:
            loc = f["accesses"][0]["location"]
            findings.append({"instantiation": r["index"], "entry_point": r["entry_point"], "kind": f["kind"],
                             "severity": f["severity"], "message": f["message"],
                             "where": f"{loc['file']}:{loc.get('line', 0)}",
                             "work_items": [x["work_item"]["global_id"] for x in f["accesses"]]})
    summary["findings"] = findings
    errors = [r for r in results if r["verdict"] == "error"]
    if errors:
        failures.append(f"{len(errors)} instantiations end in error, e.g. #{errors[0]['index']}: {errors[0].get('reason')}")
    if any(not r.get("reason") for r in results if r["verdict"] == "unknown"):
        failures.append("an unknown verdict without a reason")
    races = [f for f in findings if f["kind"] == "data-race" and f["severity"] == "error"]
    if app.get("race") is True and not races:
        failures.append("the known race is not reported")
    if app.get("race") is False and races:
        failures.append(f"a race is reported where there is none: {races[0]}")
    # 3b. the known race watched in the debugger: --finding stops at both accesses of its witness.
    if a.debug and races:
        race = races[0]
        result = next(r for r in distinct if r["index"] == race["instantiation"])
        number = 1 + next(k for k, f in enumerate(result["findings"])
                          if f["message"] == race["message"] and f["kind"] == race["kind"])
        p = subprocess.run([a.debug, capture, "--launch", str(result["index"]), "--finding", str(number), "--batch"],
                           input="run\ncontinue\nrun\n", capture_output=True, text=True, timeout=1200)
        for k in range(1, len(race["work_items"]) + 1):
            if f"Finding {number}, access {k}: work-item " not in p.stdout:
                failures.append(f"clcapture-debug --finding {number} did not stop at access {k} "
                                f"(exit {p.returncode}): {p.stdout[-800:]} {p.stderr[-400:]}")
        summary["debug_finding"] = {"launch": result["index"], "finding": number, "exit": p.returncode}
    # 4. replay from the capture alone, outputs compared; pack, and verify the archive.
    if a.replay and app.get("replay"):
        start = time.monotonic()
        p = subprocess.run([a.replay, os.path.join(capture, "captures.json"), "--icd", POCL_LIBRARY, "--compare",
                            "--ulp", "4", "--output", os.path.join(work, "replay")],
                           capture_output=True, text=True, env=env, timeout=1200)
        summary["replay_seconds"] = round(time.monotonic() - start, 2)
        summary["replay"] = p.stdout.strip().splitlines()[-1:] if p.stdout.strip() else []
        with open(os.path.join(work, "replay.log"), "w", encoding="utf-8") as f:
            f.write(p.stdout + p.stderr)
        expected_gap = app["replay"] if isinstance(app["replay"], str) else None
        if expected_gap:
            lines = [l for l in p.stdout.splitlines() if l.startswith("instantiation ")]
            if p.returncode != 6 or not lines or not all(expected_gap in l for l in lines):
                failures.append(f"clcapture-replay should report every launch '{expected_gap}': exit {p.returncode}, "
                                f"{[l for l in lines if expected_gap not in l][:2]}")
        elif p.returncode != 0:
            failures.append(f"clcapture-replay --compare exited {p.returncode}: "
                            f"{(p.stdout + p.stderr).strip().splitlines()[-3:]}")
    if a.pack and app.get("pack"):
        archive = os.path.join(work, "capture.tar.gz")
        p = subprocess.run([a.clcapture, "pack", capture, "-o", archive], capture_output=True, text=True)
        if p.returncode != 0:
            failures.append(f"clcapture pack exited {p.returncode}: {p.stderr[-500:]}")
        else:
            summary["archive_bytes"] = os.path.getsize(archive)
            # A quick analysis is done again from the archive's own files; a long one (OpenCV: minutes) is
            # looked up in the verdict cache, under the keys computed from the archive's files.
            reuse = summary["verify_seconds"] >= 30
            start = time.monotonic()
            p = subprocess.run([a.verify, "--format=json", f"--timeout={a.timeout}", "-j", str(os.cpu_count() or 2)]
                               + ([] if reuse else ["--no-cache"]) + [archive],
                               capture_output=True, text=True, env=verify_env)
            summary["archive_verify_seconds"] = round(time.monotonic() - start, 2)
            summary["archive_verify_cached"] = reuse
            packed = json.loads(p.stdout)["results"] if p.stdout.strip() else []
            # A time limit is not a verdict: how far an analysis gets in 30 s depends on the machine's load,
            # so a launch that ran out of time in either run is left out of the comparison.
            timed_out = {r["index"] for r in results + packed
                         if re.search(r"timed out|not analysed", r.get("reason", ""))}
            mine = [(r["index"], r["verdict"]) for r in results if r["index"] not in timed_out]
            theirs = [(r["index"], r["verdict"]) for r in packed if r["index"] not in timed_out]
            if mine != theirs:
                diff = [(x, y) for x, y in zip(mine, theirs) if x != y][:3]
                failures.append(f"the archive's verdicts differ from the folder's ({len(theirs)} vs {len(mine)} "
                                f"results; e.g. {diff})")
            else:
                summary["archive_verdicts_equal"] = True
    with open(os.path.join(work, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    print(f"{a.app}: {pocl_launches} launches (PoCL), {len(instantiations)} instantiations, {len(distinct)} distinct; "
          f"bare {bare_s:.1f} s, captured {cap_s:.1f} s, verify {summary['verify_seconds']:.1f} s; "
          f"verdicts {dict(verdicts)}; unknown causes {dict(reasons)}; {len(races)} race findings")
    for f in failures:
        print(f"{a.app}: FAIL: {f}")
    return 1 if failures else 0


def unknown_cause(reason):
    """A short cause for grouping `unknown` reasons in docs/real-apps.md."""
    for pattern, cause in [(r"timed out|timeout", "time limit"),
                           (r"contains a barrier and its trip count", "barrier loop without a constant bound"),
                           (r"depending on a value read from (global|local) memory", "value read from shared memory"),
                           (r"depending on a value read from private memory", "private array"),
                           (r"depending on the trip count", "loop trip count"),
                           (r"depending on the value (atomic|atom)_\w+ returns|an atomic", "atomic result"),
                           (r"depending on a floating-point", "floating-point value"),
                           (r"built-in (\w+) .* not modelled", "built-in not modelled"),
                           (r"depending on", "other abstraction")]:
        m = re.search(pattern, reason)
        if m:
            return cause + (f" ({m.group(1)})" if cause == "built-in not modelled" else "")
    return "other: " + reason[:80]


if __name__ == "__main__":
    sys.exit(main())
