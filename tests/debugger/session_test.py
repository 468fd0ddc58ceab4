#!/usr/bin/python3
"""clcapture-debug on captures the real layer made on PoCL: scripted sessions (--batch -x FILE) whose printed
values are checked against values computed here from the captured input bytes, and bad input.

usage: session_test.py SCENARIO --debug BIN --launcher BIN --samples DIR --corpus DIR

SCENARIO
  breakpoint   a conditional breakpoint inside the reduction loop (`break 7 if l == 1 && s == 2`) stops
               work-item 1 with s = 2: scratch[l] and scratch[l + s] are the sums of the first iteration
               (in[1] + in[5], in[3] + in[7]); `next` runs the line and scratch[1] holds their sum
  set-var      at the store of group 1's result, `set var scratch[0] = 1234` changes what the launch writes:
               partial[1] is 1234 after `run` (x/2 partial), partial[0] the true sum, and `compare` says the
               outputs differ from the capture's; without the change they are equal, and equal to what
               clcapture-replay reads back on PoCL (`compare replay`)
  focus        `step` starts at work-item 0's first line; `next` to the barrier, where it waits; `workitem 5`
               switches inside the group, `workitem 12` starts group 1; get_group_id, get_local_id, l and the
               work-item table say so; finished groups cannot be focused
  watch        `watch scratch[3]` from work-item 0 stops work-item 3 writing in[3] there (local memory, another
               work-item); `barrier` brings the group to its first barrier, where `print-all scratch[l]` is
               each work-item's input; `print-all l` is each local id
  helper       tests/kernels/control/helper.cl (kernel → put → twice): `break twice`, `backtrace` names the
               three frames, `finish` returns to put with v = the work-item's id, `continue` stops work-item 1
               with x = 1; after the run a[i] = 2·i
  finished     `break 14 if l == 7`: work-items 0–6 of the group have finished; `workitem 3` focuses a
               finished one and `print l` still reads its 3; at group 1's store, `workitem 2` (a finished
               group) re-runs the launch to work-item 2's last line, where l is 2 and work-items 0–1 have
               finished, 3–7 not
  reverse      at work-item 1's line 7 (s = 4) `next` adds scratch[3]; `reverse-step` goes back over it and
               scratch[1] is in[1] + in[5] again; `set var` there, `next` adds to the new value; `continue` to
               s = 2, `reverse-continue` back to s = 4 (the change made there is made again); the end of
               history is line 2
  finding      reduce --racy: the verify report's `debug:` line is run as it is written; --finding 1 stops at
               the witness's read and write, by the report's two work-items, on the report's element; the
               values printed there are the input's (the read: in[base + 31] before the write) and the sum
               the write stores (in[base + 31] + in[base + 63])
  arrays       a kernel written here: a 3 × 4 private array and a struct holding an array; print m, m[1],
               m[2][3], p, p.b[1], /x of a row, an index past a row's end refused; `set var m[2][3] = 100`
               changes out[1] to 100 + p.a
  bad-input    a missing capture, a damaged archive, --launch past the capture, a launch without its
               buffer bytes: one line and exit 10; a command or expression naming nothing, a malformed expression: `error:` and exit 1;
               the program links LLVM 14 (Oclgrind's) and never LLVM 16 or CVC5, clcapture-verify never Oclgrind
"""
import argparse
import json
import os
import re
import sys
import tempfile

from debug_testing import Failure, capture_reduce, captured_input, check, run
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels"))
import run_kernel  # noqa: E402  (a capture folder from a corpus kernel's header)


def capture(args, folder, options=(), sample_args=("--groups", "2", "--local", "8")):
    capture_reduce(args.launcher, args.samples, folder, ("--data-after", *options), sample_args)


def session(args, folder, commands, want=0, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
        f.write("\n".join(commands) + "\n")
        script = f.name
    try:
        return run([args.debug, folder, "--batch", "-x", script, *extra], want=want).stdout
    finally:
        os.unlink(script)


def printed(out, expression):
    """The value `print EXPR` printed (the line after its command)."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        command = "print" + expression if expression.startswith("/") else "print " + expression
        if line == "(clcapture-debug) " + command and i + 1 < len(lines):
            m = re.match(r"\$\d+ = (.*)$", lines[i + 1])
            check(m, f"print {expression} printed {lines[i + 1]!r}")
            return m.group(1)
    raise Failure(f"no output for print {expression}")


def scenario_breakpoint(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture(args, folder)
    data = captured_input(folder)
    out = session(args, folder, ["break 7 if l == 1 && s == 2", "run", "print l", "print s", "print scratch[l]",
                                 "print scratch[l + s]", "print in[5]", "print/x in[5]", "info locals", "next",
                                 "print scratch[1]", "info breakpoints"])
    check("Breakpoint 1, work-item (1) at " in out, "the breakpoint did not stop work-item 1")
    check(printed(out, "l") == "1" and printed(out, "s") == "2", "the condition l == 1 && s == 2 did not hold")
    first, third = data[1] + data[5], data[3] + data[7]
    check(printed(out, "scratch[l]") == str(first), f"scratch[1] should be in[1] + in[5] = {first}")
    check(printed(out, "scratch[l + s]") == str(third), f"scratch[3] should be in[3] + in[7] = {third}")
    check(printed(out, "in[5]") == str(data[5]), "in[5] is not the captured input")
    check(printed(out, "/x in[5]") == hex(data[5]), "print/x in[5] is not hex")
    check("s = 2\nl = 1" in out, "info locals does not list s and l, innermost first")
    check("9\t    barrier(CLK_LOCAL_MEM_FENCE);" in out, "next did not reach line 9")
    check(printed(out, "scratch[1]") == str(first + third), "line 7 did not add scratch[3] to scratch[1]")
    check(re.search(r"^1\s+keep\s+\S+:7\s+1\s+l == 1 && s == 2$", out, re.M), "info breakpoints: hits/condition")


def scenario_set_var(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture(args, folder)
    data = captured_input(folder)
    sums = [sum(data[0:8]), sum(data[8:16])]
    out = session(args, folder, ["break 13 if get_group_id(0) == 1", "run", "print scratch[0]",
                                 "set var scratch[0] = 1234", "print scratch[0]", "run", "x/2 partial", "compare"])
    check(printed(out, "scratch[0]") == str(sums[1]), f"group 1's sum should be {sums[1]}")
    check("$2 = 1234" in out, "set var did not change scratch[0]")
    check(f"partial[0]:\t{sums[0]}\t1234" in out, "the launch did not write the changed value")
    check("outputs differ from the capture's" in out, "compare did not see the change")
    out = session(args, folder, ["run", "x/2 partial", "compare", "compare replay"])
    check(f"partial[0]:\t{sums[0]}\t{sums[1]}" in out, "the unchanged launch's sums are wrong")
    check("partial: same" in out and "outputs equal the capture's" in out, "compare: outputs should be equal")
    check("outputs equal clcapture-replay's" in out, "compare replay: PoCL's outputs should be equal")


def scenario_focus(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture(args, folder)
    out = session(args, folder, ["step", "print get_global_id(0)", "next", "next", "next", "info workitems",
                                 "workitem 5", "print get_local_id(0)", "next", "next", "print l", "workitem 12",
                                 "print get_group_id(0)", "workitem 99", "run", "workitem 1"], want=1)
    check("2\t  size_t l = get_local_id(0);" in out, "step did not stop at the kernel's first line")
    check(printed(out, "get_global_id(0)") == "0", "the first stop is not work-item 0")
    check("work-item (0) waits at the barrier on line 4" in out, "next did not stop at the barrier")
    check(re.search(r"^\* work-item \(0\)\s+at a barrier", out, re.M), "info workitems: work-item 0 at the barrier")
    check(re.search(r"^  work-item \(7\)\s+ready$", out, re.M), "info workitems: work-item 7 not started")
    check("[switching to work-item (5)]" in out and printed(out, "get_local_id(0)") == "5", "workitem 5")
    check(printed(out, "l") == "5", "work-item 5's l after its first two lines")
    check(printed(out, "get_group_id(0)") == "1", "workitem 12 is in group 1")
    check("error: cannot focus work-item (99): no work-item has that global id" in out, "workitem 99 accepted")
    check("error: the launch has finished" in out, "workitem after the end accepted")


def scenario_watch(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture(args, folder)
    data = captured_input(folder)
    out = session(args, folder, ["step", "watch scratch[3]", "continue", "print l", "delete", "barrier",
                                 "print-all scratch[l]", "print-all l", "info breakpoints", "run"])
    check("Watchpoint 1: scratch[3] (of work-group (0))" in out, "watch did not name the group's local memory")
    check(f"New value = {data[3]}\nwork-item (3) wrote it at " in out, "the watch did not catch work-item 3's write")
    check(printed(out, "l") == "3", "the watch did not focus the writer")
    check("every work-item of work-group (0) waits at a barrier" in out, "barrier did not stop at the barrier")
    for i in range(8):
        check(f"work-item ({i}): {data[i]}" in out, f"print-all scratch[l]: work-item {i} should show in[{i}]")
        check(f"work-item ({i}): {i}\n" in out, f"print-all l: work-item {i}")


def scenario_helper(args, tmp):
    kernel = os.path.join(args.corpus, "control", "helper.cl")
    with open(kernel) as f:
        text = f.read()
    expected, options, _ = run_kernel.parse_header(text)
    entry, params, inst, launch = run_kernel.launch_of(text, options)
    launch["data"]["a"] = "int:" + ",".join(["0"] * 64)
    folder = os.path.join(tmp, "cap")
    run_kernel.build_capture(folder, "helper.cl", text, entry, params, inst, launch)
    out = session(args, folder, ["break twice", "run", "backtrace", "print x", "finish", "print v", "print i",
                                 "continue", "print x", "delete", "run", "x/4 a"])
    check("#0  twice () at helper.cl:3\n#1  put () at helper.cl:4\n#2  helper () at helper.cl:7" in out,
          "backtrace does not name twice, put and helper")
    check(printed(out, "x") == "0", "work-item 0's x in twice")
    check(printed(out, "v") == "0" and printed(out, "i") == "0", "finish did not return to put")
    check("Breakpoint 1, work-item (1) at helper.cl:3" in out, "continue did not stop work-item 1 in twice")
    xs = re.findall(r"\(clcapture-debug\) print x\n\$\d+ = (\d+)", out)
    check(xs == ["0", "1"], f"x in twice: {xs}")
    check("a[0]:\t0\t2\t4\t6" in out, "the launch did not write 2·i")


def scenario_finished(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture(args, folder)
    out = session(args, folder, ["break 14 if l == 7", "run", "info workitems", "workitem 3", "print l",
                                 "print-all l", "run"])
    check("Breakpoint 1, work-item (7) at " in out, "the breakpoint did not stop work-item 7")
    check(re.search(r"^  work-item \(3\)\s+finished$", out, re.M), "info workitems: work-item 3 finished")
    check("[switching to work-item (3)]\nwork-item (3) has finished" in out, "workitem 3 was not focused")
    check(printed(out, "l") == "3", "a finished work-item's l")
    out = session(args, folder, ["break 13 if get_group_id(0) == 1", "run", "workitem 2", "print l",
                                 "info workitems", "continue", "print get_group_id(0)"])
    check("[work-item (2) has finished with its group: the launch re-runs to its last line]" in out,
          "workitem 2 of a finished group")
    check(printed(out, "l") == "2", "work-item 2 at its last line")
    check(re.search(r"^  work-item \(1\)\s+finished$", out, re.M) and
          re.search(r"^\* work-item \(2\)\s+ready\s+\S+:14$", out, re.M) and
          re.search(r"^  work-item \(3\)\s+ready\s+\S+:11$", out, re.M), "the re-run's work-item table")
    check(printed(out, "get_group_id(0)") == "1", "continue after the re-run reaches group 1's store")


def scenario_reverse(args, tmp):
    folder = os.path.join(tmp, "cap")
    capture(args, folder)
    d = captured_input(folder)
    out = session(args, folder, ["break 7 if l == 1", "run", "next", "print scratch[1]", "reverse-step",
                                 "print scratch[1]", "print s", "set var scratch[1] = 100", "next",
                                 "print scratch[1]", "continue", "print s", "reverse-continue", "print s",
                                 "print scratch[1]", "reverse-continue", "delete", "run", "x/2 partial"])
    values = [int(v) for v in re.findall(r"\(clcapture-debug\) print scratch\[1\]\n\$\d+ = (-?\d+)", out)]
    first_pass = d[1] + d[5]  # line 7 at s = 4 adds scratch[5] (in[5]) to scratch[1] (in[1])
    check(values[0] == first_pass, f"scratch[1] after line 7: {values[0]}, expected {first_pass}")
    check(values[1] == d[1], f"reverse-step should show scratch[1] before line 7 ran: {values[1]}, expected {d[1]}")
    check(values[2] == 100 + d[5], f"next after set var: {values[2]}, expected {100 + d[5]}")
    check(values[3] == 100, f"reverse-continue back to the change: {values[3]}")
    ss = re.findall(r"\(clcapture-debug\) print s\n\$\d+ = (\d+)", out)
    check(ss == ["4", "2", "4"], f"s at the stops: {ss}")
    check("No more reverse-execution history: back at work-item (1)'s first line." in out and
          "\n2\t  size_t l = get_local_id(0);" in out, "the end of history")
    check(f"partial[0]:\t{sum(d[0:8])}\t{sum(d[8:16])}" in out,
          "after going back past the change, the run is the captured one")


def scenario_finding(args, tmp):
    folder = os.path.join(tmp, "racy")
    capture_reduce(args.launcher, args.samples, folder, sample_args=("--racy",))
    data = captured_input(folder)
    verify = os.path.join(os.path.dirname(args.debug), "clcapture-verify")
    text = run([verify, folder], want=6).stdout
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("debug: clcapture-debug ")]
    check(len(lines) == 1, f"the report's debug lines: {lines}")
    command = lines[0][len("debug: "):].split()
    check(command[1:] == [os.path.join(folder, "captures.json"), "--launch", "0", "--finding", "1"],
          f"the debug line: {command}")
    report = json.loads(run([verify, "--format=json", folder], want=6).stdout)
    finding = report["results"][0]["findings"][0]
    ids = [a["work_item"]["global_id"][0] for a in finding["accesses"]]
    element = f"{finding['array']}[{finding['index'][0]}]"
    out = session(args, command[1], ["run", "continue", "run"], extra=command[2:])
    for number, (access, gid) in enumerate(zip(finding["accesses"], ids), 1):
        verb = "wrote" if "write" in access["access"] else "read"
        check(f"Finding 1, access {number}: work-item ({gid}) {verb} {finding['array']} bytes "
              f"{finding['bytes'][0]}..{finding['bytes'][1]} at " in out,
              f"no stop at access {number} ({verb} by {gid})")
    values = [int(v) for v in re.findall(re.escape(element) + r" = (-?\d+)\n", out)]
    base = ids[0] - ids[0] % 64  # the work-group's first global id (groups of 64)
    index = finding["index"][0]
    check(values == [data[base + index], data[base + index] + data[base + index + 32]],
          f"{element} at the two accesses: {values}")
    r = run([args.debug, folder, "--finding", "9", "--batch"], want=10, stdin="")
    check("--finding 9: the launch has 1 finding" in r.stderr, "--finding past the report's findings")


ARRAYS_KERNEL = """//pass
//--local_size=4 --global_size=8
typedef struct { int a; float b[2]; } pair_t;
kernel void grid(global int *out) {
  int m[3][4];
  pair_t p = {5, {1.5f, 2.5f}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      m[r][c] = r * 10 + c + (int)get_global_id(0);
  out[get_global_id(0)] = m[2][3] + p.a;
}
"""


def scenario_arrays(args, tmp):
    expected, options, _ = run_kernel.parse_header(ARRAYS_KERNEL)
    entry, params, inst, launch = run_kernel.launch_of(ARRAYS_KERNEL, options)
    launch["data"]["out"] = "int:" + ",".join(["0"] * 8)
    folder = os.path.join(tmp, "cap")
    run_kernel.build_capture(folder, "grid.cl", ARRAYS_KERNEL, entry, params, inst, launch)
    gid = 1
    out = session(args, folder, [f"break 10 if get_global_id(0) == {gid}", "run", "print m", "print m[1]",
                                 "print m[2][3]", "print m[1][4]", "print p", "print p.b[1]", "print/x m[2]",
                                 "set var m[2][3] = 100", "run", "x/8 out"], want=1)
    m = [[r * 10 + c + gid for c in range(4)] for r in range(3)]
    row = lambda values: "{" + ", ".join(str(v) for v in values) + "}"  # noqa: E731
    check(printed(out, "m") == "{" + ", ".join(row(r) for r in m) + "}", "print m")
    check(printed(out, "m[1]") == row(m[1]), "print m[1]")
    check(printed(out, "m[2][3]") == str(m[2][3]), "print m[2][3]")
    check("error: index 4 is outside" in out, "an index past a row's end")
    check(printed(out, "p") == "{a = 5, b = {1.5, 2.5}}" and printed(out, "p.b[1]") == "2.5", "the struct")
    check(printed(out, "/x m[2]") == "{" + ", ".join(hex(v) for v in m[2]) + "}", "print/x of a row")
    others = [2 * 10 + 3 + g + 5 for g in range(8)]
    others[gid] = 100 + 5
    check("out[0]:\t" + "\t".join(str(v) for v in others[:4]) in out, f"set var did not reach out: {others}")


def scenario_bad_input(args, tmp):
    r = run([args.debug, os.path.join(tmp, "none")], want=10)
    check(r.stderr.count("\n") == 1 and "clcapture-debug: error:" in r.stderr, "a missing capture: one line")
    folder = os.path.join(tmp, "cap")
    capture(args, folder)
    r = run([args.debug, folder, "--launch", "3", "--batch"], want=10, stdin="")
    check("--launch 3:" in r.stderr and "holds instantiations 0..0" in r.stderr, "--launch past the capture")
    out = session(args, folder, ["frobnicate", "break 7", "run", "print nothing", "print (l", "print l +",
                                 "print in[l]", "continue"], want=1)
    check('error: undefined command: "frobnicate"' in out, "an unknown command")
    check('error: no symbol "nothing" in the current context' in out, "a name that names nothing")
    check("error: in expression `(l` at column 3: expected ')'" in out, "a malformed expression")
    check(re.search(r"\$\d+ = \d+", out), "a good print after errors")
    damaged = os.path.join(tmp, "bug.tar.gz")
    with open(damaged, "wb") as f:
        f.write(b"\x1f\x8b\x08\x00not really gzip" * 10)
    r = run([args.debug, damaged, "--batch"], want=10, stdin="")
    check(r.stderr.count("\n") == 1 and "clcapture-debug: error:" in r.stderr, "a damaged archive: one line")
    # LLVM 14 (Oclgrind's) and LLVM 16 (the analyzer's) never share a process.
    linked = run(["ldd", args.debug]).stdout
    check("libLLVM-14" in linked and "liboclgrind" in linked and "libLLVM-16" not in linked and
          "libcvc5" not in linked, "clcapture-debug links LLVM 16 or CVC5")
    verify = os.path.join(os.path.dirname(args.debug), "clcapture-verify")
    if os.path.exists(verify):
        check("liboclgrind" not in run(["ldd", verify]).stdout, "clcapture-verify links Oclgrind")
    short = os.path.join(tmp, "short")
    capture(args, short, options=("--data", "16"))
    r = run([args.debug, short, "--batch"], want=10, stdin="")
    check("cannot be debugged" in r.stderr and "in" in r.stderr and "--data" in r.stderr,
          "a launch without bytes: the argument and the option")
    check(r.stderr.count("\n") == 1, "a launch without bytes: one line")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("scenario")
    p.add_argument("--debug", required=True)
    p.add_argument("--launcher", required=True)
    p.add_argument("--samples", required=True)
    p.add_argument("--corpus", required=True)
    args = p.parse_args()
    scenarios = {"breakpoint": scenario_breakpoint, "set-var": scenario_set_var, "focus": scenario_focus,
                 "watch": scenario_watch, "helper": scenario_helper, "finished": scenario_finished,
                 "reverse": scenario_reverse, "finding": scenario_finding, "arrays": scenario_arrays,
                 "bad-input": scenario_bad_input}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            scenarios[args.scenario](args, tmp)
        except Failure as e:
            print("FAIL: " + str(e))
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
