#!/usr/bin/python3
"""Runs build/bin/clcapture-verify on the capture folders under tests/verify/captures/ and checks exit
status, stdout and stderr (docs/contract.md §4). One CTest test per case.

usage: cli_test.py --binary CLCAPTURE_VERIFY --captures DIR --schema REPORT_SCHEMA --work DIR CASE

These tests hold whatever analysis is linked in: on the good capture they accept exit 0 or 6 (verified or
not) and check the report's shape, not its verdicts (the driver's logic is unit-tested with a fake analysis).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys


CACHE_HOME = None  # set by main(): each case has a verdict cache of its own, never the user's


def run(binary, *args):
    env = dict(os.environ, XDG_CACHE_HOME=CACHE_HOME) if CACHE_HOME else None
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=300, env=env)
    return p.returncode, p.stdout, p.stderr


class Failed(Exception):
    pass


def expect(cond, what, out="", err=""):
    if not cond:
        raise Failed(f"{what}\n--- stdout ---\n{out}\n--- stderr ---\n{err}")


def expect_invalid(a, folder, pattern):
    """Exit 10, the reader's diagnostic naming the problem on stderr, nothing on stdout."""
    rc, out, err = run(a.binary, os.path.join(a.captures, folder, "captures.json"))
    expect(rc == 10, f"exit status {rc}, expected 10", out, err)
    expect(out == "", "stdout is not empty", out, err)
    expect(re.search(pattern, err), f"stderr does not match {pattern!r}", out, err)
    expect("not a valid capture; nothing was analysed" in err, "no closing line on stderr", out, err)


def case_bad_json(a):
    expect_invalid(a, "bad-json", r"bad-json/captures\.json:5:\d+: invalid JSON: syntax error")


def case_missing_kernel(a):
    expect_invalid(a, "missing-kernel", r'instantiation 0: kernel_file: file "kernels/gone\.cl" does not exist')


def case_escaping_path(a):
    expect_invalid(a, "escaping-path", r'kernel_file: path "\.\./good/kernels/add\.cl" escapes the capture folder')


def case_missing_captures(a):
    expect_invalid(a, "no-such-folder", r"no-such-folder/captures\.json: file does not exist")


def case_bad_option(a):
    for args, pattern in [(["--bogus"], r"--bogus"), (["--format=xml"], r"--format"), (["-j", "0"], r"-j"),
                          (["--only=-1"], r"--only"), (["--timeout=-3"], r"--timeout"), ([], r"required")]:
        good = [os.path.join(a.captures, "good", "captures.json")] if args else []
        rc, out, err = run(a.binary, *args, *good)
        expect(rc == 1, f"{args}: exit status {rc}, expected 1", out, err)
        expect(out == "", f"{args}: stdout is not empty", out, err)
        expect(re.search(r"^clcapture-verify: error: .*" + pattern, err, re.M), f"{args}: no error naming it", out, err)


def case_only_out_of_range(a):
    rc, out, err = run(a.binary, "--only=1,99", os.path.join(a.captures, "good", "captures.json"))
    expect(rc == 1, f"exit status {rc}, expected 1", out, err)
    expect(out == "", "stdout is not empty", out, err)
    expect("--only: no instantiation 99" in err and "it has 6, numbered 0 to 5" in err, "message", out, err)


def case_version_help(a):
    rc, out, err = run(a.binary, "--version")
    expect(rc == 0 and re.fullmatch(r"clcapture-verify \d+\.\d+\.\d+\n", out), "--version", out, err)
    rc, out, err = run(a.binary, "--help")
    expect(rc == 0, "--help exit status", out, err)
    for option in ["--format", "--output", "--only", "-j", "--timeout", "--dump-ir", "--dump-smt2", "--strict"]:
        expect(option in out, f"--help does not list {option}", out, err)


def good_report(a, *args):
    rc, out, err = run(a.binary, *args, os.path.join(a.captures, "good", "captures.json"))
    expect(rc in (0, 6), f"exit status {rc}, expected 0 or 6", out, err)
    return rc, out, err


def case_good_text(a):
    rc, out, err = good_report(a, "-j", "2")
    lines = out.splitlines()
    expect(re.fullmatch(r"clcapture-verify: 6 instantiations: \d+ verified, \d+ defects, \d+ unknown, \d+ error",
                        lines[-1]), "summary line", out, err)
    expect(re.search(r"^instantiation 1: add in .*good/kernels/add\.cl: \w+ \(same as #0\)", out, re.M),
           "#1 is not reported as the same as #0", out, err)
    expect(re.search(r"^instantiation 4: add in .*good/kernels/add-copy\.cl: \w+ \(same as #0\)", out, re.M),
           "#4 (same source in another file) is not reported as the same as #0", out, err)
    expect(not re.search(r"^instantiation [235]: .*same as", out, re.M), "a distinct launch was deduplicated", out, err)
    expect((rc == 0) == all(" verified" in l for l in lines if l.startswith("instantiation")), "exit status vs verdicts",
           out, err)


def validate(a, document, where):
    import jsonschema
    with open(a.schema, encoding="utf-8") as f:
        schema = json.load(f)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    expect(not errors, f"{where} does not validate: {errors[0].message if errors else ''}")


def case_good_json(a):
    rc, out, err = good_report(a, "--format=json")
    report = json.loads(out)
    validate(a, report, "the JSON report")
    expect([r["index"] for r in report["results"]] == list(range(6)), "indices", out, err)
    expect({r["index"]: r.get("same_as") for r in report["results"]} == {0: None, 1: 0, 2: None, 3: None, 4: 0, 5: None},
           "same_as", out, err)
    expect(report["results"][4]["kernel_file"] == "kernels/add-copy.cl", "copied result keeps its own kernel_file",
           out, err)
    counts = {k: v for k, v in report["summary"].items() if k in ("verified", "defects", "unknown", "error")}
    expect(sum(counts.values()) == 6, "summary", out, err)
    expect(set(report["summary"]["seconds_by_kernel"]) == {f"{r['entry_point']} ({r['kernel_file']})"
                                                            for r in report["results"]},
           "the summary's seconds per kernel name every kernel", out, err)
    # Each analysis reports the heap it held at most (a compilation alone needs more than 1 MiB); a copied
    # result reports none.
    for r in report["results"]:
        if "same_as" in r:
            expect("peak_memory_mib" not in r, f"copied result {r['index']} reports memory", out, err)
        else:
            expect(r.get("peak_memory_mib", 0) > 1, f"result {r['index']} has no peak memory", out, err)


def case_checks(a):
    """--checks: the report says what `verified` covers (JSON always, text when not the default); the good
    capture's accesses stay inside its captured sizes, so memory safety adds no finding and every buffer is
    checked (no bounds_not_checked)."""
    rc, out, err = good_report(a, "--format=json")
    expect(json.loads(out)["checks"] == ["races", "divergence", "bounds"], "the default checks: all", out, err)
    rc, out, err = good_report(a, "--checks=races,divergence")
    expect(out.splitlines()[-1].endswith("(checked: races,divergence)"),
           "the text summary names checks that leave one out", out, err)
    rc, out, err = good_report(a, "--format=json", "--checks=all")
    report = json.loads(out)
    validate(a, report, "the JSON report with --checks=all")
    expect(report["checks"] == ["races", "divergence", "bounds"], "--checks=all names every check", out, err)
    for r in report["results"]:
        expect("bounds_not_checked" not in r, f"result {r['index']}: a sized buffer left unchecked", out, err)
        expect(not any(f["kind"] in ("out-of-bounds", "null-dereference") for f in r["findings"]),
               f"result {r['index']}: a bounds finding inside the captured sizes", out, err)
    rc, out, err = good_report(a, "--checks=bounds")
    expect(out.splitlines()[-1].endswith("(checked: bounds)"), "the text summary names a non-default check",
           out, err)
    rc, out, err = run(a.binary, "--checks=leaks", os.path.join(a.captures, "good", "captures.json"))
    expect(rc == 1 and "--checks" in err and not out, "an unknown check is a command-line error", out, err)


def case_memory_budget(a):
    # 1 MiB: less than any compilation needs, on any machine: every analysis stops at its budget, `unknown`
    # with the budget named, never `verified` and never killed.
    rc, out, err = run(a.binary, "--format=json", "--no-cache", "--max-memory=1",
                       os.path.join(a.captures, "good", "captures.json"))
    expect(rc == 6, f"exit status {rc}, expected 6 (unknown)", out, err)
    report = json.loads(out)
    validate(a, report, "the JSON report")
    for r in report["results"]:
        expect(r["verdict"] == "unknown", f"result {r['index']} is {r['verdict']} over its memory budget", out, err)
        expect(re.search(r"over the memory budget while \w+.*: the analysis reached \d+ MiB, more than "
                         r"--max-memory=1 MiB", r.get("reason", "")), f"result {r['index']}'s reason", out, err)


def case_good_sarif(a):
    rc, out, err = good_report(a, "--format=sarif", "--only=0,3")
    log = json.loads(out)
    expect(log["version"] == "2.1.0" and len(log["runs"]) == 1, "SARIF 2.1.0 with one run", out, err)
    driver = log["runs"][0]["tool"]["driver"]
    expect(driver["name"] == "clcapture-verify", "driver name", out, err)
    expect([r["id"] for r in driver["rules"]][:2] == ["data-race", "barrier-divergence"], "rules", out, err)
    base = log["runs"][0]["originalUriBaseIds"]["CAPTURES"]["uri"]
    expect(base.startswith("file:///") and base.endswith("/good/"), "CAPTURES base URI", out, err)
    for r in log["runs"][0]["results"]:
        expect(r["properties"]["instantiation"] in (0, 3), "--only selection", out, err)


def case_output_file(a):
    target = os.path.join(a.work, "report.json")
    if os.path.exists(target):
        os.remove(target)
    rc, out, err = good_report(a, "--format=json", f"--output={target}", "--only=2")
    expect(out == "", "stdout is not empty with --output", out, err)
    expect(re.search(r"^clcapture-verify: 1 instantiation: ", err, re.M), "summary on stderr", out, err)
    with open(target, encoding="utf-8") as f:
        report = json.load(f)
    validate(a, report, "the --output file")
    expect([r["index"] for r in report["results"]] == [2], "--only=2", out, err)


def case_output_folder_missing(a):
    rc, out, err = run(a.binary, "--output=/nonexistent-folder/r.json", os.path.join(a.captures, "good", "captures.json"))
    expect(rc == 1 and out == "" and "--output" in err, "unwritable --output is a command-line error", out, err)


def case_compile_error(a):
    rc, out, err = run(a.binary, "--format=json", os.path.join(a.captures, "compile-error", "captures.json"))
    expect(rc == 2, f"exit status {rc}, expected 2 (a kernel did not compile)", out, err)
    result = json.loads(out)["results"][0]
    expect(result["verdict"] == "error", "verdict", out, err)
    expect(re.search(r"kernels/broken\.cl:2:\d+: error: use of undeclared identifier 'undeclared_value'",
                     result.get("reason", "")), "Clang's diagnostic with file, line and column", out, err)


def case_timeout(a):
    # The race query asks the solver to factor a 64-bit semiprime (captures/unfinishable): it cannot finish
    # within the limit on any machine, so the outcome does not depend on how fast or loaded this one is.
    rc, out, err = run(a.binary, "--format=json", "--timeout=1", "--no-cache",
                       os.path.join(a.captures, "unfinishable", "captures.json"))
    expect(rc == 7, f"exit status {rc}, expected 7 (timeout)", out, err)
    result = json.loads(out)["results"][0]
    expect(result["verdict"] == "unknown", "a timeout is unknown, never verified", out, err)
    expect(re.search(r"timed out|timeout", result.get("reason", "")), "the reason names the timeout", out, err)
    # The limit is kept: far below the hours the query would take (generous, so a loaded machine's
    # compilation time cannot fail it).
    expect(result["seconds"] < 120, f"the limit was not kept: {result['seconds']} s", out, err)


def without_times(report):
    for r in report["results"]:
        r.pop("seconds", None)
        r.pop("peak_memory_mib", None)
    report["summary"].pop("seconds_by_kernel", None)
    return report


def without_cost(entry_bytes):
    """A cache entry without what its analysis cost (seconds, which differ between runs)."""
    try:
        entry = json.loads(entry_bytes)
    except ValueError:
        return entry_bytes  # not a verdict (the store of file hashes)
    result = json.loads(entry["result"])
    result.pop("seconds", None)
    entry["result"] = result
    return entry


def case_cache(a):
    # The second run reads every result from the cache; a corrupt entry is analysed again and rewritten.
    captures = os.path.join(a.captures, "good", "captures.json")
    rc, out, err = run(a.binary, "--format=json", captures)
    expect(rc in (0, 6), f"exit status {rc}", out, err)
    first = without_times(json.loads(out))
    entries = [os.path.join(d, f) for d, _, files in os.walk(CACHE_HOME) for f in files]
    expect(len(entries) >= 1, f"no cache entry under {CACHE_HOME}", out, err)
    rc2, out, err = run(a.binary, "--format=json", captures)
    expect(rc2 == rc and without_times(json.loads(out)) == first, "the cached report differs", out, err)
    stored = {e: open(e, "rb").read() for e in entries}
    for e in entries:
        with open(e, "wb") as f:
            f.write(b'{"key": "garbage"')
    rc3, out, err = run(a.binary, "--format=json", captures)
    expect(rc3 == rc and without_times(json.loads(out)) == first, "a corrupt cache changed the report", out, err)
    expect(all(without_cost(open(e, "rb").read()) == without_cost(stored[e]) for e in entries),
           "corrupt entries were not rewritten", out, err)
    rc4, out, err = run(a.binary, "--format=json", "--no-cache", captures)
    expect(rc4 == rc and without_times(json.loads(out)) == first, "--no-cache gives another report", out, err)


def rewrite_in_place(path, text):
    """New contents of the same size, with the file's modification time put back: only the bytes differ
    (the change time moves; no program can set it)."""
    before = os.stat(path)
    with open(path, "r+b") as f:
        data = text if isinstance(text, bytes) else text.encode()
        expect(len(data) == before.st_size, f"{path}: the rewrite must keep the size")
        f.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def case_cache_inputs(a):
    # The verdict cache is keyed by every input of the analysis: a header the kernel #includes, a data file,
    # an option. Each is changed in place (same size, same modification time) and the next run must analyse
    # again and see the change, never serve the old verdict.
    folder = os.path.join(a.work, "inputs")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "kernels"))
    os.makedirs(os.path.join(folder, "data"))
    header = os.path.join(folder, "kernels", "slot.h")
    with open(header, "w") as f:
        f.write("#define SLOT(i) (i)\n")
    with open(os.path.join(folder, "kernels", "k.cl"), "w") as f:
        f.write('#include "slot.h"\n'
                "kernel void k(global const int *perm, global int *out) {\n"
                "  int i = get_global_id(0);\n"
                "  out[SLOT(perm[i])] = i;\n"
                "}\n")
    data = os.path.join(folder, "data", "perm.bin")
    with open(data, "wb") as f:
        f.write(b"".join(i.to_bytes(4, "little") for i in range(16)))
    with open(os.path.join(folder, "captures.json"), "w") as f:
        json.dump([{"language": "OpenCL", "endianness": "little", "local_size": [8], "global_size": [16],
                    "kernel_file": "kernels/k.cl", "entry_point": "k", "compiler_flags": "",
                    "kernel_arguments": [
                        {"type": "array", "address_space": "global", "flags": ["CL_MEM_READ_ONLY"],
                         "data": "data/perm.bin", "size": 64},
                        {"type": "array", "address_space": "global", "flags": ["CL_MEM_READ_WRITE"],
                         "size": 64}]}], f)
    captures = os.path.join(folder, "captures.json")

    def verdict(*options):
        rc, out, err = run(a.binary, "--format=json", *options, captures)
        expect(rc in (0, 6), f"exit status {rc}", out, err)
        return json.loads(out)["results"][0]["verdict"], out, err

    v, out, err = verdict()
    expect(v == "verified", "an identity permutation through SLOT(i) = i is race-free", out, err)
    v, out, err = verdict()
    expect(v == "verified", "the second run (from the cache)", out, err)
    expect(any(files for _, _, files in os.walk(CACHE_HOME)), "nothing was cached", out, err)
    rewrite_in_place(header, "#define SLOT(i) (0)\n")
    v, out, err = verdict()
    expect(v == "defects", "a header changed in place: the cache served the old verdict", out, err)
    rewrite_in_place(header, "#define SLOT(i) (i)\n")
    v, out, err = verdict()
    expect(v == "verified", "the header put back", out, err)
    rewrite_in_place(data, b"".join((i // 2).to_bytes(4, "little") for i in range(16)))
    v, out, err = verdict()
    expect(v == "defects", "a data file changed in place: the cache served the old verdict", out, err)
    # An option that changes the analysis: under --open=data the captured bytes give way to open values.
    rewrite_in_place(data, b"".join(i.to_bytes(4, "little") for i in range(16)))
    v, out, err = verdict()
    expect(v == "verified", "the data put back", out, err)
    v, out, err = verdict("--open=data")
    expect(v == "defects", "--open=data: the cache served the captured data's verdict", out, err)


CASES = {name[5:].replace("_", "-"): f for name, f in globals().items() if name.startswith("case_")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--captures", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("case", choices=sorted(CASES))
    a = parser.parse_args()
    os.makedirs(a.work, exist_ok=True)
    global CACHE_HOME
    CACHE_HOME = os.path.join(a.work, "cache")
    shutil.rmtree(CACHE_HOME, ignore_errors=True)
    try:
        CASES[a.case](a)
    except Failed as e:
        print(f"{a.case}: FAIL: {e}")
        return 1
    print(f"{a.case}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
