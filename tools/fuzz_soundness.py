#!/usr/bin/python3
"""Differential soundness fuzzer: clcapture-verify's verdicts against Oclgrind's race detector and MemCheck.

usage: tools/fuzz_soundness.py [--seed S] [--batches B | --seconds T] [--batch-size N] [--out DIR]
                               [--check] [--no-reduce] [--reduce-seconds R] [--clcapture P] [--verify P]
                               [--host P]
Per batch (seed S, S+1, …; N kernels each, so that process start-up is paid once a batch):
  1. tests/fuzz/soundness/kernel_generator.py writes N kernels and a launch manifest;
  2. fuzz_host runs every launch on PoCL under `clcapture` (a launch that crashes or hangs the driver is
     noted, and the host resumes after it, into a new capture folder);
  3. `clcapture-verify --no-cache --format=json` verifies every capture folder twice, `--checks=races,divergence`
     and `--checks=bounds` (memory safety), while
  4. fuzz_host runs the same manifest on Oclgrind's ICD with its race detector (OCLGRIND_DATA_RACES=1) and its
     always-on MemCheck (each message names its kernel: "Kernel: NAME");
  5. each launch is compared:
       verified, and Oclgrind reports a data race or work-group divergence  -> UNSOUND: the kernel (as
         captured, headers inlined) is reduced with C-Reduce (interesting: still verified and still a
         race or divergence under Oclgrind) and written with its launch to DIR/unsound/NAME/;
       defects on a kernel race-free by construction ("racefree"/"benign")  -> FALSE ALARM, written to
         DIR/false-alarms/NAME/ (explained when tests/fuzz/soundness/known_false_alarms.json names it);
       and, on a launch where Oclgrind reports no race or divergence (a race makes the values a later access
       uses undefined), memory safety:
       verified under --checks=bounds, and MemCheck reports an invalid access ("Invalid read of size 4 at
         global memory address …", "Index (8) exceeds static array size (8)", a write to a read-only buffer)
         -> UNSOUND (check "bounds"; reduced while it stays so);
       an out-of-bounds, null or access-mode finding, and MemCheck reports none  -> FALSE ALARM (every buffer of
         a fuzz launch is captured with its bytes, so a witness is the launch Oclgrind ran), known when the
         launch mutates a corpus kernel whose header says MemCheck is blind to its defect (--oclgrind-blind:
         the generator marks it with the feature memcheck-blind);
       anything else (unknown, error, defects on other kernels) is counted.
Prints a summary and writes DIR/summary.json. Deterministic for a seed (the kernels, the launches, the
verdicts; not the seconds). --check (the CTest): exit 1 on an unsound verdict, an unexplained false alarm,
a batch with fewer launches than asked, a grammar kernel that does not build, or a launch that ran without
a verdict. Internal mode for C-Reduce: --interesting LAUNCH.json KERNEL.cl [--interesting-check bounds].
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOUNDNESS = os.path.join(ROOT, "tests", "fuzz", "soundness")
sys.path.insert(0, SOUNDNESS)
import kernel_generator  # noqa: E402
import launch_manifest  # noqa: E402

POCL_ICD = "/etc/OpenCL/vendors/pocl.icd"
OCLGRIND_ICD = os.environ.get("CLCAPTURE_OCLGRIND_ICD", "/usr/lib/oclgrind/liboclgrind-rt-icd.so")
HOST_TIMEOUT = 600  # seconds for one host run (a launch that hangs is skipped after it)
# A launch built with a divergent barrier (feature "divergent-barrier"; "may-diverge": a corpus mutation with a
# barrier that its original reaches divergently or that a mutation moved) crashes PoCL or hangs it; its outputs
# are never compared, so on PoCL its run is cut this many seconds after its `start` line instead of
# LAUNCH_TIMEOUT. Whether its record was written by then does not matter: one that was not is built from the
# manifest (capture_on_pocl). (Oclgrind, the oracle, runs it to the end.)
DIVERGENT_RUN_TIMEOUT = 5
LAUNCH_TIMEOUT = 60  # seconds for one launch (its build and run) before the host is taken as hung (a divergent
# barrier can hang PoCL: the capture is written before the launch runs, so only the run is lost)
VERIFY_TIMEOUT = 60  # clcapture-verify --timeout per instantiation (--verify-timeout)
KNOWN_FALSE_ALARMS = os.path.join(SOUNDNESS, "known_false_alarms.json")
# Oclgrind builds unoptimised, so that it runs every access of the source: an optimising build drops a read
# whose value is never used (`v = table[j - 1]` overwritten by the next iteration), out of bounds or racy,
# which the analysis rightly judges (the access is undefined whether or not its value is used).
ORACLE_OPTIONS = ["--extra-options", "-cl-opt-disable"]
ORACLE_MESSAGE = re.compile(r"^(Read-write data race|Write-write data race|Work-group divergence detected)", re.M)
# MemCheck's invalid accesses (an unaligned load, an uninitialised value: not memory safety as checked here).
MEMCHECK_MESSAGE = re.compile(r"^(Invalid (read|write) of size \d+|Index \(\d+\) exceeds static array size|"
                              r"Invalid write to read-only|Invalid read from write-only)")
MEMORY_FINDINGS = ("out-of-bounds", "null-dereference", "access-mode")


# ---- running the host


def watch_host(argv, env, err, timeout, cut_short=frozenset()):
    """Runs one host; kills it when a launch (from its `build`/`start` line to the next line) takes longer
    than LAUNCH_TIMEOUT, a launch of a kernel in `cut_short` runs longer than DIVERGENT_RUN_TIMEOUT, or the
    whole run takes longer than `timeout`. Returns (exit code or None, why it was killed or None, stdout)."""
    lines, last_line = [], [time.monotonic()]

    def read(stream):
        for line in stream:
            lines.append(line)
            last_line[0] = time.monotonic()

    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True)
    reader = threading.Thread(target=read, args=(p.stdout,), daemon=True)
    reader.start()
    started, why = time.monotonic(), None
    while p.poll() is None:
        now = time.monotonic()
        running = lines[-1].strip()[6:] if lines and lines[-1].startswith("start ") else None
        if running in cut_short and now - last_line[0] > DIVERGENT_RUN_TIMEOUT:
            why = f"cut short (a divergent barrier, run for {DIVERGENT_RUN_TIMEOUT} s)"
        elif now - last_line[0] > LAUNCH_TIMEOUT:
            why = f"hung (one launch took more than {LAUNCH_TIMEOUT} s)"
        elif now - started > timeout:
            why = f"hung (more than {timeout} s)"
        if why:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            break
        time.sleep(0.2)
    reader.join(timeout=10)
    return (None if why else p.returncode), why, "".join(lines)


def run_host(command, env, manifest_launches, timeout=HOST_TIMEOUT, cut_short=frozenset()):
    """Runs the host over every launch, resuming after one that kills or hangs it.

    command(first, run_index) gives the argv of one host run starting at launch `first`.
    Returns {ran: set of kernels that finished, lost: {kernel: why}, died_after: {kernel: why} (the last
    launch that finished before the host died between launches), not_built: {kernel: message},
    stderr: all stderr text, runs: number of host runs}."""
    names = [l["kernel"] for l in manifest_launches]
    ran, lost, died_after, not_built, stderr_all = set(), {}, {}, {}, []
    first, runs, retries = 0, 0, 2
    while first < len(names):
        argv = command(first, runs)
        runs += 1
        with tempfile.TemporaryFile("w+") as err:
            code, why, stdout = watch_host(argv, env, err, timeout, cut_short)
            err.seek(0)
            stderr = err.read()
        stderr_all.append(stderr)
        started = last_done = None  # the launch the host was in (building or running it), the last done
        for line in stdout.splitlines():
            if line.startswith(("build ", "start ")):
                started = line[6:]
            elif line.startswith("done "):
                ran.add(line[5:])
                started, last_done = None, line[5:]
        for m in re.finditer(r"^fuzz_host: (\w+): (clBuildProgram failed|clCreateKernel failed)[^\n]*\n?((?:(?!fuzz_host: )[^\n]*\n){0,6})", stderr, re.M):
            not_built[m.group(1)] = (m.group(2) + "\n" + m.group(3)).strip()
        if code in (0, 3):
            break
        if started is None and last_done is not None:
            # Died between launches, after finishing some: an out-of-bounds launch corrupts the host's heap
            # and the abort comes later ("double free or corruption", exit 134). Resume after the last one,
            # which may have died before the layer's writer stored its record.
            died_after[last_done] = why or f"the host died after it (exit {code})"
            first, retries = names.index(last_done) + 1, 2
            continue
        if started is None:
            # Died before its first launch (a library replaced by a rebuild under us): try again twice, then
            # give that launch up and go on after it.
            if retries > 0:
                retries -= 1
                continue
            lost[names[first]] = f"the host exited {code} before it"
            first, retries = first + 1, 2
            continue
        retries = 2
        lost[started] = why or f"the driver crashed (exit {code}, signal {-code if code < 0 else code - 128})"
        first = names.index(started) + 1
    return {"ran": ran, "lost": lost, "died_after": died_after, "not_built": not_built,
            "stderr": "".join(stderr_all), "runs": runs}


def capture_on_pocl(tools, manifest_path, manifest, folder):
    """Captures every launch on PoCL; returns run_host's record with "captures" (the capture folders)."""
    env = dict(os.environ, OCL_ICD_VENDORS=POCL_ICD)
    folders = []

    def command(first, index):
        cap = os.path.join(folder, f"capture-{index}")
        shutil.rmtree(cap, ignore_errors=True)
        folders.append(cap)
        return [tools.clcapture, "--dir", cap, "--icd", POCL_ICD, "--store", "off", "--call-sites", "off",
                "--log", "error", "--", tools.host, manifest_path, "--first", str(first)]

    divergent = frozenset(l["kernel"] for l in manifest["launches"]
                          if {"divergent-barrier", "may-diverge"} & set(l.get("features", ())))
    record = run_host(command, env, manifest["launches"], cut_short=divergent)
    record["captures"] = [f for f in folders if os.path.exists(os.path.join(f, "captures.json"))]
    captured = set()
    for cap in record["captures"]:
        with open(os.path.join(cap, "captures.json"), encoding="utf-8") as f:
            captured.update(i["entry_point"] for i in json.load(f))
        refuse_budget_cuts(cap)
    # A launch that crashed PoCL (a divergent barrier does) may die before the layer wrote it: its capture
    # is then built from the manifest, as the corpus builds one from a header (run_kernel.build_capture).
    # So may a divergent launch cut short just as it finished: its `done` line can come out while the
    # host is killed, before the writer thread stored its record (how long PoCL takes decides which), and
    # so may the last launch before the host died between launches (its out-of-bounds writes corrupted the
    # heap; whether the abort comes before the writer stored it depends on the machine's load). A launch
    # that is none of these and has no record is the layer's failure: --check says so.
    record["synthesised"] = []
    for launch in manifest["launches"]:
        cut = launch["kernel"] in record["lost"] or launch["kernel"] in divergent or launch["kernel"] in record["died_after"]
        if cut and launch["kernel"] not in captured:
            cap = os.path.join(folder, f"capture-{launch['kernel']}")
            synthesise_capture(cap, launch, os.path.dirname(manifest_path))
            record["captures"].append(cap)
            record["synthesised"].append(launch["kernel"])
    return record


BUDGET_CUT = re.compile(r'"data_skipped":\s*"((?:free-space floor|byte budget exhausted)[^"]*)"')


def refuse_budget_cuts(cap):
    """Stops the run when the layer left a buffer without its bytes for want of disk or budget: the verdict on
    such a launch is less precise than the one the oracle is compared with, so every difference would be
    counted as a false alarm of the analyzer. A skip for any other reason is part of what is being tested.
    The sidecar is searched as text: a host killed mid-launch may leave it unterminated."""
    try:
        with open(os.path.join(cap, "captures.meta.json"), encoding="utf-8", errors="replace") as f:
            cut = BUDGET_CUT.search(f.read())
    except OSError:
        return
    if cut:
        raise SystemExit(f"fuzz_soundness: {cap}: a buffer was captured without its bytes ({cut.group(1)}); "
                         "free disk space or set CLCAPTURE_MIN_FREE")


def synthesise_capture(cap, launch, manifest_folder):
    """A capture folder for one manifest launch, written the way run_kernel.py writes a corpus kernel's."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "kernels"))
    import run_kernel
    headers = {}
    for h in launch.get("headers", []):
        with open(os.path.join(manifest_folder, h), encoding="utf-8") as f:
            headers[os.path.basename(h)] = f.read()
    with open(os.path.join(manifest_folder, launch["source"]), encoding="utf-8") as f:
        text = launch_manifest.INCLUDE.sub(lambda m: headers.get(m.group(1), m.group(0)), f.read())
    entry, params = run_kernel.parameters(text, launch["kernel"])
    inst = {"language": "OpenCL", "endianness": "little", "global_size": launch["global_size"],
            "compiler_flags": re.sub(r"-I\s*\S+", "", launch.get("build_options", "")).strip()}
    if launch.get("local_size"):
        inst["local_size"] = launch["local_size"]
    if launch.get("global_offset"):
        inst["global_offset"] = launch["global_offset"]
    facts = {"args": {}, "sizes": {}, "data": {}, "alias": {}, "flags": {}}
    for (name, _), arg in zip(params, launch["args"]):
        if arg["kind"] == "scalar":
            facts["args"][name] = "0x" + bytes.fromhex(arg["value"])[::-1].hex()
        elif arg["kind"] == "local":
            facts["sizes"][name] = arg["bytes"]
        elif "same_as" in arg:
            facts["alias"][name] = params[arg["same_as"]][0]
        else:
            facts["sizes"][name] = arg["bytes"]
            facts["data"][name] = (bytes.fromhex(arg["contents"]).ljust(arg["bytes"], b"\0") if "contents" in arg
                                   else b"".join((i + 1).to_bytes(4, "little") for i in range((arg["bytes"] + 3) // 4))[:arg["bytes"]])
            facts["flags"][name] = ["CL_MEM_READ_ONLY" if arg.get("read_only") else "CL_MEM_READ_WRITE"]
    facts["device_non_uniform"] = False  # as PoCL 3.1 answers CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT
    shutil.rmtree(cap, ignore_errors=True)
    run_kernel.build_capture(cap, launch["kernel"] + ".cl", text, entry, params, inst, facts)


def oclgrind_env():
    return dict(os.environ, OCL_ICD_VENDORS=OCLGRIND_ICD, OCLGRIND_DATA_RACES="1",
                OCLGRIND_MAX_ERRORS="100000000")


def oclgrind_messages(stderr):
    """{kernel: set of "race" | "divergence"} from Oclgrind's messages."""
    seen = {}
    starts = [m.start() for m in ORACLE_MESSAGE.finditer(stderr)] + [len(stderr)]
    for a, b in zip(starts, starts[1:]):
        block = stderr[a:b]
        m = re.search(r"^\s*Kernel:\s+(\w+)", block, re.M)
        if not m:
            continue
        seen.setdefault(m.group(1), set()).add("divergence" if block.startswith("Work-group") else "race")
    return seen


def memcheck_messages(stderr):
    """The kernels MemCheck reports an invalid access in."""
    kernels = set()
    for block in re.split(r"\n(?=\S)", stderr):
        if MEMCHECK_MESSAGE.match(block):
            m = re.search(r"^\s*Kernel:\s+(\w+)", block, re.M)
            if m:
                kernels.add(m.group(1))
    return kernels


# ---- verifying


def verify(tools, captures, folder, jobs, timeout=VERIFY_TIMEOUT, checks="races,divergence"):
    """{kernel: result record} from clcapture-verify's JSON report of every capture folder."""
    results = {}
    for i, cap in enumerate(captures):
        report = os.path.join(folder, f"verify-{i}.json" if checks == "races,divergence" else f"verify-{checks}-{i}.json")
        subprocess.run([tools.verify, "--no-cache", "--format=json", f"--timeout={timeout}", f"-j{jobs}",
                        f"--checks={checks}", f"--output={report}", cap], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
        try:
            with open(report, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        for r in data["results"]:
            r["capture"] = cap
            results[r["entry_point"]] = r
    return results


# ---- one batch


def classify(launch, verdict, oracle, known):
    """The outcome of one launch: unsound | false-alarm | known-false-alarm | expectation-broken | counted."""
    seen = oracle or set()
    if verdict == "verified" and seen:
        return "unsound"
    if verdict == "defects" and launch["expectation"] in ("racefree", "benign"):
        if "race" in seen or "divergence" in seen:
            return "expectation-broken"  # Oclgrind sees it too: the generator's construction is wrong
        for k in known:
            if re.search(k["pattern"], json.dumps(launch, sort_keys=True)):
                return "known-false-alarm"
        return "false-alarm"
    return "counted"


def classify_bounds(launch, result, oracle, invalid, known):
    """Memory safety on one launch: unsound | false-alarm | known-false-alarm | counted."""
    if oracle & {"race", "divergence"} or result is None:
        return "counted"  # a race makes the values later accesses use undefined: the race oracle judges it
    if result["verdict"] == "verified" and invalid:
        return "unsound"
    if not invalid and any(f.get("kind") in MEMORY_FINDINGS for f in result.get("findings", [])):
        if "memcheck-blind" in launch.get("features", ()):
            return "known-false-alarm"  # the origin's header: MemCheck cannot see it (corpus_mutations.py)
        memory = [f for f in result.get("findings", []) if f.get("kind") in MEMORY_FINDINGS]
        if all(f.get("within_object") for f in memory):
            # An index past an array inside its object (`s.b[-1]` of a struct's `int b[2]`): undefined by C99
            # §6.5.6 ¶8, but MemCheck checks whole allocations, so it cannot see it (docs/semantics.md row 37e).
            return "known-false-alarm"
        for k in known:
            if re.search(k["pattern"], json.dumps(launch, sort_keys=True)):
                return "known-false-alarm"
        return "false-alarm"
    return "counted"


def finding_lines(result):
    return [f"{f['severity']}: {f['message']}" for f in result.get("findings", [])]


def one_launch_manifest(launch, source_name):
    record = dict(launch)
    record["source"] = source_name
    record.pop("headers", None)
    record.pop("oracle_source", None)
    # The captured source has its headers inlined: the -I option is not needed any more.
    record["build_options"] = re.sub(r"-I\s*\S+", "", record.get("build_options", "")).strip()
    return {"format": launch_manifest.FORMAT, "version": 1, "seed": None, "launches": [record]}


def captured_source(result):
    with open(os.path.join(result["capture"], result["kernel_file"]), encoding="utf-8") as f:
        return f.read()


def write_case(folder, launch, result, oracle_text, tools, reduce_seconds, reduce, check="races"):
    """A reproducer folder: kernel.cl (reduced when asked), original.cl, launch.json, verify.json,
    oclgrind.txt, and how to run it again."""
    os.makedirs(folder, exist_ok=True)
    source = captured_source(result)
    with open(os.path.join(folder, "original.cl"), "w", encoding="utf-8") as f:
        f.write(source)
    with open(os.path.join(folder, "kernel.cl"), "w", encoding="utf-8") as f:
        f.write(source)
    with open(os.path.join(folder, "launch.json"), "w", encoding="utf-8") as f:
        json.dump(one_launch_manifest(launch, "kernel.cl"), f, indent=1)
    with open(os.path.join(folder, "verify.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(folder, "oclgrind.txt"), "w", encoding="utf-8") as f:
        f.write(oracle_text)
    reduced = None
    if reduce:
        reduced = reduce_case(folder, tools, reduce_seconds, check)
    with open(os.path.join(folder, "README"), "w", encoding="utf-8") as f:
        f.write(f"kernel {launch['kernel']}: clcapture-verify says {result['verdict']}; see verify.json and oclgrind.txt\n"
                f"run again:  OCL_ICD_VENDORS={POCL_ICD} {tools.clcapture} --dir cap --icd {POCL_ICD} -- "
                f"{tools.host} launch.json && {tools.verify} --no-cache "
                f"--checks={'bounds' if check == 'bounds' else 'races,divergence'} cap\n"
                f"oracle:     OCL_ICD_VENDORS={OCLGRIND_ICD} OCLGRIND_DATA_RACES=1 {tools.host} launch.json "
                f"{' '.join(ORACLE_OPTIONS)} "
                f"(inline helpers made static first: launch_manifest.oracle_text)\n"
                f"kernel.cl is {'reduced by C-Reduce' if reduced else 'the captured source (not reduced)'}\n")
    return reduced


def reduce_case(folder, tools, seconds, check="races"):
    """C-Reduce kernel.cl in place: interesting while clcapture-verify says verified and Oclgrind still
    reports a race or divergence. Returns whether C-Reduce ran."""
    creduce = shutil.which("creduce")
    if not creduce:
        return False
    test = os.path.join(folder, "interesting.sh")
    with open(test, "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\n"
                f"exec /usr/bin/python3 {os.path.abspath(__file__)} --interesting {os.path.join(os.path.abspath(folder), 'launch.json')} "
                f"kernel.cl --interesting-check {check} --clcapture {tools.clcapture} --verify {tools.verify} "
                f"--host {tools.host}\n")
    os.chmod(test, 0o755)
    work = tempfile.mkdtemp(prefix="creduce-")
    try:
        shutil.copy(os.path.join(folder, "kernel.cl"), os.path.join(work, "kernel.cl"))
        try:
            subprocess.run(["timeout", str(seconds), creduce, "--n", "2", "--not-c", test, "kernel.cl"], cwd=work,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=seconds + 60)
        except subprocess.TimeoutExpired:
            pass
        # C-Reduce keeps the smallest interesting file in place, even when stopped.
        if interesting(os.path.join(folder, "launch.json"), os.path.join(work, "kernel.cl"), tools, check):
            shutil.copy(os.path.join(work, "kernel.cl"), os.path.join(folder, "kernel.cl"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return True


def interesting(launch_json, kernel_path, tools, check="races"):
    """True when the kernel is still verified and Oclgrind still reports a race or divergence on it (check
    "bounds": verified under --checks=bounds, and MemCheck still reports an invalid access and no race)."""
    manifest = launch_manifest.read(launch_json)
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(kernel_path, os.path.join(d, "kernel.cl"))
        with open(kernel_path, encoding="utf-8") as f:
            oracle = launch_manifest.oracle_text(f.read())
        manifest["launches"][0].pop("oracle_source", None)
        if oracle is not None:
            with open(os.path.join(d, "kernel.oracle.cl"), "w", encoding="utf-8") as f:
                f.write(oracle)
            manifest["launches"][0]["oracle_source"] = "kernel.oracle.cl"
        path = os.path.join(d, "launch.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(manifest, f)
        name = manifest["launches"][0]["kernel"]
        grind = run_host(lambda first, i: [tools.host, path, "--source-key", "oracle_source", *ORACLE_OPTIONS],
                         oclgrind_env(),
                         manifest["launches"], timeout=120)
        if check == "bounds":
            if oclgrind_messages(grind["stderr"]).get(name) or name not in memcheck_messages(grind["stderr"]):
                return False
        elif not oclgrind_messages(grind["stderr"]).get(name):
            return False
        record = capture_on_pocl(tools, path, manifest, d)
        results = verify(tools, record["captures"], d, 1, checks="bounds" if check == "bounds" else "races,divergence")
        return name in results and results[name]["verdict"] == "verified"


def run_batch(seed, size, out, tools, args, known):
    started = time.monotonic()
    folder = os.path.join(out, f"batch-{seed}")
    shutil.rmtree(folder, ignore_errors=True)
    launches = kernel_generator.generate(seed, size)
    manifest_path = launch_manifest.write(folder, seed, launches)
    manifest = launch_manifest.read(manifest_path)
    capture = capture_on_pocl(tools, manifest_path, manifest, folder)
    captured = time.monotonic()
    # Oclgrind is single-threaded: it runs beside the verifier.
    with tempfile.TemporaryDirectory() as scratch:
        grind_result = {}

        def grind():
            grind_result.update(run_host(lambda first, i: [tools.host, manifest_path, "--first", str(first),
                                                           "--source-key", "oracle_source", *ORACLE_OPTIONS],
                                         oclgrind_env(), manifest["launches"]))
            grind_result["seconds"] = time.monotonic() - captured
        thread = threading.Thread(target=grind)
        thread.start()
        results = verify(tools, capture["captures"], folder, args.jobs, args.verify_timeout)
        bounds_results = verify(tools, capture["captures"], folder, args.jobs, args.verify_timeout, checks="bounds")
        verified = time.monotonic()
        thread.join()
    with open(os.path.join(folder, "oclgrind.txt"), "w", encoding="utf-8") as f:
        f.write(grind_result["stderr"])
    seen = oclgrind_messages(grind_result["stderr"])
    invalid = memcheck_messages(grind_result["stderr"])
    rows = []
    for launch in manifest["launches"]:
        name = launch["kernel"]
        result = results.get(name)
        verdict = result["verdict"] if result else None
        if name in grind_result["ran"]:
            oracle = sorted(seen.get(name, ())) or ["clean"]
        else:
            oracle = ["not-run"]
        ran = name in grind_result["ran"]
        outcome = classify(launch, verdict, set(seen.get(name, ())) if ran else set(), known)
        bounds_result = bounds_results.get(name)
        bounds_outcome = classify_bounds(launch, bounds_result, set(seen.get(name, ())), name in invalid,
                                         known) if ran else "counted"
        check = "races"
        rank = ("counted", "known-false-alarm", "expectation-broken", "false-alarm", "unsound")
        if rank.index(bounds_outcome) > rank.index(outcome):
            outcome, check, result = bounds_outcome, "bounds", bounds_result
        row = {"kernel": name, "strategy": launch["strategy"], "expectation": launch["expectation"],
               "verdict": verdict, "oracle": oracle, "outcome": outcome,
               "on_pocl": "ran" if name in capture["ran"] else "not built" if name in capture["not_built"]
               else capture["lost"].get(name, "not run"),
               "bounds": {"verdict": bounds_result["verdict"] if bounds_result else None,
                          "memcheck": "invalid-access" if name in invalid else "clean" if ran else "not-run"},
               "check": check}
        if launch.get("origin"):
            row["origin"] = launch["origin"]
            row["mutations"] = launch["mutations"]
        if result and result.get("reason"):
            row["reason"] = result["reason"]
        if outcome in ("unsound", "false-alarm", "expectation-broken"):
            kind = {"unsound": "unsound", "false-alarm": "false-alarms", "expectation-broken": "expectation-broken"}[outcome]
            case = os.path.join(out, kind, name)
            text = "\n".join(b for b in re.split(r"\n(?=\S)", grind_result["stderr"]) if f"Kernel: {name}" in b
                             or re.search(rf"Kernel:\s+{name}\b", b))
            row["reproducer"] = case
            row["findings"] = finding_lines(result)
            write_case(case, launch, result, text, tools, args.reduce_seconds, outcome == "unsound" and not args.no_reduce,
                       check)
        rows.append(row)
    return {"seed": seed, "launches": len(manifest["launches"]), "rows": rows,
            "not_built": capture["not_built"], "lost_on_pocl": capture["lost"],
            "captured_from_manifest": capture["synthesised"],
            "lost_on_oclgrind": grind_result["lost"], "seconds": round(time.monotonic() - started, 1),
            "stage_seconds": {"capture_on_pocl": round(captured - started, 1), "verify": round(verified - captured, 1),
                              "oclgrind": round(grind_result["seconds"], 1)}}


def count_bounds(rows, key):
    out = {}
    for r in rows:
        v = str(r.get("bounds", {}).get(key))
        out[v] = out.get(v, 0) + 1
    return out


def summarise(batches, seconds):
    rows = [r for b in batches for r in b["rows"]]
    count = lambda key: {v: sum(1 for r in rows if r[key] == v) for v in sorted({str(r[key]) for r in rows}, key=str)}
    verdicts = {}
    for r in rows:
        verdicts[str(r["verdict"])] = verdicts.get(str(r["verdict"]), 0) + 1
    by_expectation = {}
    for r in rows:
        e = by_expectation.setdefault(r["expectation"], {})
        e[str(r["verdict"])] = e.get(str(r["verdict"]), 0) + 1
    oracle = {}
    for r in rows:
        key = "+".join(r["oracle"])
        oracle[key] = oracle.get(key, 0) + 1
    agree = sum(1 for r in rows if r["verdict"] == "defects" and set(r["oracle"]) & {"race", "divergence"})
    verified_clean = sum(1 for r in rows if r["verdict"] == "verified" and r["oracle"] == ["clean"])
    pick = lambda outcome: [{k: r[k] for k in ("kernel", "strategy", "origin", "mutations", "verdict", "oracle",
                                                "findings", "reproducer", "reason", "check", "bounds") if k in r}
                            for r in rows if r["outcome"] == outcome]
    return {"seeds": [b["seed"] for b in batches], "launches": len(rows),
            "verdicts": verdicts, "verdicts_by_expectation": by_expectation, "oracle": oracle,
            "defects_confirmed_by_oclgrind": agree, "verified_and_oclgrind_clean": verified_clean,
            "timed_out": sum(1 for r in rows if "timed out" in r.get("reason", "")),
            "bounds": {"verdicts": count_bounds(rows, "verdict"), "memcheck": count_bounds(rows, "memcheck"),
                       "verified_and_memcheck_clean": sum(1 for r in rows if r.get("bounds", {}).get("verdict") ==
                                                          "verified" and r["bounds"]["memcheck"] == "clean"),
                       "defects_memcheck_confirms": sum(1 for r in rows if r.get("bounds", {}).get("verdict") ==
                                                        "defects" and r["bounds"]["memcheck"] == "invalid-access")},
            "unsound": pick("unsound"), "false_alarms": pick("false-alarm"),
            "known_false_alarms": pick("known-false-alarm"), "expectation_broken": pick("expectation-broken"),
            "not_built": {k: v.splitlines()[0] for b in batches for k, v in b["not_built"].items()},
            "lost_on_pocl": {k: v for b in batches for k, v in b["lost_on_pocl"].items()},
            "lost_on_oclgrind": {k: v for b in batches for k, v in b["lost_on_oclgrind"].items()},
            "strategies": {s: sum(1 for r in rows if r["strategy"] == s) for s in ("grammar", "mutation")},
            "seconds": round(seconds, 1),
            "seconds_per_launch": round(seconds / len(rows), 3) if rows else None}


def check(summary, batches, size):
    """--check: the failures of a fixed-seed run (an empty list when it passes)."""
    failures = []
    for b in batches:
        if b["launches"] != size:
            failures.append(f"batch {b['seed']}: {b['launches']} launches generated, {size} asked")
        for r in b["rows"]:
            if r["strategy"] == "grammar" and r["on_pocl"] == "not built":
                failures.append(f"{r['kernel']}: a grammar kernel that PoCL does not build: {b['not_built'][r['kernel']]}")
            if r["on_pocl"] not in ("not built", "not run") and r["verdict"] is None:
                failures.append(f"{r['kernel']}: launched on PoCL ({r['on_pocl']}) but no verdict")
    for u in summary["unsound"]:
        what = "an invalid access (MemCheck)" if u.get("check") == "bounds" else "+".join(u["oracle"])
        failures.append(f"{u['kernel']}: UNSOUND: verified ({u.get('check', 'races')}), Oclgrind reports {what} "
                        f"({u['reproducer']})")
    for f in summary["false_alarms"]:
        failures.append(f"{f['kernel']}: false alarm: {'; '.join(f['findings'])} ({f['reproducer']})")
    for f in summary["expectation_broken"]:
        failures.append(f"{f['kernel']}: race-free by construction, yet Oclgrind reports {'+'.join(f['oracle'])} ({f['reproducer']})")
    if summary["verdicts"].get("verified", 0) == 0 or summary["verdicts"].get("defects", 0) == 0:
        failures.append(f"verdicts {summary['verdicts']}: a batch needs both verified and defects launches")
    return failures


def print_summary(s):
    print(f"soundness fuzzer: {s['launches']} launches (seeds {s['seeds'][0]}..{s['seeds'][-1]}; "
          f"{s['strategies']['grammar']} grammar, {s['strategies']['mutation']} corpus mutations) in {s['seconds']} s "
          f"({s['seconds_per_launch']} s a launch)")
    print(f"  verdicts: {json.dumps(s['verdicts'], sort_keys=True)}")
    print(f"  by expectation: {json.dumps(s['verdicts_by_expectation'], sort_keys=True)}")
    print(f"  Oclgrind: {json.dumps(s['oracle'], sort_keys=True)}; defects Oclgrind confirms: "
          f"{s['defects_confirmed_by_oclgrind']}; verified and Oclgrind clean: {s['verified_and_oclgrind_clean']}")
    b = s["bounds"]
    print(f"  memory safety (--checks=bounds): {json.dumps(b['verdicts'], sort_keys=True)}; MemCheck: "
          f"{json.dumps(b['memcheck'], sort_keys=True)}; defects MemCheck confirms: {b['defects_memcheck_confirms']}; "
          f"verified and MemCheck clean: {b['verified_and_memcheck_clean']}")
    print(f"  not built: {len(s['not_built'])}, lost on PoCL: {len(s['lost_on_pocl'])}, "
          f"lost on Oclgrind: {len(s['lost_on_oclgrind'])}, verification timed out: {s['timed_out']}")
    for key, label in (("unsound", "UNSOUND"), ("false_alarms", "FALSE ALARM"),
                       ("expectation_broken", "EXPECTATION BROKEN"), ("known_false_alarms", "known false alarm")):
        for u in s[key]:
            print(f"  {label}: {u['kernel']} ({u.get('origin', u['strategy'])}"
                  f"{' ' + '+'.join(u['mutations']) if u.get('mutations') else ''}): verdict {u['verdict']}, "
                  f"Oclgrind {'+'.join(u['oracle'])}, check {u.get('check', 'races')} -> {u.get('reproducer', '')}")


class Tools:
    def __init__(self, args):
        build = os.environ.get("CLCAPTURE_BUILD_DIR", os.path.join(ROOT, "build"))
        self.clcapture = os.path.abspath(args.clcapture or os.path.join(build, "bin", "clcapture"))
        self.verify = os.path.abspath(args.verify or os.path.join(build, "bin", "clcapture-verify"))
        self.host = os.path.abspath(args.host or os.path.join(build, "tests", "fuzz", "soundness", "fuzz_host"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batches", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--batch-size", type=int, default=50)
    parser.add_argument("--out", default="soundness-fuzz")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--no-reduce", action="store_true")
    parser.add_argument("--reduce-seconds", type=int, default=900)
    parser.add_argument("--verify-timeout", type=int, default=VERIFY_TIMEOUT,
                        help="clcapture-verify --timeout per launch; a launch that reaches it cannot be verified, "
                             "so a lower one trades a few verdicts for launches an hour (docs/soundness-fuzzer.md)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--clcapture")
    parser.add_argument("--verify")
    parser.add_argument("--host")
    parser.add_argument("--interesting", nargs=2, metavar=("LAUNCH_JSON", "KERNEL"))
    parser.add_argument("--interesting-check", choices=("races", "bounds"), default="races")
    args = parser.parse_args()
    tools = Tools(args)
    if args.interesting:
        return 0 if interesting(args.interesting[0], args.interesting[1], tools, args.interesting_check) else 1
    for program in (tools.clcapture, tools.verify, tools.host):
        if not os.access(program, os.X_OK):
            raise SystemExit(f"fuzz_soundness: {program} is missing (build it: cmake --build build)")
    with open(KNOWN_FALSE_ALARMS, encoding="utf-8") as f:
        known = json.load(f)["known"]
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()
    batches = []
    seed = args.seed
    while True:
        if args.batches is not None and len(batches) >= args.batches:
            break
        if args.batches is None and time.monotonic() - started >= (args.seconds or 600):
            break
        batch = run_batch(seed, args.batch_size, os.path.abspath(args.out), tools, args, known)
        batches.append(batch)
        print(f"batch {seed}: {batch['launches']} launches in {batch['seconds']} s; "
              f"{sum(1 for r in batch['rows'] if r['outcome'] == 'unsound')} unsound, "
              f"{sum(1 for r in batch['rows'] if r['outcome'] == 'false-alarm')} false alarms "
              f"({', '.join(f'{k} {v} s' for k, v in batch['stage_seconds'].items())})", flush=True)
        seed += 1
        # After every batch, so that a run stopped from outside (kill) keeps what it finished.
        summary = summarise(batches, time.monotonic() - started)
        with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
            json.dump({"summary": summary, "batches": batches}, f, indent=1)
    summary = summarise(batches, time.monotonic() - started)
    print_summary(summary)
    if args.check:
        failures = check(summary, batches, args.batch_size)
        for failure in failures:
            print("FAIL: " + failure)
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
