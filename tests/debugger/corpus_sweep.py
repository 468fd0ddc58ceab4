#!/usr/bin/python3
"""Every corpus kernel (tests/kernels) run to its end by clcapture-debug and by clcapture-replay on PoCL, the
buffers each leaves compared (integers bit for bit, floats within 4 ULP), for issue 27's acceptance and
docs/debugger.md's counts.

usage: corpus_sweep.py CORPUS_DIR --debug BIN --replay BIN [--jobs N] [--every N] [--markdown FILE] [KERNEL.cl ...]

Each kernel's launch comes from its header (tests/kernels/run_kernel.py); a buffer the header gives no contents
gets deterministic ones (bytes 3, 10, 17, …), one without a size max(1 MiB, 64 × work-items) bytes, a __local
argument without a size max(1024, 64 × group size) bytes, so that both tools can run it. Outcomes:
  equal          both ran, every buffer equal
  differs        both ran and some buffer differs: a failure for a race-free kernel (`//pass`); for the others
                 (`//xfail`, `//unknown`: races, out-of-bounds accesses) an expected exception
  not run        a launch neither runs: clcapture-replay and clcapture-debug both refuse it (images, no size)
  Oclgrind cannot run it  Oclgrind's interpreter ended the launch early (exit 3: an unsupported built-in, …)
  debug failed   clcapture-debug crashed or refused a launch clcapture-replay ran: a failure
  differs as expected  a race-free kernel whose output legitimately depends on the driver (no local size
                 captured, pointer values stored), each with its reason
  slower than 60 s in the interpreter  listed
  replay failed  PoCL could not build or run it while clcapture-debug did: listed with PoCL's reason
Exit status 1 on any failure.
"""
import argparse
import concurrent.futures
import glob
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "kernels"))
import run_kernel  # noqa: E402  (the corpus header's launch and capture folder)

from debug_testing import POCL, same_output  # noqa: E402

# Race-free kernels whose buffers legitimately differ between two drivers, with the reason.
EXPECTED_DIFFERENCES = {
    "pointers/store_pointer_fields.cl": "the kernel stores pointers into the buffer: addresses differ by driver",
}


def corpus_launch(path, corpus):
    """A corpus kernel's launch, with contents and sizes filled in so that both tools can run it:
    (name, expected, text, entry, params, inst, launch), or (name, expected, reason) when it cannot run."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = os.path.relpath(path, corpus)
    try:
        expected, options, _ = run_kernel.parse_header(text)
        entry, params, inst, launch = run_kernel.launch_of(text, options)
    except SystemExit as e:
        return name, None, f"header: {e}"
    if any(kind in ("image", "sampler") for _, kind in params):
        return name, expected, "images and samplers (neither tool replays them yet)"
    items = math.prod(inst.get("global_size", [1]))
    local_items = math.prod(inst.get("local_size", inst.get("global_size", [1])))
    for pname, kind in params:
        if kind in ("global", "constant") and pname not in launch["alias"]:
            if pname not in launch["sizes"] and pname not in launch["data"]:
                launch["sizes"][pname] = str(max(1 << 20, 64 * items))
            if pname not in launch["data"]:
                size = int(launch["sizes"][pname])
                pattern = bytes((i * 7 + 3) & 0xff for i in range(256))
                launch["data"][pname] = (pattern * (size // 256 + 1))[:size]
        elif kind == "local" and pname not in launch["sizes"]:
            launch["sizes"][pname] = str(max(1024, 64 * local_items))
    return name, expected, text, entry, params, inst, launch


def corpus_capture(path, corpus, folder):
    """The kernel's launch (corpus_launch) written as a capture into `folder`: (name, expected, inst, None),
    or (name, expected, None, why it cannot run)."""
    prepared = corpus_launch(path, corpus)
    if len(prepared) == 3:
        name, expected, why = prepared
        return name, expected, None, why
    name, expected, text, entry, params, inst, launch = prepared
    try:
        run_kernel.build_capture(folder, os.path.basename(path), text, entry, params, inst, launch)
    except SystemExit as e:
        return name, expected, None, f"capture: {e}"
    return name, expected, inst, None


def sweep_one(path, args):
    # `run` starts the launch; a second `run` carries it on to the end past any stop for an error Oclgrind
    # reports (an out-of-bounds access of a kernel that has one).
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "cap")
        name, expected, inst, why = corpus_capture(path, args.corpus, folder)
        if why:
            return name, "not run", why, expected
        with open(path, encoding="utf-8") as f:
            text = f.read()
        env = dict(os.environ, OCL_ICD_VENDORS=POCL)
        replayed = os.path.join(tmp, "replay")
        try:
            r = subprocess.run([args.replay, folder, "--output", replayed], capture_output=True, text=True,
                               env=env, timeout=120)
            replay_ok = r.returncode in (0, 2) and os.path.isdir(os.path.join(replayed, "0"))
            replay_why = ([f"exit {r.returncode}:"] + (r.stdout + r.stderr).strip().splitlines()[-1:]
                          if not replay_ok else [])
        except subprocess.TimeoutExpired:
            replay_ok, replay_why = False, ["timeout"]
        debugged = os.path.join(tmp, "debug")
        try:
            d = subprocess.run([args.debug, folder, "--batch", "--output", debugged], input="run\nrun\n",
                               capture_output=True, text=True, timeout=60)
            debug_rc, debug_err = d.returncode, d.stderr.strip()
        except subprocess.TimeoutExpired:
            debug_rc, debug_err = None, "timeout (60 s)"
        # Exit 1 is a failed command: the second `run` after a launch that did not stop.
        debug_ok = debug_rc in (0, 1) and os.path.isdir(os.path.join(debugged, "0"))
        oclgrind_lacks = [line for line in debug_err.splitlines()
                          if "did not compile in Oclgrind" in line or "Oclgrind cannot run" in line]
        if debug_rc == 10 and oclgrind_lacks:
            detail = [line.strip() for line in debug_err.splitlines()
                      if line.strip() and not line.startswith("clcapture-debug:") and "FATAL ERROR" not in line]
            return name, "Oclgrind cannot run it", (detail[0] if detail else oclgrind_lacks[0]), expected
        if not debug_ok and not replay_ok and debug_rc == 10:
            return name, "not run", debug_err.splitlines()[0] if debug_err else "refused", expected
        if debug_rc == 3:  # Oclgrind ended the launch early: what its interpreter cannot run
            ended = [line.strip() for line in d.stdout.splitlines() if "FATAL ERROR" in line or "nsupported" in line]
            return name, "Oclgrind cannot run it", (ended[-1] if ended else "ended early"), expected
        if debug_rc is None:
            return name, "slower than 60 s in the interpreter", "Oclgrind interprets every instruction", expected
        if not debug_ok:
            why = f"exit {debug_rc}: " + (debug_err.splitlines()[-1] if debug_err else "")
            return name, "debug failed", why, expected
        if not replay_ok:
            return name, "replay failed", " ".join(replay_why), expected
        different = []
        for file in sorted(os.listdir(os.path.join(replayed, "0"))):
            mine = os.path.join(debugged, "0", file)
            if not os.path.exists(mine):
                different.append(file + " (not written)")
                continue
            with open(mine, "rb") as f1, open(os.path.join(replayed, "0", file), "rb") as f2:
                if not same_output(f1.read(), f2.read(), text):
                    different.append(file)
        if different and name in EXPECTED_DIFFERENCES:
            return name, "differs as expected", EXPECTED_DIFFERENCES[name], expected
        if different and "local_size" not in inst:
            return name, "differs as expected", "no local size captured: each driver chooses its own", expected
        if different:
            return name, "differs", ", ".join(different), expected
        return name, "equal", "", expected


def main():
    p = argparse.ArgumentParser()
    p.add_argument("corpus")
    p.add_argument("kernels", nargs="*")
    p.add_argument("--debug", required=True)
    p.add_argument("--replay", required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--markdown")
    p.add_argument("--every", type=int, default=1, help="every Nth kernel of the corpus (the suite's sample)")
    args = p.parse_intermixed_args()
    kernels = args.kernels or sorted(glob.glob(os.path.join(args.corpus, "**", "*.cl"), recursive=True))
    kernels = [k for k in kernels if not os.path.basename(k).startswith("_")][::args.every]
    counts, failures, exceptions = {}, 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, outcome, why, expected in pool.map(lambda k: sweep_one(k, args), kernels):
            failure = outcome == "debug failed" or (outcome == "differs" and expected == "verified")
            label = outcome + (" (race or out-of-bounds by design)" if outcome == "differs" and not failure else "")
            counts[label] = counts.get(label, 0) + 1
            if failure:
                failures += 1
                print(f"FAIL  {name}: {outcome}: {why}")
            elif outcome != "equal":
                exceptions.append((name, label, why))
                print(f"      {name}: {label}: {why}")
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    print(f"debug sweep: {len(kernels)} kernels: {summary}; {failures} failures")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"{len(kernels)} corpus kernels: {summary}; {failures} failures.\n\n| kernel | outcome | why |\n|---|---|---|\n")
            for name, label, why in exceptions:
                f.write(f"| `{name}` | {label} | {why.replace('|', '/')} |\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
