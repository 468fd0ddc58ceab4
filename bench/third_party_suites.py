#!/usr/bin/python3
"""Yardstick: clcapture-verify against two third-party labelled test suites (docs/third-party-suites.md).

usage: third_party_suites.py [--gpuverify DIR] [--oclgrind DIR] [--verify PATH] [-j N] [--timeout S]
                             [--only SUBSTR] [--json OUT] [--markdown OUT] [--keep DIR] [--list]

  --gpuverify DIR  GPUVerify's repository (a bare mirror or a checkout): its testsuite/OpenCL/*/kernel.cl,
                   labelled on line 1 (//pass, //xfail:NOT_ALL_VERIFIED, ...), launch flags on line 2
  --oclgrind DIR   Oclgrind's repository: tests/kernels/TESTS, each X.cl with X.sim (the launch, argument
                   values and buffer contents) and X.ref (expected output, ERROR lines for each error)
  --verify PATH    clcapture-verify (default build/bin/clcapture-verify beside this script's repository)
  -j N             tests run at a time (default 2)
  --timeout S      clcapture-verify --timeout per instantiation (default 60)
  --only SUBSTR    only tests whose name (suite/test) contains SUBSTR
  --json OUT       every per-test record (conversion, skip reason, verdicts, times)
  --markdown OUT   the summary tables as Markdown (for docs/third-party-suites.md)
  --keep DIR       keep the generated capture folders under DIR/<suite>/<test>/<entry>/
  --list           convert and print the skip decisions, run nothing

Each test becomes a capture folder (captures.json + captures.meta.json + kernels/ + data/), built by
tests/kernels/run_kernel.py's build_capture(), in a temporary folder; the third-party sources are read
from the repositories at run time and never copied into this one. Then
`clcapture-verify --format=json --timeout=S captures.json` runs on it and its verdict is compared with the
label: agree, UNSOUND (verified where the label says defects), false alarm (defects where it says
verified), unknown, error. Only /usr/bin/python3 and its standard library.
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "kernels"))
import run_kernel  # noqa: E402  (build_capture: the corpus's capture writer)

SLOW_SECONDS = 30

# ---------------------------------------------------------------------------------------------------------
# Reading a suite from a repository (bare mirror or checkout)


class Tree:
    """A repository's files: a checkout as is, a bare repository extracted (git archive) into a temp dir."""

    def __init__(self, path, subdirs, scratch):
        self.source = os.path.abspath(path)
        self.commit = "unknown"
        git = ["git", "-C", self.source]
        r = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True)
        if r.returncode == 0:
            self.commit = r.stdout.strip()
        bare = subprocess.run(git + ["rev-parse", "--is-bare-repository"], capture_output=True, text=True)
        if bare.returncode == 0 and bare.stdout.strip() == "true":
            self.root = tempfile.mkdtemp(prefix="tree-", dir=scratch)
            archive = subprocess.run(git + ["archive", "HEAD"] + subdirs, capture_output=True)
            if archive.returncode != 0:
                raise SystemExit(f"git archive in {self.source}: {archive.stderr.decode(errors='replace')}")
            subprocess.run(["tar", "-x", "-C", self.root], input=archive.stdout, check=True)
        else:
            self.root = self.source
        for d in subdirs:
            if not os.path.isdir(os.path.join(self.root, d)):
                raise SystemExit(f"{self.source}: no folder {d}")

    def path(self, *parts):
        return os.path.join(self.root, *parts)


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:  # universal newlines: some kernels are CRLF
        return f.read()


# ---------------------------------------------------------------------------------------------------------
# A small OpenCL C reader: top-level functions, their parameters, identifiers


def strip_comments(text):
    """Comments and string literals blanked (newlines kept, so offsets stay meaningful)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, text, flags=re.S)


def strip_preprocessor(code):
    out = []
    cont = False
    for line in code.split("\n"):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def matching_open(s, close):
    depth = 0
    for i in range(close, -1, -1):
        if s[i] == ")":
            depth += 1
        elif s[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def declarator(header):
    """(name, prefix, params_text) when header (text before '{' or ';' at file scope) declares a function."""
    h = header.rstrip()
    while h.endswith(")"):
        open_ = matching_open(h, len(h) - 1)
        if open_ < 0:
            return None
        m = re.search(r"(\w+)\s*$", h[:open_])
        if not m:
            return None
        if m.group(1) in ("__attribute__", "__attribute"):
            h = h[:m.start()].rstrip()
            continue
        if m.group(1) in ("if", "while", "for", "switch", "return", "sizeof"):
            return None
        return m.group(1), h[:m.start()], h[open_ + 1:-1]
    return None


def top_level(text):
    """[{name, kernel, body, params}] for every function declared or defined at file scope."""
    code = strip_preprocessor(strip_comments(text))
    out = []
    depth = 0
    start = 0
    paren = 0
    for i, c in enumerate(code):
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        elif c == "{":
            if depth == 0 and paren == 0:
                header = code[start:i]
                if not re.search(r"=\s*$", header) and not re.search(r"\b(struct|union|enum)\b[^;()]*$", header):
                    d = declarator(header)
                    if d:
                        out.append({"name": d[0], "kernel": bool(re.search(r"\b(__)?kernel\b", d[1])),
                                    "body": True, "params": d[2]})
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0 and paren == 0:
            d = declarator(code[start:i])
            if d and "=" not in code[start:i]:
                out.append({"name": d[0], "kernel": bool(re.search(r"\b(__)?kernel\b", d[1])),
                            "body": False, "params": d[2]})
            start = i + 1
    return out


def split_top(s, sep=","):
    parts, depth, cur = [], 0, ""
    for c in s:
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        if c == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


QUALIFIERS = {"const", "volatile", "restrict", "__restrict", "__restrict__", "global", "__global", "local",
              "__local", "constant", "__constant", "private", "__private", "read_only", "__read_only",
              "write_only", "__write_only", "read_write", "__read_write", "struct", "union", "enum"}
CANONICAL = {"unsigned char": "uchar", "unsigned short": "ushort", "unsigned int": "uint", "unsigned long": "ulong",
             "unsigned": "uint", "signed char": "char", "long long": "long"}


def parameters(params_text):
    """[(name, kind, type_name)]: kind global | local | constant | scalar | image | sampler (as run_kernel)."""
    out = []
    for p in split_top(params_text):
        p = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", p)
        if p == "void":
            continue
        names = re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", p)
        if not names:
            raise ValueError(f"cannot read parameter {p!r}")
        name = names[0]
        words = re.findall(r"\w+|\*", p[:p.rfind(name)])
        base = " ".join(w for w in words if w not in QUALIFIERS and w != "*")
        base = CANONICAL.get(base, base)
        pointer = "*" in p or "[" in p
        kind = run_kernel.parameter_kind(p, pointer)
        out.append((name, kind, base + ("*" if pointer else "")))
    return out


# GPUVerify's annotation language (bugle's include-blang/annotations/annotations.h and barrier_invariants.h,
# GPUVerify's Documentation/advanced_features.rst): every __-prefixed builtin, plus these few without one.
GPUVERIFY_PLAIN = {"bugle_assume", "DECLARE_UF_BINARY", "DECLARE_UF_UNARY", "ptr_base_t"}
# __-prefixed words that are OpenCL C / Clang, not GPUVerify.
OPENCL_DUNDER = {"__kernel", "__global", "__local", "__constant", "__private", "__generic", "__read_only",
                 "__write_only", "__read_write", "__attribute__", "__attribute", "__restrict", "__restrict__",
                 "__inline", "__inline__", "__const", "__volatile", "__volatile__", "__signed", "__signed__",
                 "__typeof__", "__alignof__", "__func__", "__FILE__", "__LINE__", "__OPENCL_VERSION__",
                 "__OPENCL_C_VERSION__", "__ENDIAN_LITTLE__", "__IMAGE_SUPPORT__", "__FAST_RELAXED_MATH__",
                 "__kernel_exec", "__COUNTER__"}


def gpuverify_machinery(text, defined):
    code = strip_comments(text)
    found = set()
    for word in re.findall(r"\b\w+\b", code):
        if word in GPUVERIFY_PLAIN or (word.startswith("__") and word not in OPENCL_DUNDER and word not in defined
                                       and not word.startswith("__builtin_") and not word.startswith("__opencl_")):
            found.add(word)
    return sorted(found)


# ---------------------------------------------------------------------------------------------------------
# GPUVerify: testsuite/OpenCL/**/kernel.cl

GV_VALUE_OPTIONS = ["--loop-unwind=", "--time-as-csv=", "--timeout=", "--error-limit=", "--local_size=",
                    "--global_size=", "--num_groups=", "--global_offset=", "--blockDim=", "--gridDim=",
                    "--pointer-bitwidth=", "--boogie-file=", "--kernel-args=", "--kernel-arrays=", "--warp-sync=",
                    "--race-instrumenter=", "--solver=", "--clang-opt=", "--opt-opt=", "--bugle-opt=",
                    "--vcgen-opt=", "--cruncher-opt=", "--boogie-opt=", "--omit-infer=", "--k-induction-depth=",
                    "--verify-intercepted=", "--cache="]
GV_FLAGS = ["--version", "--findbugs", "--verify", "--check-array-bounds", "--no-benign-tolerance",
            "--only-divergence", "--only-intra-group", "--verbose", "--silent", "--time", "--opencl", "--cuda",
            "--adversarial-abstraction", "--equality-abstraction", "--asymmetric-asserts", "--math-int",
            "--no-annotations", "--only-requires", "--invariants-as-candidates", "--no-barrier-access-checks",
            "--no-inline", "--only-log", "--debug", "--keep-temps", "--gen-smt2", "--stop-at-opt",
            "--stop-at-gbpl", "--stop-at-bpl", "--stop-at-cbpl", "--no-infer", "--infer-info", "--json",
            "--list-intercepted", "--verify-all-intercepted"]


def gv_parse_flags(tokens):
    """GPUVerify's command line (GPUVerifyScript/argument_parser.py, argparse: unique prefixes accepted):
    {option: [values]} with the '=' dropped from value options, plus 'defines'/'includes'."""
    opts = {"-D": [], "-I": []}
    it = iter(tokens)
    for t in it:
        if t in ("-D", "-I"):
            opts[t].append(next(it, ""))
            continue
        if t.startswith("-D") or t.startswith("-I"):
            opts[t[:2]].append(t[2:])
            continue
        name, eq, value = t.partition("=")
        exact = [o for o in GV_VALUE_OPTIONS if o[:-1] == name] + [o for o in GV_FLAGS if o == name]
        cands = exact or [o for o in GV_VALUE_OPTIONS if o.startswith(name)] + \
            [o for o in GV_FLAGS if o.startswith(name)]
        if len(cands) != 1:
            opts.setdefault("unknown", []).append(t)
            continue
        o = cands[0]
        if o.endswith("="):
            if not eq:
                value = next(it, "")
            opts.setdefault(o[:-1], []).append(value)
        else:
            opts.setdefault(o, []).append(True)
    return opts


def gv_dims(value):
    """GPUVerify's __dimensions: '64', '64,64', '[64,64]'; '*' is left open."""
    v = value.strip()
    if v.startswith("[") and v.endswith("]"):
        v = v[1:-1]
    return [x.strip() if x.strip() == "*" else int(x) for x in v.split(",")]


# Flags that make GPUVerify check less than "no data race, no barrier divergence for this launch": a //pass
# label under them proves less, an xfail label is still a defect GPUVerify found.
GV_RESTRICTING = {
    "--only-divergence": "checks barrier divergence only, no races",
    "--only-intra-group": "checks races within a work-group only, not between groups",
    "--no-barrier-access-checks": "does not check accesses between barriers",
    "--loop-unwind": "bounded (bug-finding) mode: loops unwound a fixed number of times",
    "--findbugs": "bounded (bug-finding) mode: loops unwound a fixed number of times",
}
# Flags under which an xfail label may be GPUVerify's own false alarm (the proof technique was weakened).
GV_WEAKENING = {
    "--no-infer": "no invariant inference: an xfail may be a missing loop invariant, not a defect",
    "--k-induction-depth": "k-induction depth chosen to make the proof fail or succeed",
}


RACE_MESSAGE = re.compile(r"race|barrier|divergen|non-uniform", re.I)
NON_RACE_MESSAGE = re.compile(r"null pointer|assertion might not hold|out-of-bounds|invariant might not|precondition|"
                              r"postcondition", re.I)


def accesses_through_null(text):
    """Whether the kernel makes a pointer NULL (NULL, a cast of 0, or a pointer variable set to 0)."""
    code = strip_comments(text)
    if re.search(r"\bNULL\b|\(\s*[\w\s]*\*\s*\)\s*0\b", code):
        return True
    for name in re.findall(r"\*\s*(\w+)\s*(?:=|;)", code):
        if re.search(r"\b" + re.escape(name) + r"\s*=\s*0\s*;", code):
            return True
    return False


def gv_tests(tree):
    base = tree.path("testsuite", "OpenCL")
    found = []
    for dirpath, _, files in os.walk(base):
        if "kernel.cl" in files:
            found.append(os.path.relpath(dirpath, base))
    return sorted(found)


# Labels that rest on a reading of OpenCL that the other suite and the OpenCL text contradict: skipped, and
# listed with the reason (docs/third-party-suites.md and docs/semantics.md say which reading clcapture takes).
GV_CONTESTED = {
    "async_work_group_copy/fail/test14":
        "label contested: GPUVerify wants a barrier after wait_group_events before the copy's source is "
        "written; OpenCL 1.2 §6.12.10 has the copy complete at the wait, and Oclgrind's async_copy/async_copy "
        "(the same pattern) is labelled race-free",
    "array_bounds_tests/negative_index_multi_dim":
        "label contested: L[0][g] of `local int L[10][10]` with g up to 99 stays inside L but indexes past "
        "its row; C99 Annex J.2 (\"an array subscript is out of range, even if an object is apparently "
        "accessible with the given subscript (as in the lvalue expression a[1][7] given the declaration "
        "int a[4][5])\") makes it undefined, and Oclgrind's memcheck/static_array reports the same pattern; "
        "GPUVerify checks the whole array only",
    "inter_group_and_barrier_flag_tests/pass/read_then_write":
        "label contested: the barrier's flags are CLK_LOCAL_MEM_FENCE for local id 0 and 0 for the others; "
        "OpenCL C 3.0 §6.15.8 (work_group_barrier / barrier): \"the values of flags and scope must be the same "
        "for all work-items in the work-group\" — clcapture-verify reports barrier divergence (different "
        "arguments), GPUVerify lets each work-item's flags order its own accesses",
    "inter_group_and_barrier_flag_tests/pass/write_then_read":
        "label contested: the same per-work-item barrier flags as read_then_write (OpenCL C 3.0 §6.15.8: the "
        "flags must be the same for all work-items of the group)",
}


# GPUVerify's memory-safety tests: array bounds (run there with --check-array-bounds), NULL accesses, and the
# async copies through NULL. They make a table of their own (suite gpuverify-memory), run with --checks=all.
GV_MEMORY_FOLDERS = ("array_bounds_tests/", "null_pointers/")
GV_MEMORY_TESTS = {f"async_work_group_copy/fail/test{n}" for n in (15, 16, 17, 18)}


def gv_memory_test(name):
    return name.startswith(GV_MEMORY_FOLDERS) or name in GV_MEMORY_TESTS


def gv_convert(tree, name):
    """One GPUVerify test → {name, suite, label, expected, skip?, launches: [...]}. A launch per kernel."""
    memory = gv_memory_test(name)
    rec = {"suite": "gpuverify-memory" if memory else "gpuverify", "name": name}
    if memory:
        rec["checks"] = "all"
    path = tree.path("testsuite", "OpenCL", name, "kernel.cl")
    text = read_text(path)
    lines = text.split("\n")
    m = re.match(r"//(pass|xfail:([A-Z_]+))", lines[0].strip(), re.I)
    if not m:
        rec["skip"] = "no //pass or //xfail label on line 1"
        return rec
    label = "pass" if m.group(1).lower() == "pass" else "xfail:" + m.group(2).upper()
    rec["label"] = label
    rec["expected"] = {"pass": "verified", "xfail:NOT_ALL_VERIFIED": "defects"}.get(label)
    if len(lines) < 2 or not lines[1].startswith("//"):
        rec["skip"] = "no flags line"
        return rec
    tokens = lines[1][2:].strip().split()
    tokens = [t.replace("${KERNEL_DIR}", os.path.dirname(path)) for t in tokens]
    rec["flags"] = " ".join(lines[1][2:].strip().split())
    opts = gv_parse_flags(tokens)

    if rec["expected"] is None:
        rec["skip"] = f"label {label}: a tool error (compile, front end, command line), not a race verdict"
        return rec
    if name in GV_CONTESTED:
        rec["skip"] = "label contested by the OpenCL text and the other suite"
        rec["skip_detail"] = GV_CONTESTED[name]
        return rec
    if "--boogie-file" in opts:
        rec["skip"] = "needs a Boogie file (axioms.bpl)"
        return rec
    funcs = top_level(text)
    defined = {f["name"] for f in funcs if f["body"]}
    machinery = gpuverify_machinery(text, defined)
    if machinery:
        rec["skip"] = "GPUVerify annotations or builtins in the source"
        rec["skip_detail"] = ", ".join(machinery[:6])
        return rec
    for flag in ("--equality-abstraction", "--adversarial-abstraction"):
        if flag in opts:
            rec["skip"] = f"{flag}: the label is about GPUVerify's shared-state abstraction"
            return rec
    if "--warp-sync" in opts:
        rec["skip"] = "--warp-sync: assumes lock-step warps (CUDA semantics), not OpenCL's"
        return rec
    if "--only-log" in opts:
        rec["skip"] = "--only-log: GPUVerify logs accesses without checking races"
        return rec
    if "--math-int" in opts:
        rec["skip"] = "--math-int: mathematical integers, no overflow"
        return rec
    if "unknown" in opts:
        rec["skip"] = "unrecognised GPUVerify option"
        rec["skip_detail"] = " ".join(opts["unknown"])
        return rec
    if "--vcgen-opt" in opts and any("/checkArrays" in v for v in opts["--vcgen-opt"]) and label == "pass":
        rec["skip"] = "//pass with a restricted check (--only-*, /checkArrays, bounded mode): absence of defects only partly checked"
        rec["skip_detail"] = "/checkArrays"
        return rec
    restricting = [f for f in GV_RESTRICTING if f in opts]
    if restricting and label == "pass":
        rec["skip"] = "//pass with a restricted check (--only-*, /checkArrays, bounded mode): absence of defects only partly checked"
        rec["skip_detail"] = " ".join(restricting)
        return rec
    weakening = [f for f in GV_WEAKENING if f in opts]
    if weakening and label != "pass":
        rec["skip"] = "xfail under --no-infer / --k-induction-depth: may be GPUVerify failing to prove, not a defect"
        rec["skip_detail"] = " ".join(weakening)
        return rec
    if "--check-array-bounds" in opts and label != "pass" and not memory:
        rec["skip"] = "xfail with --check-array-bounds: the defect may be an out-of-bounds access"
        return rec
    if label != "pass" and not memory:
        # What GPUVerify is expected to say (the //REGEX lines after the flags).
        messages = []
        for line in lines[2:]:
            if not line.startswith("//"):
                break
            messages.append(line[2:].strip())
        names_race = any(RACE_MESSAGE.search(m) for m in messages)
        other = [m for m in messages if NON_RACE_MESSAGE.search(m)]
        if other and not names_race:
            rec["skip"] = "xfail for another kind of error named in its expected messages (null pointer, assertion, bounds)"
            rec["skip_detail"] = NON_RACE_MESSAGE.search(other[0]).group(0)
            return rec
        if not names_race and accesses_through_null(text):
            rec["skip"] = "xfail on a kernel that accesses memory through NULL, no race named: GPUVerify's null-pointer check"
            return rec
    kernels = [f for f in funcs if f["kernel"] and f["body"]]
    helpers = [f["name"] for f in funcs if not f["kernel"] and f["body"]]
    bodiless = sorted({f["name"] for f in funcs if not f["body"]} - defined)
    if not kernels:
        rec["skip"] = "no kernel function found"
        return rec
    if bodiless:
        rec["skip"] = "calls a function declared without a body (GPUVerify: arbitrary behaviour; not linkable OpenCL)"
        rec["skip_detail"] = ", ".join(bodiless)
        return rec
    if "--no-inline" in opts and helpers and label != "pass":
        rec["skip"] = "xfail with --no-inline and helper functions: the defect may be in a helper verified alone"
        rec["skip_detail"] = ", ".join(helpers)
        return rec

    # The launch.
    local = gv_dims(opts["--local_size"][-1]) if "--local_size" in opts else None
    if local is None:
        rec["skip"] = "no --local_size"
        return rec
    if "--global_size" in opts and "--num_groups" in opts:
        rec["skip"] = "both --global_size and --num_groups (GPUVerify: command-line error)"
        return rec
    if "--global_size" in opts:
        glob = gv_dims(opts["--global_size"][-1])
        groups = None
    elif "--num_groups" in opts:
        groups = gv_dims(opts["--num_groups"][-1])
        glob = None
    else:
        rec["skip"] = "no --global_size or --num_groups"
        return rec
    dims = glob or groups
    if glob is not None and len(glob) != len(local):
        rec["skip"] = "local and global sizes have different dimensions (GPUVerify: command-line error)"
        return rec
    if len(groups or local) != len(local):
        # --num_groups and --local_size may differ in length: GPUVerify's opencl.h fixes every dimension one
        # of them leaves out at 1 (__1D_WORK_GROUP: get_local_size(1) == 1, __1D_GRID: get_num_groups(1) == 1).
        n = max(len(groups), len(local))
        local = local + [1] * (n - len(local))
        groups = dims = groups + [1] * (n - len(groups))
        rec["padded"] = True
    if "*" in dims:
        rec["skip"] = "global size left open (*): a capture always has one"
        return rec
    if glob is None:
        if "*" in local:
            rec["skip"] = "local size and group count both open"
            return rec
        glob = [a * b for a, b in zip(local, groups)]
    if "*" not in local and any(g % l for g, l in zip(glob, local)):
        rec["skip"] = "local size does not divide global size (GPUVerify: command-line error)"
        return rec
    inst_base = {"language": "OpenCL", "endianness": "little", "global_size": glob}
    if "*" not in local:
        inst_base["local_size"] = local  # '*': any legal group size, which a missing local_size means
    if "--global_offset" in opts:
        inst_base["global_offset"] = gv_dims(opts["--global_offset"][-1])
    cflags = [f"-D{d}" for d in opts["-D"]] + [f"-I{i}" for i in opts["-I"]]
    for c in opts.get("--clang-opt", []):
        cflags += c.split()
    inst_base["compiler_flags"] = " ".join(cflags)
    kernel_args = {v.split(",")[0]: v.split(",")[1:] for v in opts.get("--kernel-args", [])}
    kernel_arrays = {v.split(",")[0]: v.split(",")[1:] for v in opts.get("--kernel-arrays", [])}
    rec["strict"] = "--no-benign-tolerance" in opts  # benign races are errors: clcapture-verify --strict
    rec["launches"] = []
    for k in kernels:
        try:
            params = parameters(k["params"])
        except ValueError as e:
            rec["skip"] = f"cannot read the kernel's parameters ({e})"
            return rec
        launch = {"args": {}, "sizes": {}, "data": {}, "alias": {}}
        # --kernel-args=K,v,...: scalar (and sampler) arguments in order; --kernel-arrays=K,n,...: array sizes.
        scalars = [p for p, kind, _ in params if kind in ("scalar", "sampler")]
        for p, v in zip(scalars, kernel_args.get(k["name"], [])):
            if v != "*":
                launch["args"][p] = "0x" + v[2:].upper()
        arrays = [p for p, kind, _ in params if kind in ("global", "local", "constant", "image")]
        for p, v in zip(arrays, kernel_arrays.get(k["name"], [])):
            if v != "*":
                launch["sizes"][p] = int(v)
        rec["launches"].append({"entry": k["name"], "params": params, "inst": dict(inst_base), "launch": launch,
                                "address_bits": 32})  # GPUVerify's default --pointer-bitwidth=32
    rec["text"] = text
    rec["kernel_name"] = "kernel.cl"
    return rec


# ---------------------------------------------------------------------------------------------------------
# Oclgrind: tests/kernels/TESTS, X.cl, X.sim, X.ref

OG_RELEVANT_DIRS = ("data-race", "barrier", "async_copy", "atomics", "wait_event")
RACE_OR_DIVERGENCE = re.compile(r"data race|divergence", re.I)
TYPE_PREFIXES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"]
TYPE_SIZES = {t: run_kernel.SCALAR_BYTES[t] for t in TYPE_PREFIXES}  # the types an Oclgrind .sim names


class SimReader:
    """Oclgrind's simulator-file reader (src/kernel/Simulation.cpp): '#' starts a comment, values are
    whitespace-separated tokens across lines, an argument header <...> runs to the last '>' on its line."""

    def __init__(self, text):
        self.lines = [line.split("#", 1)[0] for line in text.split("\n")]
        self.row, self.col = 0, 0

    def _skip(self):
        while self.row < len(self.lines):
            line = self.lines[self.row]
            while self.col < len(line) and line[self.col].isspace():
                self.col += 1
            if self.col < len(line):
                return True
            self.row, self.col = self.row + 1, 0
        return False

    def token(self):
        if not self._skip():
            raise ValueError("unexpected end of the simulator file")
        line = self.lines[self.row]
        end = self.col
        while end < len(line) and not line[end].isspace():
            end += 1
        tok = line[self.col:end]
        self.col = end
        return tok

    def header(self):
        if not self._skip() or self.lines[self.row][self.col] != "<":
            raise ValueError("expected an argument header <...>")
        rest = self.lines[self.row][self.col + 1:]
        end = rest.rfind(">")
        if end < 0:
            raise ValueError("missing '>' at the end of an argument header")
        self.col += 1 + end + 1
        return rest[:end]

    def at_end(self):
        return not self._skip()


def og_value(tok, typ, hexmode):
    """One value as Oclgrind's istream >> T reads it, packed little-endian."""
    size = TYPE_SIZES[typ]
    if typ in ("float", "double"):
        return struct.pack("<f" if typ == "float" else "<d", float(tok))
    m = re.match(r"[+-]?(0[xX][0-9a-fA-F]+|[0-9a-fA-F]+)" if hexmode else r"[+-]?\d+", tok)
    if not m:
        raise ValueError(f"bad {typ} value {tok!r}")
    v = int(m.group(0), 16 if hexmode else 10)
    if size == 1:  # INT_TO_CHAR: read as int, must fit
        lo, hi = (-128, 127) if typ == "char" else (0, 255)
        if not lo <= v <= hi:
            raise ValueError(f"invalid char value {tok!r}")
    return (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def range_value(v, typ):
    if typ in ("float", "double"):
        return struct.pack("<f" if typ == "float" else "<d", v)
    size = TYPE_SIZES[typ]
    return (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def og_tests(tree):
    with open(tree.path("tests", "kernels", "TESTS"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def og_label(tree, name, text):
    """(expected verdict or None, why). Racy/divergent: an ERROR line about a data race or work-group
    divergence. Clean: no ERROR line, and the kernel synchronises or shares (barrier, local memory, atomics,
    async copies, events) or lives in a race/divergence folder."""
    ref = tree.path("tests", "kernels", name + ".ref")
    if not os.path.exists(ref):
        return None, "no .ref file (no expected output)"
    errors = [line for line in read_text(ref).split("\n") if line.startswith("ERROR")]
    if any(RACE_OR_DIVERGENCE.search(e) for e in errors):
        return "defects", "ERROR line: " + sorted({re.sub(r" at .*|\s+\(.*", "", e[6:]) for e in errors
                                                   if RACE_OR_DIVERGENCE.search(e)})[0]
    if errors:
        return None, "expects another kind of error (" + re.sub(r"\s+at .*| address.*", "", errors[0][6:]).strip() + ")"
    code = strip_comments(text)
    uses = re.search(r"\b(barrier|work_group_barrier|mem_fence|read_mem_fence|write_mem_fence|async_work_group_\w*copy"
                     r"|wait_group_events|atomic_\w+|atom_\w+)\s*\(|\b(__)?local\b", code)
    if name.split("/")[0] in OG_RELEVANT_DIRS or uses:
        return "verified", "no ERROR line"
    return None, "no ERROR line, and no barrier, local memory or atomics (not about races)"


# Oclgrind's MemCheck errors that clcapture-verify's bounds check (--checks=all) reports: out-of-bounds and
# NULL accesses, and access modes (a read of a write-only buffer, a write to a read-only one). Its memcheck/
# tests with no error are the clean half.
OG_MEMORY_ERROR = re.compile(r"Invalid (read|write) of size|exceeds static array size"
                             r"|Invalid read from write-only buffer|Invalid write to read-only buffer")
OG_CONSEQUENCE = re.compile(r"Uninitialized value")  # what an invalid read returned, used later


def og_memory_label(tree, name):
    """('defects' | 'verified', why) for a memory-safety test, or None: an ERROR line MemCheck gives for an
    out-of-bounds or NULL access, or a test no other table takes with no ERROR line at all (MemCheck is
    always on: a clean run of it says no access left its memory)."""
    ref = tree.path("tests", "kernels", name + ".ref")
    if not os.path.exists(ref):
        return None
    errors = [line for line in read_text(ref).split("\n") if line.startswith("ERROR")]
    memory = [e for e in errors if OG_MEMORY_ERROR.search(e)]
    if memory and all(OG_MEMORY_ERROR.search(e) or OG_CONSEQUENCE.search(e) for e in errors):
        return "defects", "ERROR line: " + OG_MEMORY_ERROR.search(memory[0]).group(0)
    if not errors:  # MemCheck runs on every test: no ERROR line, no invalid access
        return "verified", "no ERROR line"
    return None


def og_convert(tree, name):
    rec = {"suite": "oclgrind", "name": name}
    folder, base = os.path.split(tree.path("tests", "kernels", name))
    sim_text = read_text(os.path.join(folder, base + ".sim"))
    first = sim_text.split("\n", 1)[0]
    extra = first[8:].split() if first.startswith("# ARGS:") else []
    sim = SimReader(sim_text)
    try:
        prog, entry = sim.token(), sim.token()
        glob = [int(sim.token()) for _ in range(3)]
        local = [int(sim.token()) for _ in range(3)]
    except ValueError as e:
        rec["skip"] = f"unreadable .sim ({e})"
        return rec
    text = read_text(os.path.join(folder, prog))
    expected, why = og_label(tree, name, text)
    memory = og_memory_label(tree, name) if expected is None or name.startswith("memcheck/") else None
    if memory:
        expected, why = memory
        rec["suite"] = "oclgrind-memory"
        rec["checks"] = "all"
    rec["expected"] = expected
    rec["label"] = why
    if expected is None:
        rec["skip"] = "out of scope: " + why
        return rec
    cflags = []
    for i, a in enumerate(extra):
        if a == "--build-options" and i + 1 < len(extra):
            cflags += extra[i + 1].split()
    rec["flags"] = " ".join(extra)
    if any(g % l for g, l in zip(glob, local)) and not any(f.startswith("-cl-std=CL2") or f.startswith("-cl-std=CL3")
                                                          for f in cflags):
        # OpenCL 1.x refuses the launch (CL_INVALID_WORK_GROUP_SIZE); 2.0 runs a smaller last group (row 2a)
        rec["skip"] = "non-uniform work-groups without OpenCL 2.0 or later: no real launch has them"
        return rec
    kernel = [f for f in top_level(text) if f["kernel"] and f["body"] and f["name"] == entry]
    if not kernel:
        rec["skip"] = f"kernel {entry} not found in {prog}"
        return rec
    params = parameters(kernel[0]["params"])
    launch = {"args": {}, "sizes": {}, "data": {}, "alias": {}, "flags": {}, "null": set()}
    described = []
    try:
        for pname, kind, type_name in params:
            head = sim.header()
            described.append(f"{pname}: <{head}>")
            toks = head.split()
            size = typ = fill = rng = None
            hexmode = noinit = null = False
            flags = []
            for t in toks:
                if t in TYPE_SIZES:
                    typ = t
                elif t.startswith("size="):
                    size = int(t[5:])
                elif t.startswith("fill="):
                    fill = t[5:]
                elif t.startswith("range="):
                    rng = t[6:]
                elif t == "hex":
                    hexmode = True
                elif t == "noinit":
                    noinit = True
                elif t == "null":
                    null = True
                elif t == "ro":
                    flags = ["CL_MEM_READ_ONLY"]
                elif t == "wo":
                    flags = ["CL_MEM_WRITE_ONLY"]
                elif t == "dump":
                    pass
                else:
                    raise ValueError(f"unknown header token {t!r}")
            if null:
                launch["null"].add(pname)
                continue
            if size is None:
                raise ValueError(f"{pname}: size required")
            if typ is None:
                typ = next((t for t in TYPE_PREFIXES if type_name.startswith(t)),
                           "uchar" if type_name.startswith("void*") else None)
                if typ is None:
                    raise ValueError(f"{pname}: no default type for {type_name!r}")
            tsize = TYPE_SIZES[typ]
            if size % tsize:
                raise ValueError(f"{pname}: {typ} does not divide size {size}")
            if kind == "local":
                launch["sizes"][pname] = size
                continue
            count = size // tsize
            if noinit:
                data = None
            elif fill is not None:
                data = og_value(fill, typ, hexmode) * count
            elif rng is not None:
                start, inc, end = rng.split(":")
                if typ in ("float", "double"):
                    s, d, e = float(start), float(inc), float(end)
                else:
                    s, d, e = (int(x, 16 if hexmode else 10) for x in (start, inc, end))
                n = (e - s + d) / d
                if n != int(n) or int(n) * tsize != size:
                    raise ValueError(f"{pname}: range does not produce {size} bytes")
                data = b"".join(range_value(s + i * d, typ) for i in range(int(n)))
            else:
                data = b"".join(og_value(sim.token(), typ, hexmode) for _ in range(count))
            if kind == "scalar":
                launch["args"][pname] = "0x" + data[::-1].hex().upper()
            elif kind in ("global", "constant"):
                if size == 0:
                    # OpenCL has no zero-sized buffer (clCreateBuffer: CL_INVALID_BUFFER_SIZE); the nearest
                    # real launch passes NULL, through which any access is a finding, as through no bytes.
                    launch["null"].add(pname)
                    continue
                launch["sizes"][pname] = size
                if flags:
                    launch["flags"][pname] = flags
                if data is not None:
                    launch["data"][pname] = data
            else:
                raise ValueError(f"{pname}: {kind} arguments are not converted")
        if not sim.at_end():
            raise ValueError("tokens after the last argument")
    except ValueError as e:
        rec["skip"] = f"unconvertible .sim ({e})"
        return rec
    rec["arguments"] = described
    rec["text"] = text
    rec["kernel_name"] = os.path.basename(prog)
    rec["strict"] = False
    rec["launches"] = [{"entry": entry, "params": params, "inst": {"language": "OpenCL", "endianness": "little",
                                                                   "global_size": glob, "local_size": local,
                                                                   "compiler_flags": " ".join(cflags)},
                        "launch": launch, "address_bits": 64}]
    return rec


# ---------------------------------------------------------------------------------------------------------
# Running and scoring


def normalise(reason):
    r = re.sub(r"[\w./-]*\.cl:\d+(:\d+)?", "FILE:N", reason or "")
    r = re.sub(r"\b\d+\b", "N", r)
    r = re.sub(r"\s+", " ", r).strip()
    return r[:200]


COMPILE_ERROR = re.compile(r":\d+(:\d+)?: error: ")


def clang_rejects(text, flags):
    """Clang 16's first error for the kernel as OpenCL C 1.2 (the options of the analyzer's front end), or
    None when it compiles. Confirms, independently of clcapture-verify, that a test is not OpenCL C."""
    clang = shutil.which("clang-16") or shutil.which("clang")
    if not clang:
        return None
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "kernel.cl")
        with open(path, "w") as f:
            f.write(text)
        cmd = [clang, "-fsyntax-only", "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
               "-Xclang", "-fdeclare-opencl-builtins", "-target", "spir", "-fno-caret-diagnostics"] + \
            flags.split() + [path]
        r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 0:
        return None
    first = next((line for line in r.stderr.splitlines() if ": error: " in line), r.stderr.strip()[:200])
    return first.replace(path, "kernel.cl")


def run_one(rec, verify, timeout, scratch, keep):
    """Builds each launch's capture folder, runs clcapture-verify, aggregates over the test's kernels."""
    results = []
    total = 0.0
    for launch in rec["launches"]:
        folder = os.path.join(scratch, rec["suite"], rec["name"].replace("/", "__"), launch["entry"])
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        params = [(p, kind) for p, kind, _ in launch["params"]]
        inst = json.loads(json.dumps(launch["inst"]))
        run_kernel.build_capture(folder, rec["kernel_name"], rec["text"], launch["entry"], params, inst,
                                 launch["launch"], address_bits=launch["address_bits"])
        # The race tables' labels are about races and divergence: they are asked those alone (memory safety,
        # on by default, has tables of its own, checks "all").
        cmd = [verify, "--format=json", "--no-cache", f"--timeout={timeout}"] + (["--strict"] if rec.get("strict") else []) + \
            [f"--checks={rec.get('checks', 'races,divergence')}"] + \
            [os.path.join(folder, "captures.json")]
        t0 = time.monotonic()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=max(3 * timeout, 120))
            rc, out, err = r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = None, "", f"killed after {max(3 * timeout, 120)} s"
        wall = time.monotonic() - t0
        total += wall
        one = {"entry": launch["entry"], "exit": rc, "seconds": round(wall, 3)}
        try:
            res = json.loads(out)["results"][0]
            one.update(verdict=res["verdict"], reason=res.get("reason", ""),
                       findings=[{"kind": f["kind"], "severity": f["severity"], "message": f["message"]}
                                 for f in res.get("findings", [])])
        except (ValueError, KeyError, IndexError, TypeError):
            first = (err.strip().split("\n") or [""])[0]
            one.update(verdict="error", reason=f"exit {rc}: {first}" if rc is not None else err)
        results.append(one)
        if keep:
            dest = os.path.join(keep, rec["suite"], rec["name"], launch["entry"])
            shutil.copytree(folder, dest, dirs_exist_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
    rec["runs"] = results
    rec["seconds"] = round(total, 3)
    verdicts = [r["verdict"] for r in results]
    # The test's verdict over its kernels (GPUVerify checks every kernel of the file).
    for v in ("defects", "error", "unknown", "verified"):
        if v in verdicts:
            rec["verdict"] = v
            break
    rec["reason"] = next((r["reason"] for r in results if r["verdict"] == rec["verdict"]), "")
    if rec["verdict"] == "error" and COMPILE_ERROR.search(rec["reason"]):
        rejected = clang_rejects(rec["text"], rec["launches"][0]["inst"].get("compiler_flags", ""))
        if rejected:
            # Not OpenCL C: no driver builds it, so no capture of it can exist (GPUVerify's own front end
            # is more lenient: event_t is an int there, struct kernel parameters may hold pointers).
            rec["skip"] = "not OpenCL C: Clang rejects the kernel (GPUVerify's front end accepts it)"
            rec["skip_detail"] = rejected
            return rec
    exp, got = rec["expected"], rec["verdict"]
    if got == exp:
        rec["outcome"] = "agree"
    elif got == "verified":
        rec["outcome"] = "unsound"
    elif got == "defects":
        rec["outcome"] = "false alarm"
    else:
        rec["outcome"] = got  # unknown | error
    return rec


OUTCOMES = ["agree", "unsound", "false alarm", "unknown", "error"]


def summarise(records, suites):
    lines = []
    md = []
    table = ["| suite | tests | skipped | run | agree | UNSOUND | false alarm | unknown | error | agreement | "
             "max s | median s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for suite in suites:
        recs = [r for r in records if r["suite"] == suite]
        if not recs:
            continue
        in_scope = [r for r in recs if not r.get("skip", "").startswith("out of scope")]
        skipped = [r for r in in_scope if r.get("skip")]
        ran = [r for r in in_scope if not r.get("skip") and "outcome" in r]
        counts = {o: sum(1 for r in ran if r["outcome"] == o) for o in OUTCOMES}
        times = [r["seconds"] for r in ran]
        agree = 100.0 * counts["agree"] / len(ran) if ran else 0.0
        mx = max(times) if times else 0.0
        med = statistics.median(times) if times else 0.0
        lines.append(f"{suite}: {len(in_scope)} tests ({len(recs) - len(in_scope)} more out of scope), "
                     f"{len(skipped)} skipped, {len(ran)} run: agree {counts['agree']}, UNSOUND {counts['unsound']}, "
                     f"false alarm {counts['false alarm']}, unknown {counts['unknown']}, error {counts['error']}; "
                     f"agreement {agree:.1f} %; time max {mx:.2f} s, median {med:.2f} s")
        table.append(f"| {suite} | {len(in_scope)} | {len(skipped)} | {len(ran)} | {counts['agree']} | "
                     f"{counts['unsound']} | {counts['false alarm']} | {counts['unknown']} | {counts['error']} | "
                     f"{agree:.1f} % | {mx:.2f} | {med:.2f} |")
        by_expect = {}
        for r in ran:
            by_expect.setdefault(r["expected"], {o: 0 for o in OUTCOMES})[r["outcome"]] += 1
        for exp in sorted(by_expect):
            c = by_expect[exp]
            lines.append(f"  expected {exp}: " + ", ".join(f"{o} {c[o]}" for o in OUTCOMES))
    md.append("\n".join(table))
    by_label = ["| suite | label | run | agree | UNSOUND | false alarm | unknown | error |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for suite in suites:
        ran = [r for r in records if r["suite"] == suite and "outcome" in r]
        for exp in ("defects", "verified"):
            rs = [r for r in ran if r["expected"] == exp]
            if rs:
                by_label.append(f"| {suite} | {exp} | {len(rs)} | " + " | ".join(
                    str(sum(1 for r in rs if r["outcome"] == o)) for o in OUTCOMES) + " |")
    md.append("\n" + "\n".join(by_label))

    def group(recs, key):
        g = {}
        for r in recs:
            g.setdefault(key(r), []).append(r)
        return sorted(g.items(), key=lambda kv: (-len(kv[1]), kv[0]))

    for suite in suites:
        recs = [r for r in records if r["suite"] == suite]
        if not recs:
            continue
        md.append(f"\n### {suite}: skipped tests by reason\n\n| reason | tests | which |\n|---|---:|---|")
        lines.append(f"\n{suite}: skipped by reason")
        for reason, rs in group([r for r in recs if r.get("skip")], lambda r: r["skip"]):
            names = ", ".join(r["name"] + (f" ({r['skip_detail']})" if r.get("skip_detail") else "") for r in rs)
            lines.append(f"  {len(rs):4d}  {reason}")
            md.append(f"| {reason} | {len(rs)} | {names} |")
    ran = [r for r in records if "outcome" in r]
    for title, outcome in (("UNSOUND (verified where the label says defects)", "unsound"),
                           ("False alarms (defects where the label says verified)", "false alarm")):
        rs = [r for r in ran if r["outcome"] == outcome]
        lines.append(f"\n{title}: {len(rs)}")
        md.append(f"\n### {title}: {len(rs)}\n")
        if rs:
            md.append("| suite | test | label | got | first finding / reason |\n|---|---|---|---|---|")
        for r in rs:
            first = next((f["message"] for run in r["runs"] for f in run.get("findings", [])), r.get("reason", ""))
            lines.append(f"  {r['suite']}/{r['name']}: expected {r['expected']}, got {r['verdict']}  {first[:150]}")
            md.append(f"| {r['suite']} | {r['name']} | {r.get('label', '')} | {r['verdict']} | "
                      f"{first[:160].replace('|', '/')} |")
    for outcome in ("unknown", "error"):
        rs = [r for r in ran if r["outcome"] == outcome]
        lines.append(f"\n{outcome}: {len(rs)} by reason")
        md.append(f"\n### {outcome}: {len(rs)}, by reason (file:line and numbers replaced by FILE:N, N)\n")
        if rs:
            md.append("| tests | reason | which |\n|---:|---|---|")
        for reason, group_rs in group(rs, lambda r: normalise(r.get("reason", ""))):
            lines.append(f"  {len(group_rs):4d}  {reason}")
            md.append(f"| {len(group_rs)} | {reason.replace('|', '/')} | "
                      f"{', '.join(r['suite'] + '/' + r['name'] for r in group_rs)} |")
    slow = sorted(ran, key=lambda r: -r["seconds"])[:10]
    lines.append("\nslowest:")
    md.append("\n### Slowest 10\n\n| seconds | suite | test | verdict | expected |\n|---:|---|---|---|---|")
    for r in slow:
        flag = "  > 30 s" if r["seconds"] > SLOW_SECONDS else ""
        lines.append(f"  {r['seconds']:8.2f} s  {r['suite']}/{r['name']} ({r['verdict']}, expected {r['expected']}){flag}")
        md.append(f"| {r['seconds']:.2f}{' (> 30 s)' if flag else ''} | {r['suite']} | {r['name']} | {r['verdict']} | "
                  f"{r['expected']} |")
    return "\n".join(lines), "\n".join(md)


def file_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpuverify", metavar="DIR")
    ap.add_argument("--oclgrind", metavar="DIR")
    ap.add_argument("--verify", default=os.path.join(REPO, "build", "bin", "clcapture-verify"))
    ap.add_argument("-j", type=int, default=2, dest="jobs")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only", default="")
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--markdown", metavar="OUT")
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--list", action="store_true", help="convert and print the decisions, run nothing")
    a = ap.parse_args()
    if not a.gpuverify and not a.oclgrind:
        ap.error("give --gpuverify DIR and/or --oclgrind DIR")
    if not a.list and not os.access(a.verify, os.X_OK):
        ap.error(f"{a.verify} is not an executable")
    scratch = tempfile.mkdtemp(prefix="third-party-suites-")
    try:
        records, suites, commits = [], [], {}
        if a.gpuverify:
            tree = Tree(a.gpuverify, ["testsuite/OpenCL"], scratch)
            commits["gpuverify"] = commits["gpuverify-memory"] = tree.commit
            suites += ["gpuverify", "gpuverify-memory"]
            records += [gv_convert(tree, n) for n in gv_tests(tree) if a.only in "gpuverify/" + n]
        if a.oclgrind:
            tree = Tree(a.oclgrind, ["tests/kernels"], scratch)
            commits["oclgrind"] = commits["oclgrind-memory"] = tree.commit
            suites += ["oclgrind", "oclgrind-memory"]
            records += [og_convert(tree, n) for n in og_tests(tree) if a.only in "oclgrind/" + n]
        todo = [r for r in records if not r.get("skip")]
        if a.list:
            for r in records:
                print(f"{r['suite']}/{r['name']}: " + (f"skip: {r['skip']}" + (f" ({r['skip_detail']})" if
                      r.get("skip_detail") else "") if r.get("skip") else
                      f"expect {r['expected']}: " + "; ".join(
                          f"{l['entry']} {json.dumps(l['inst'])} args={l['launch']['args']} "
                          f"sizes={l['launch']['sizes']} data={sorted(l['launch']['data'])}" for l in r["launches"])))
            return 0
        binary_before = file_hash(a.verify)
        started = time.monotonic()
        done = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            futures = [pool.submit(run_one, r, a.verify, a.timeout, scratch, a.keep) for r in todo]
            for f in concurrent.futures.as_completed(futures):
                r = f.result()
                done += 1
                print(f"[{done}/{len(todo)}] {r['suite']}/{r['name']}: {r['verdict']} (expected {r['expected']}, "
                      f"{r.get('outcome', 'skipped: ' + r.get('skip', ''))}, {r['seconds']:.2f} s)",
                      file=sys.stderr, flush=True)
        text, md = summarise(records, suites)
        commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        version = subprocess.run([a.verify, "--version"], capture_output=True, text=True).stdout.strip()
        binary_after = file_hash(a.verify)
        binary = binary_before if binary_before == binary_after else \
            f"{binary_before} replaced by {binary_after} during the run: the numbers mix two builds"
        head = (f"clcapture {commit}{' (working tree modified)' if dirty else ''}, {version} (sha256 {binary}), "
                f"{datetime.date.today().isoformat()}, --timeout={a.timeout}, -j {a.jobs}, "
                f"wall {time.monotonic() - started:.0f} s; suites: " +
                ", ".join(f"{s} {commits[s][:12]}" for s in suites))
        print(head)
        print(text)
        if a.markdown:
            with open(a.markdown, "w", encoding="utf-8") as f:
                f.write(f"<!-- {head} -->\n\n{md}\n")
        if a.json:
            with open(a.json, "w", encoding="utf-8") as f:
                json.dump({"header": head, "commits": commits,
                           "tests": [{k: v for k, v in r.items() if k not in ("text",)} for r in records]},
                          f, indent=1, default=lambda o: sorted(o) if isinstance(o, set) else
                          f"{len(o)} bytes" if isinstance(o, bytes) else str(o))
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
