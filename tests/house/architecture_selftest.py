#!/usr/bin/python3
"""architecture.py finds what it is there to find: run on a small made-up tree with one include loop, one
upward include, one file over 800 lines and one function over 150 lines, it must name each of them and fail;
on the same tree without them it must pass."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "architecture.py")


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(root, what):
    p = subprocess.run([sys.executable, CHECK, "--root", root, what], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    failures = []
    with tempfile.TemporaryDirectory() as clean, tempfile.TemporaryDirectory() as broken:
        for root in (clean, broken):
            write(root, "common/src/A.h", "#pragma once\nint a();\n")
            write(root, "common/src/A.cpp", '#include "A.h"\n#include "B.h"\nint a() { return b(); }\n')
            write(root, "common/src/B.h", "#pragma once\nint b();\n")
            write(root, "layer/src/engine/E.h", "#pragma once\n")
            write(root, "layer/src/process/P.cpp", '#include "process/P.h"\n')
            write(root, "layer/src/process/P.h", "#pragma once\n")
        write(clean, "common/src/B.cpp", '#include "B.h"\nint b() { return 1; }\n')
        # The loop: B.cpp includes A.h while A.cpp includes B.h.
        write(broken, "common/src/B.cpp", '#include "B.h"\n#include "A.h"\nint b() { return 1; }\n')
        # Upward: process/ may not use engine/.
        write(broken, "layer/src/process/P.cpp", '#include "process/P.h"\n#include "engine/E.h"\n')
        body = "".join(f"  x += {i};\n" for i in range(160))
        write(broken, "common/src/Long.cpp", "int longFunction() {\n  int x = 0;\n" + body + "  return x;\n}\n")
        write(broken, "common/src/Big.cpp", "".join(f"int v{i} = {i};\n" for i in range(801)))

        code, out = run(clean, "includes")
        if code != 0:
            failures.append(f"includes on the clean tree failed:\n{out}")
        code, out = run(clean, "sizes")
        if code != 0:
            failures.append(f"sizes on the clean tree failed:\n{out}")
        code, out = run(broken, "includes")
        if code == 0 or "include loop of 2 units (common/src/A, common/src/B)" not in out:
            failures.append(f"includes did not report the loop A <-> B:\n{out}")
        if "layer/src/process/P.cpp: includes layer/src/engine/E.h (layer/src/engine)" not in out:
            failures.append(f"includes did not report process/ -> engine/:\n{out}")
        code, out = run(broken, "sizes")
        if code == 0 or "common/src/Big.cpp: 801 lines" not in out:
            failures.append(f"sizes did not report the 801-line file:\n{out}")
        if "function longFunction has 164 lines" not in out:
            failures.append(f"sizes did not report the 164-line function:\n{out}")
    for f in failures:
        print("FAIL", f)
    print("architecture self-test:", "ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
