#!/usr/bin/env python3
"""Analyses in child processes give the results the analysis gives in clcapture-verify's own process.

clcapture-verify runs each analysis in a child process forked from a zygote, and compiles each program that
several analyses share once, before the fork, so that each child specialises its own copy
(analyzer/cli/include/clcapture/verify/AnalysisProcesses.h, analyzer/pipeline/src/PreparedKernels.h). Every
corpus kernel that takes scalars becomes a capture of three launches of one program (parametric_test.py's
variants); it is verified with the children and with --in-process, launch by launch (--no-parametric) and
with its group attempted (--group-budget=30). Per launch, the verdict, reason and findings (kind, conflict,
array, index, bytes, both accesses with their work-items, witness values) must be the same.

    isolation_test.py VERIFY KERNELS_DIR [--only SUBSTRING]
"""
import glob
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parametric_test  # noqa: E402

COMPARED = ("verdict", "reason", "findings", "parametric")


def comparable(result):
    return {key: result.get(key) for key in COMPARED}


def main():
    verify, kernels = sys.argv[1], sys.argv[2]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    failures, checked, compared = [], 0, 0
    for path in sorted(glob.glob(os.path.join(kernels, "**", "*.cl"), recursive=True)):
        name = os.path.relpath(path, kernels)
        if only not in name:
            continue
        with tempfile.TemporaryDirectory() as folder:
            try:
                if not parametric_test.make_capture(folder, path):
                    continue
            except (SystemExit, Exception) as e:  # a header parametric_test cannot vary: not this test's subject
                print(f"skip {name}: {e}")
                continue
            checked += 1
            for mode in (["--no-parametric"], ["--group-budget=30"]):
                children = parametric_test.verdicts(verify, folder, *mode)
                inside = parametric_test.verdicts(verify, folder, "--in-process", *mode)
                for index in sorted(inside):
                    compared += 1
                    if comparable(children[index]) != comparable(inside[index]):
                        failures.append(f"{name} #{index} {mode[0]}: in a child {comparable(children[index])!s:.300}"
                                        f" but in-process {comparable(inside[index])!s:.300}")
    for f in failures:
        print("FAIL:", f)
    print(f"{checked} kernels, {compared} launch results compared in children and in-process: "
          f"{len(failures)} differ")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
