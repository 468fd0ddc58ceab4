#!/usr/bin/python3
"""The debugger's command parser fuzzed: random command lines (fragments of every command, expressions with
random operators, brackets, numbers and names, bytes outside ASCII) fed to clcapture-debug --batch on a real
capture. Every line must get an answer and the session must end by itself: exit status 0 or 1 (a command
failed), never a signal, a hang or an internal error; every `print` line gets `$N = ` or `error:`.

usage: command_fuzz.py --debug BIN --launcher BIN --samples DIR [--seed N] [--sessions N] [--lines N]
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

from debug_testing import Failure, capture_reduce

WORDS = ["break", "tbreak", "delete", "info", "run", "continue", "step", "next", "finish", "until", "workitem",
         "workgroup", "print", "print-all", "set var", "backtrace", "list", "x", "compare", "watch", "barrier",
         "reverse-step", "reverse-next", "reverse-continue", "help", "b", "p", "n", "s", "c", "bt", "wi", "i",
         "info locals", "info args", "info workitems", "info breakpoints", "info launch", "p/x", "x/4", "x/0",
         "print/q", "x/999999999"]
NAMES = ["l", "s", "scratch", "in", "partial", "nothing", "get_global_id", "get_local_id", "get_group_id",
         "get_local_size", "x", "_", "reduce"]
OPERATORS = ["+", "-", "*", "/", "%", "<<", ">>", "<", "<=", "==", "!=", "&&", "||", "&", "|", "^", "->", ".", "=",
             "!", "~", "[", "]", "(", ")", ",", "?", ":", "@", "$", "#", "'", '"', "\\", "/x", "if"]


def fragment(rng):
    parts = []
    for _ in range(rng.randint(0, 8)):
        kind = rng.random()
        if kind < 0.3:
            parts.append(rng.choice(NAMES))
        elif kind < 0.6:
            parts.append(rng.choice(OPERATORS))
        elif kind < 0.8:
            parts.append(str(rng.choice([0, 1, 2, 3, 7, 9, 14, 15, 16, 31, 255, 2**31, 2**63, 2**64 + 5, -1])))
        elif kind < 0.9:
            parts.append(rng.choice(["0x", "0xffffffffffffffffff", "1e309", ".5f", "1.", "08", "3u", "4294967296L"]))
        else:
            parts.append("".join(chr(rng.randint(1, 0x2ff)) for _ in range(rng.randint(1, 4))))
    return (" " if rng.random() < 0.7 else "").join(parts)


def command(rng):
    if rng.random() < 0.15:
        return fragment(rng)
    return rng.choice(WORDS) + " " + fragment(rng)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--debug", required=True)
    p.add_argument("--launcher", required=True)
    p.add_argument("--samples", required=True)
    p.add_argument("--seed", type=int, default=27)
    p.add_argument("--sessions", type=int, default=40)
    p.add_argument("--lines", type=int, default=60)
    args = p.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "cap")
        try:
            capture_reduce(args.launcher, args.samples, folder)
        except Failure as e:
            print("FAIL: the capture failed: " + str(e))
            return 1
        for session in range(args.sessions):
            # A breakpoint and a start first, so that most commands meet a paused work-item.
            lines = ["break 7", "run"] + [command(rng) for _ in range(args.lines)]
            script = "\n".join(lines) + "\n"
            try:
                d = subprocess.run([args.debug, folder, "--batch"], input=script.encode("utf-8", "surrogatepass"),
                                   capture_output=True, timeout=120)
            except subprocess.TimeoutExpired:
                print(f"FAIL session {session}: no end in 120 s; its commands:\n{script}")
                failures += 1
                continue
            out = d.stdout.decode("utf-8", "replace")
            err = d.stderr.decode("utf-8", "replace")
            problem = None
            if d.returncode not in (0, 1):
                problem = f"exit status {d.returncode}"
            elif "internal error" in out or "terminate called" in err or "Assertion" in err:
                problem = "an internal error"
            echoed = out.count("(clcapture-debug) ")
            if not problem and echoed < len(lines) and "[launch 0 finished" not in out and d.returncode == 0:
                problem = f"{echoed} of {len(lines)} commands answered"
            for m in re.finditer(r"^\(clcapture-debug\) (?:print|p) [^\n]*\n(?!\$\d+ = |error: )", out, re.M):
                problem = problem or f"a print without a value or an error: {m.group(0)!r}"
            if problem:
                failures += 1
                print(f"FAIL session {session}: {problem}; stderr: {err[-500:]}\nits commands:\n{script}")
    print(f"command fuzz: {args.sessions} sessions of {args.lines} random commands (seed {args.seed}): "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
