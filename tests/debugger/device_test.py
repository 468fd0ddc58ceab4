#!/usr/bin/python3
"""clcapture-debug's device engine on PoCL (docs/device-debugging.md): recordings made through
clcapture-instrument and clcapture-replay, stepped with the session's commands, saved and reopened, and --diff
against Oclgrind's interpreter on the seeded suite (tests/debugger/diff/). Every value printed is checked
against one computed here from the captured bytes.

usage: device_test.py SCENARIO --debug BIN --replay BIN --launcher BIN --samples DIR

SCENARIO
  seeded      every kernel of tests/debugger/diff/: its header's third line says where --diff must find the
              first divergence (`//diff: line=L item=I variable=V`) or that there is none (`//diff: none`); a
              fourth line `//debug: OPTIONS` adds clcapture-debug options (--repeat 2 compares two schedules
              of the interpreter, --device-build-options a macro on the device only); fast_math_cancel
              with --ulps 1 and with --ignore big parts at the next statement instead
  session     the reduction recorded on PoCL (--engine=device, work-group 1): step, next, print of l, s and
              scratch[l] (the partial sums computed here from the input), a conditional breakpoint, watch,
              reverse-step, reverse-continue, print-all, workitem, backtrace, info; the launch's outputs as
              without instrumentation
  saved       --save-trace then --recording: the saved recording opens without the capture and steps to the same
              values; packed into a bug report (clcapture pack --recording) it opens from the archive and
              --diff --recording compares it with the interpreter there (no device); pack refuses a file that
              is no recording; set var is refused on a saved recording, and on the device re-records with the
              value injected (the printed value, and the later sums, change)
  finding     reduce --racy with --finding 1: only the witness's two work-items record, a breakpoint at each
              access's line for its work-item, continue stops the reader where it reads (the value computed here)
  short       a trace buffer too small for the group: clcapture-replay --instrumented and the session both say
              how many statements did not fit, never a silently short trace
  dap         the Debug Adapter Protocol over the device engine (dap_test.py's client): a conditional
              breakpoint verified and hit in work-item 1, threads, stackTrace, the Private scope's l, s and
              scratch[l] (computed here), evaluate, stepBack, next, disconnect
  bad-input   a missing or damaged recording, --record-items that does not compile, --finding with the device
              engine, set var of a name never recorded or with a value the device cannot compile: one clear
              line and a non-zero exit
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from debug_testing import POCL, Failure, capture_reduce, captured_input, check, run

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "kernels"))
import run_kernel  # noqa: E402  (a capture folder from a kernel's header)

DIFF_SUITE = os.path.join(HERE, "diff")
POCL_LIBRARY = "/usr/lib/x86_64-linux-gnu/libpocl.so.2"


def session(args, folder, commands, want=0, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
        f.write("\n".join(commands) + "\n")
        script = f.name
    try:
        cmd = [args.debug] + ([folder] if folder else []) + ["--batch", "-x", script, *extra]
        return run(cmd, want=want).stdout
    finally:
        os.unlink(script)


def printed(out, expression, occurrence=0):
    """The value of the `occurrence`-th `print EXPR` in a session's output."""
    lines = out.splitlines()
    seen = 0
    for i, line in enumerate(lines):
        if line == "(clcapture-debug) print " + expression and i + 1 < len(lines):
            if seen == occurrence:
                m = re.match(r"\$\d+ = (.*)$", lines[i + 1])
                check(m, f"print {expression} printed {lines[i + 1]!r}")
                return m.group(1)
            seen += 1
    raise Failure(f"no output for print {expression} (#{occurrence})")


def kernel_capture(path, folder):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    _, options, _ = run_kernel.parse_header(text)
    entry, params, inst, launch = run_kernel.launch_of(text, options)
    run_kernel.build_capture(folder, os.path.basename(path), text, entry, params, inst, launch)
    lines = text.splitlines()
    expected = lines[2] if len(lines) > 2 and lines[2].startswith("//diff:") else None
    debug_options = lines[3][len("//debug:"):].split() if len(lines) > 3 and lines[3].startswith("//debug:") else []
    return expected, debug_options


def seeded(args, tmp):
    kernels = sorted(f for f in os.listdir(DIFF_SUITE) if f.endswith(".cl"))
    check(len(kernels) >= 8, f"the seeded suite holds {len(kernels)} kernels")
    for name in kernels:
        folder = os.path.join(tmp, name[:-3])
        expected, options = kernel_capture(os.path.join(DIFF_SUITE, name), folder)
        check(expected, f"{name}: no //diff: line")
        print(f"--- {name}: {expected} {' '.join(options)}")
        if expected == "//diff: none":
            out = run([args.debug, folder, "--diff", *options], want=0).stdout
            check("first divergence" not in out, f"{name}: a divergence was reported")
            comparisons = re.findall(r"^(device|device run \d+|interpreter, reversed schedule): no divergence",
                                     out, re.M)
            runs = int(options[options.index("--repeat") + 1]) if "--repeat" in options else 1
            want = runs + (1 if runs > 1 else 0)
            check(len(comparisons) == want, f"{name}: {len(comparisons)} comparisons said none, expected {want}")
            continue
        m = re.match(r"//diff: line=(\d+) item=(\d+) variable=(\S+)", expected)
        line, item, variable = m.group(1), m.group(2), m.group(3)
        out = run([args.debug, folder, "--diff", *options], want=6).stdout
        # The comparison that must part: the reversed schedule for a race (--repeat), else the device.
        who = "interpreter, reversed schedule" if "--repeat" in options else "device"
        found = re.search(r"^" + re.escape(who) + r": .*?first divergence: work-item \((\d+)\) .*?, "
                          r"(\S+):(\d+) `[^`]*`.*\n  variable (\S+) ", out, re.M)
        check(found, f"{name}: no first divergence reported for {who}")
        check(found.group(1) == item, f"{name}: work-item {found.group(1)}, expected {item}")
        check(found.group(3) == line, f"{name}: line {found.group(3)}, expected {line}")
        check(found.group(4) == variable, f"{name}: variable {found.group(4)}, expected {variable}")
        if name.startswith("uninitialised"):
            check("uninitialised" in out, f"{name}: the report does not say the read was of unwritten memory")
        if name == "fast_math_cancel.cl":
            # big is 1 ULP off (16777216 against 16777218): within --ulps 1, or ignored, the next statement
            # (back = big - 2^24) is where the two part.
            for extra in (["--ulps", "1"], ["--ignore", "big"]):
                again = run([args.debug, folder, "--diff", *extra], want=6).stdout
                check(re.search(r"fast_math_cancel.cl:11 `float back = big - 16777216.0f;`.*\n  variable back ",
                                again), f"{name} {' '.join(extra)}: the divergence is not at back (line 11)")


def partial_sums(values, base, local):
    """The reduction's scratch after the iteration with stride s, per s (sums of the group's inputs)."""
    scratch = values[base:base + local]
    after = {}
    s = local // 2
    while s > 0:
        scratch = [scratch[i] + scratch[i + s] if i < s else scratch[i] for i in range(local)]
        after[s] = list(scratch)
        s //= 2
    return after


def session_scenario(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture_reduce(args.launcher, args.samples, folder, ("--data-after",))
    values = captured_input(folder)
    local = 8
    after = partial_sums(values, local, local)  # group 1: inputs 8..15
    out = session(args, folder, [
        "info recording",
        "step", "step", "print l",
        "break 7 if l == 1 && s == 2",
        "continue", "print s", "print scratch[l]",
        "reverse-step", "print s",
        "reverse-continue",
        "continue",
        "workitem 9", "print l",
        "print-all l",
        "backtrace",
        "watch scratch[l]",
        "continue", "print s",
        "info workitems",
    ], extra=["--engine=device", "--record-items", "group 1"])
    check("outputs: as the plain launch's" in out, "the instrumented run's outputs were not checked")
    check(re.search(r"8 work-items recorded", out), "not 8 work-items recorded for group 1")
    check(re.search(r"work-item \(8\) after \S+:1 \(reduce, recorded statement 0\)\n.*\n  in = \(", out),
          "the first step does not stop at the kernel's entry with its arguments")
    check(printed(out, "l") == "0", "work-item 8's first statement: l is not 0")
    check("Breakpoint 1, work-item (9)" in out, "the conditional breakpoint did not stop work-item 9 (l = 1)")
    check(printed(out, "s") == "2", "the breakpoint stopped with s != 2")
    check(printed(out, "scratch[l]") == str(after[2][1]),
          f"scratch[1] after the s = 2 step: {printed(out, 'scratch[l]')}, expected {after[2][1]}")
    check(printed(out, "s", 1) in ("2", "4"), "reverse-step did not keep a recorded s")
    check(printed(out, "l", 1) == "1", "workitem 9: l is not 1")
    check(re.search(r"work-item \(15\): 7", out), "print-all l did not give work-item 15 its l = 7")
    check(re.search(r"#0  reduce \(\) at ", out), "backtrace")
    check("Watchpoint 2: scratch[l]" in out, "watch scratch[l] was refused")
    # The watch stops the next write that changes some work-item's scratch[l]: work-item 8 adding scratch[1]
    # at s = 1; the writer becomes the focus.
    check(f"Old value = {after[2][0]}\nNew value = {after[1][0]}\n" in out,
          f"the watchpoint did not stop at scratch[0] going from {after[2][0]} to {after[1][0]}")
    check(re.search(r"\* work-item \(8\): \d+ statements recorded", out), "info workitems does not mark the focus")


def saved(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture_reduce(args.launcher, args.samples, folder)
    values = captured_input(folder)
    after = partial_sums(values, 0, 8)
    trace = os.path.join(tmp, "reduce.trace")
    steps = ["break 7 if l == 0 && s == 4", "continue", "print scratch[l]"]
    live = session(args, folder, steps, extra=["--engine=device", "--save-trace", trace])
    check(os.path.exists(trace), "--save-trace wrote nothing")
    check(printed(live, "scratch[l]") == str(after[4][0]), "scratch[0] after s = 4 on the device")
    # The recording travels in the bug report: clcapture pack --recording, opened from the archive, and
    # compared there with the interpreter (no device).
    archive = os.path.join(tmp, "report.tar.gz")
    run([args.launcher, "pack", folder, "-o", archive, "--recording", trace], want=0)
    packed = session(args, archive, steps, extra=["--recording", "recordings/reduce.trace"])
    check(printed(packed, "scratch[l]") == str(after[4][0]), "the packed recording gives another value")
    compared = run([args.debug, archive, "--diff", "--recording", "recordings/reduce.trace"], want=0).stdout
    check("device: no divergence" in compared, "the packed recording differs from the interpreter")
    run([args.launcher, "pack", folder, "-o", archive, "--recording", os.path.join(folder, "captures.json")],
        want=1)
    moved = os.path.join(tmp, "elsewhere.trace")
    shutil.move(trace, moved)
    shutil.rmtree(folder)  # a saved recording needs no capture
    reopened = session(args, None, steps + ["set var scratch[l] = 1000"], want=1, extra=["--recording", moved])
    check(printed(reopened, "scratch[l]") == str(after[4][0]), "the saved recording gives another value")
    check("a saved recording cannot be run again" in reopened, "set var on a saved recording was not refused")
    # set var on the device: recorded again with the value injected at that point.
    capture_reduce(args.launcher, args.samples, folder)
    changed = session(args, folder, steps + ["set var scratch[l] = 1000", "print scratch[l]",
                                             "break 7 if l == 0 && s == 2", "continue", "print scratch[l]"],
                      extra=["--engine=device"])
    check(printed(changed, "scratch[l]", 1) == "1000", "set var: the new recording does not show 1000")
    want = 1000 + after[4][2]
    check(printed(changed, "scratch[l]", 2) == str(want),
          f"after the injected 1000, scratch[0] at s = 2 is {printed(changed, 'scratch[l]', 2)}, expected {want}")


def finding(args, tmp):
    folder = os.path.join(tmp, "racy")
    capture_reduce(args.launcher, args.samples, folder, (), ("--racy", "--groups", "2", "--local", "8"))
    values = captured_input(folder)
    out = session(args, folder, ["continue", "print scratch[l]", "print s", "info workitems"],
                  extra=["--engine=device", "--finding", "1"])
    reader = re.search(r"read by work-item \((\d+)\) at line 7: breakpoint 1", out)
    writer = re.search(r"write by work-item \((\d+)\) at line 7: breakpoint 2", out)
    check(reader and writer, "the witness's accesses and their breakpoints were not listed")
    check(re.search(r"2 work-items recorded \(\(get_global_id\(0\) == \d+\) \|\| \(get_global_id\(0\) == \d+\)\)",
                    out), "not exactly the witness's two work-items recorded")
    g = int(reader.group(1))
    check(f"Breakpoint 1, work-item ({g})" in out, "continue did not stop the reader at its access")
    # The reader's first pass of line 7 (s = 4) adds its neighbour four places on.
    check(printed(out, "s") == "4" and printed(out, "scratch[l]") == str(values[g] + values[g + 4]),
          f"at the reader's access: s = {printed(out, 's')}, scratch[l] = {printed(out, 'scratch[l]')}, expected "
          f"4 and {values[g] + values[g + 4]}")


def short(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture_reduce(args.launcher, args.samples, folder)
    out = session(args, folder, ["info recording"], extra=["--engine=device", "--trace-bytes", "256"])
    check(re.search(r"the trace is SHORT: \d+ statements? did not fit", out), "a full trace was not reported")
    check("raise --trace-bytes" in out, "the remedy was not named")


def bad_input(args, tmp):
    r = run([args.debug, "--recording", os.path.join(tmp, "none.trace")], want=10)
    check("cannot read the recording" in r.stderr, "a missing recording")
    damaged = os.path.join(tmp, "damaged.trace")
    with open(damaged, "w") as f:
        f.write('{"format": "clcapture-recording/1", "layout": {"format": "x"}}')
    r = run([args.debug, "--recording", damaged], want=10)
    check("not a trace layout" in r.stderr, "a damaged recording")
    folder = os.path.join(tmp, "cap")
    capture_reduce(args.launcher, args.samples, folder)
    r = run([args.debug, folder, "--engine=device", "--record-items", "no_such_name == 3", "--batch"],
            want=10, stdin="")
    check("no_such_name" in r.stderr, "a --record-items that does not compile was not named")
    r = run([args.debug, folder, "--diff", "--finding", "1"], want=1, stdin="")
    check("not with --diff" in r.stderr, "--finding with --diff")
    r = run([args.debug, folder, "--engine=device", "--batch"], want=1, stdin="step\nstep\nset var l = 5 +\n"
            "set var nothing = 1\n")
    check("no value of nothing is recorded" in r.stdout, "set var of a name never recorded")


def dap(args, tmp):
    from dap_test import Client
    folder = os.path.join(tmp, "cap")
    capture_reduce(args.launcher, args.samples, folder)
    data = captured_input(folder)
    after = partial_sums(data, 0, 8)
    with open(os.path.join(folder, "captures.json")) as f:
        kernel = os.path.join(folder, json.load(f)[0]["kernel_file"])
    client = Client([args.debug, folder, "--engine=device", "--dap"])
    caps = client.request("initialize", {"adapterID": "clcapture", "linesStartAt1": True})["body"]
    check(caps.get("supportsStepBack"), "capabilities")
    client.event("initialized")
    client.request("launch", {"program": folder})
    bps = client.request("setBreakpoints", {"source": {"path": kernel},
                                            "breakpoints": [{"line": 7, "condition": "l == 1 && s == 2"}]})
    check(bps["body"]["breakpoints"][0]["verified"], "the conditional breakpoint is not verified")
    client.request("configurationDone")
    stop = client.event("stopped")
    check(stop["body"]["reason"] == "breakpoint", f"stopped for {stop['body']['reason']}")
    threads = client.request("threads")["body"]["threads"]
    check(threads == [{"id": 1, "name": "work-item (1)"}], f"threads: {threads}")
    frames = client.request("stackTrace", {"threadId": 1})["body"]["stackFrames"]
    check(frames[0]["name"] == "reduce" and frames[0]["line"] == 7 and
          os.path.samefile(frames[0]["source"]["path"], kernel), f"stackTrace: {frames}")
    scopes = client.request("scopes", {"frameId": 0})["body"]["scopes"]
    refs = {s["name"]: s["variablesReference"] for s in scopes}
    variables = client.request("variables", {"variablesReference": refs["Private"]})["body"]["variables"]
    values = {v["name"]: v["value"] for v in variables}
    check(values.get("l") == "1" and values.get("s") == "2" and values.get("scratch[l]") == str(after[2][1]),
          f"private variables: {values}, expected scratch[l] = {after[2][1]}")
    check(client.request("evaluate", {"expression": "scratch[l] + 1"})["body"]["result"] == str(after[2][1] + 1),
          "evaluate")
    client.request("stepBack", {"threadId": 1})
    check(client.event("stopped")["body"]["reason"] == "step", "stepBack did not stop")
    client.request("next", {"threadId": 1})
    client.event("stopped")
    check(client.request("evaluate", {"expression": "scratch[l]"})["body"]["result"] == str(after[2][1]),
          "next after stepBack is not back at the breakpoint's statement")
    client.request("disconnect")
    client.proc.wait(timeout=60)
    check(client.proc.returncode == 0, f"the server exited {client.proc.returncode}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("scenario")
    p.add_argument("--debug", required=True)
    p.add_argument("--replay", required=True)
    p.add_argument("--launcher", required=True)
    p.add_argument("--samples", required=True)
    args = p.parse_args()
    os.environ["OCL_ICD_VENDORS"] = POCL
    scenarios = {"seeded": seeded, "session": session_scenario, "saved": saved, "finding": finding, "short": short,
                 "dap": dap,
                 "bad-input": bad_input}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            scenarios[args.scenario](args, tmp)
        except Failure as e:
            print(f"FAIL: {args.scenario}: {e}")
            sys.exit(1)
    print(f"ok: {args.scenario}")


if __name__ == "__main__":
    main()
