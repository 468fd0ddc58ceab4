#!/usr/bin/python3
"""clcapture-instrument (docs/device-debugging.md): kernels written here, instrumented; the trace layout checked
site by site (kinds, lines, values' names, types, classes, sizes, words), the instrumented source compiled by
Debian's clang-16 (syntax, then spir64 code generation), and — without clcapture-replay — run on PoCL through
ctypes (opencl_ctypes.py) plain and instrumented from the same inputs: the buffers must be equal, and the trace's
records must hold the values computed here.

usage: instrument_test.py --instrument BIN [--debug BIN] [SCENARIO ...]   (default: every scenario)

SCENARIO
  reduction  a __local tree reduction (barrier, for loop, single-statement if body), two groups of 8,
             `--record-items 'get_group_id(0) == 1'`: group 1 alone records, each work-item's records are exactly
             the statements it ran with the values of a reduction simulated here; a trace too small drops whole
             records, counts them in word 1 and leaves the outputs alone
  helper     a helper called twice from another, a prototype before its definition: both declarations get the
             trace parameters, every call passes them, entry and return records in call order with their values;
             another kernel calling the helper keeps its signature, passes null trace arguments, runs as before
  branches   if / else if / else, while and for with single-statement bodies (braces added), a return in a
             single-statement body: every work-item's path and values
  effects    conditions, increments and returned values with side effects (`k++ < 3`, `(k = next(c)) >= 0`,
             an atomic counter): each evaluated once, in order; the recorded values are those of each evaluation
  shapes     a struct (typedef'd and tagged), float4, float3 (16 bytes, padding lane 0), bool, size_t, char,
             a member and a lane assigned: sizes, words, classes and the recorded bytes
  macros     a macro-generated statement (`ACC(x);`), a do-while(0) macro (`SWAP(a, b);`: a and b, not its
             temporary), a call inside a macro body (the macro gets the arguments), two statements written
             inside a macro body (no site, no broken code), statements between `BEGIN` and `END` macros (the file's)
  items      `--record-items 'get_global_id(0) == 3 || get_global_id(0) == 12'`: only those record; a
             predicate that does not compile is an error naming --record-items
  inject     `--inject SITE:SEQ:ITEM:scratch[lid]=1000` changes the launch's result and the recorded value;
             an LVALUE not in scope fails naming it (exit 1, nothing written); a site that does not exist, a
             condition site, a malformed value: exit 1
  options    --options "-DWIDTH=4" (a word beginning with '-'): the macro is defined; without it the source does
             not parse (exit 10)
  bad-input  a kernel name the source does not define (exit 1, the kernels listed), a syntax error (exit 10,
             Clang's file:line: message), a missing file (10), missing options (1); the program links Clang 16
             and never Oclgrind or LLVM 14 (and clcapture-debug never Clang 16)
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from debug_testing import POCL, Failure, check  # noqa: E402
from instrument_testing import Trace, as_float, as_int, clang_compiles, instrument, trace_buffer  # noqa: E402
from opencl_ctypes import Local, Scalar  # noqa: E402

os.environ.setdefault("OCL_ICD_VENDORS", POCL)
_device = None


def device():
    global _device
    if _device is None:
        from opencl_ctypes import Device
        _device = Device()
    return _device


def source_file(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def value(site, name, **want):
    """The value `name` of `site`'s layout, its fields checked against `want`."""
    found = [v for v in site["values"] if v["name"] == name]
    check(len(found) == 1, f"site {site['id']} ({site['text']!r}) records {[v['name'] for v in site['values']]}, "
                           f"expected one {name}")
    v = found[0]
    for key, expected in want.items():
        check(v.get(key) == expected, f"site {site['id']} value {name}: {key} is {v.get(key)!r}, expected {expected!r}")
    return v


def names(site):
    return [v["name"] for v in site["values"]]


def check_site_words(layout):
    for s in layout["sites"]:
        check(s["words"] == 3 + sum(v["words"] for v in s["values"]), f"site {s['id']}: words is not 3 + values'")
        for v in s["values"]:
            check(v["words"] == (v["size"] + 3) // 4, f"site {s['id']} value {v['name']}: words is not size / 4")
            check(v["class"] in ("int", "uint", "float", "double", "half", "bool", "pointer", "bytes"),
                  f"class {v['class']}")
    check([s["id"] for s in layout["sites"]] == list(range(len(layout["sites"]))), "site ids are not 0, 1, 2, …")


def run_both(source, instrumented, kernel, args, global_size, local_size, capacity=1 << 16):
    """The kernel run plain and instrumented from the same inputs; the instrumented run's buffers equal the
    plain run's. Returns (plain buffers, trace)."""
    plain = device().run(source, kernel, args, global_size, local_size)
    traced = device().run(instrumented.full, kernel, args + [trace_buffer(capacity)], global_size, local_size)
    for i, (a, b) in enumerate(zip(plain, traced)):
        check(a == b, f"argument {i}: the instrumented kernel wrote other bytes than the plain one")
    print(f"PoCL: plain and instrumented runs wrote the same {sum(1 for b in plain if b is not None)} buffers")
    trace = Trace(traced[-1], instrumented.layout)
    return plain, trace


def replayed(trace, layout, item):
    """One work-item's records as (kind, function, line, {value name: words})."""
    sites = {s["id"]: s for s in layout["sites"]}
    out = []
    for site_id, _, _, words in trace.by_item().get(item, []):
        s = sites[site_id]
        values, at = {}, 0
        for v in s["values"]:
            values[v["name"]] = words[at:at + v["words"]]
            at += v["words"]
        out.append((s["kind"], s["function"], s["line"], values))
    return out


REDUCTION = """\
__kernel void reduce(__global const int *in, __global int *partial, __local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
"""


def reduction_expected(inputs, group, lid, local=8):
    """What work-item `lid` of `group` records, simulated: (kind, line, {name: value}) per record."""
    scratch = list(inputs[group * local:(group + 1) * local])
    out = [("entry", 1, {}), ("statement", 2, {"lid": lid}), ("statement", 3, {"scratch[lid]": scratch[lid]}),
           ("barrier", 4, {})]
    s = local // 2
    while s > 0:
        out.append(("condition", 5, {"condition": 1, "s": s}))
        out.append(("condition", 6, {"condition": int(lid < s)}))
        scratch = [scratch[i] + scratch[i + s] if i < s else scratch[i] for i in range(local)]
        if lid < s:
            out.append(("statement", 7, {"scratch[lid]": scratch[lid]}))
        out.append(("barrier", 8, {}))
        s //= 2
    out.append(("condition", 5, {"condition": 0, "s": 0}))
    out.append(("condition", 10, {"condition": int(lid == 0)}))
    if lid == 0:
        out.append(("statement", 11, {"partial[get_group_id(0)]": scratch[0]}))
    return out


def compare_records(got, expected, item):
    check(len(got) == len(expected), f"work-item {item}: {len(got)} records, expected {len(expected)}: "
                                     f"{[(g[0], g[2]) for g in got]}")
    for n, ((kind, _, line, values), (want_kind, want_line, want_values)) in enumerate(zip(got, expected)):
        check((kind, line) == (want_kind, want_line),
              f"work-item {item} record {n}: {kind} at line {line}, expected {want_kind} at line {want_line}")
        for name, want in want_values.items():
            check(name in values, f"work-item {item} record {n}: no value {name}")
            check(as_int(values[name]) == want,
                  f"work-item {item} record {n} (line {line}): {name} = {as_int(values[name])}, expected {want}")


def scenario_reduction(args, tmp):
    path = source_file(tmp, "reduce.cl", REDUCTION)
    result = instrument(args.instrument, path, "reduce", ["--record-items", "get_group_id(0) == 1"])
    layout = result.layout
    check_site_words(layout)
    check(layout["format"] == "clcapture-trace-layout/1" and layout["kernel"] == "reduce", "format, kernel")
    check(layout["trace_argument"] == 3 and layout["header_words"] == 4, "trace_argument 3, header_words 4")
    check(layout["record_items"] == "get_group_id(0) == 1", "record_items")
    check(layout["functions"] == [{"name": "reduce", "kernel": True, "line": 1, "end_line": 12}],
          f"functions: {layout['functions']}")
    entry = result.sites("entry")[0]
    check(entry["line"] == 1 and entry["column"] == 1 and entry["words"] == 9, f"entry site {entry}")
    for name in ("in", "partial", "scratch"):
        value(entry, name, **{"class": "pointer", "size": 8, "words": 2, "declares": True, "scope_end_line": 12})
    value(entry, "scratch", type="__local int *")
    value(result.site_at(2), "lid", type="size_t", size=8, words=2, declares=True, scope_end_line=12,
          lvalue=False, **{"class": "uint"})
    value(result.site_at(3), "scratch[lid]", type="int", size=4, words=1, lvalue=True, declares=False,
          **{"class": "int"})
    for line in (4, 8):
        check(result.site_at(line, "barrier")["values"] == [], "a barrier records no value")
    loop = result.site_at(5, "condition")
    check(names(loop) == ["condition", "s"] and loop["text"] == "s > 0", f"the loop's condition site: {loop}")
    value(loop, "s", type="uint", declares=True, scope_end_line=9)
    check(names(result.site_at(6, "condition")) == ["condition"], "if (lid < s) records its condition only")
    check(result.site_at(7)["text"] == "scratch[lid] += scratch[lid + s];", "the += site's text")
    value(result.site_at(11), "partial[get_group_id(0)]", lvalue=True)
    check(len(layout["sites"]) == 10, f"{len(layout['sites'])} sites, expected 10")
    check("__global uint *clcapture_trace)" in result.source, "the trace parameter is the kernel's last")
    check("{ scratch[lid] += scratch[lid + s]; clcapture_rec_" in result.source,
          "the single-statement body of `if (lid < s)` is braced with its record")
    check(result.source.count("\n") == REDUCTION.count("\n"), "the instrumented source has the original's lines")
    check("__clc_" not in result.source, "a generated name uses libclc's prefix")
    clang_compiles(result.full)

    inputs = [(i * 37 + 11) % 101 - 50 for i in range(16)]
    data = struct.pack("<16i", *inputs)
    args_ = [data, bytes(8), Local(32)]
    plain, trace = run_both(REDUCTION, result, "reduce", args_, [16], [8])
    check(struct.unpack("<2i", plain[1]) == (sum(inputs[:8]), sum(inputs[8:])), "the reduction's sums")
    trace.check_structure(16)
    check(trace.dropped == 0, "records were dropped")
    check(sorted(trace.by_item()) == list(range(8, 16)), f"recorded work-items {sorted(trace.by_item())}, "
                                                          "expected group 1's (8 … 15)")
    for item in range(8, 16):
        compare_records(replayed(trace, layout, item), reduction_expected(inputs, 1, item - 8), item)
    print("trace: group 1's work-items recorded every statement they ran, with the simulated values")

    # A trace of 40 words: whole records dropped and counted, sequence numbers still unique, outputs the same.
    _, short = run_both(REDUCTION, result, "reduce", args_, [16], [8], capacity=40)
    short.check_structure(16)
    check(short.dropped > 0 and short.cursor > short.capacity, f"a 40-word trace: {short.dropped} dropped, "
                                                               f"cursor {short.cursor}")
    check(sum(layout["sites"][r[0]]["words"] for r in short.records) <= 40, "records past the capacity")
    total = sum(len(reduction_expected(inputs, 1, lid)) for lid in range(8))
    check(len(short.records) + short.dropped == total, f"{len(short.records)} kept + {short.dropped} dropped, "
                                                       f"expected {total} records in all")
    print(f"a 40-word trace: {len(short.records)} records kept, {short.dropped} dropped and counted")


HELPER = """\
int twice(int x) { return 2 * x; }
float scale(float v, float by);
void put(global int *a, size_t i, int v) {
  a[i] = twice(v) + twice(v + 1);
}
float scale(float v, float by) { return v * by; }
kernel void helper(global int *a, global float *f) {
  size_t i = get_global_id(0);
  put(a, i, (int)i);
  f[i] = scale((float)i, 0.5f);
}
kernel void other(global int *a) { a[0] = twice(21); }
"""


def scenario_helper(args, tmp):
    path = source_file(tmp, "helper.cl", HELPER)
    result = instrument(args.instrument, path, "helper")
    layout = result.layout
    check_site_words(layout)
    check([(f["name"], f["kernel"], f["line"]) for f in layout["functions"]] ==
          [("twice", False, 1), ("put", False, 3), ("scale", False, 6), ("helper", True, 7)],
          f"functions: {layout['functions']}")
    src = result.source
    check("int twice(int x, __global uint *clcapture_t, uint *clcapture_s)" in src, "twice's parameters")
    check(src.count("float scale(float v, float by, __global uint *clcapture_t, uint *clcapture_s)") == 2,
          "the prototype and the definition of scale both get the parameters")
    check(src.count("twice(v, clcapture_t, clcapture_s)") == 1 and
          src.count("twice(v + 1, clcapture_t, clcapture_s)") == 1, "both calls of twice pass them on")
    check("put(a, i, (int)i, clcapture_t, clcapture_s)" in src, "the kernel's call passes them")
    check("kernel void helper(global int *a, global float *f, __global uint *clcapture_trace)" in src,
          "the kernel's trace parameter")
    value(result.sites("entry", "twice")[0], "x", type="int", declares=True, scope_end_line=1)
    value(result.sites("return", "twice")[0], "return", type="int", words=1, **{"class": "int"})
    value(result.sites("return", "scale")[0], "return", type="float", **{"class": "float"})
    put_entry = result.sites("entry", "put")[0]
    check(names(put_entry) == ["a", "i", "v"], f"put's entry values {names(put_entry)}")
    value(put_entry, "i", type="size_t", size=8, **{"class": "uint"})
    value(put_entry, "a", **{"class": "pointer"})
    check(result.site_at(9)["values"] == [], "a call statement passing no address records nothing")
    check("kernel void other(global int *a) { __global uint *clcapture_t = 0; uint *clcapture_s = 0; "
          "a[0] = twice(21, clcapture_t, clcapture_s); }" in src,
          "another kernel keeps its signature and passes null trace arguments to the helper")
    clang_compiles(src)
    check(struct.unpack("<i", device().run(src, "other", [bytes(4)], [1], [1])[0])[0] == 42,
          "the other kernel, instrumented source, runs as before")

    plain, trace = run_both(HELPER, result, "helper", [bytes(16), bytes(16)], [4], [4])
    check(struct.unpack("<4i", plain[0]) == (2, 6, 10, 14) and struct.unpack("<4f", plain[1]) == (0, .5, 1, 1.5),
          "the kernel's results")
    trace.check_structure(4)
    for item in range(4):
        got = [(k, f, {n: as_int(w) if n != "return" or f != "scale" else as_float(w[0])
                       for n, w in vals.items() if n not in ("a", "f")})
               for k, f, _, vals in replayed(trace, layout, item)]
        want = [("entry", "helper", {}), ("statement", "helper", {"i": item}),
                ("entry", "put", {"i": item, "v": item}),
                ("entry", "twice", {"x": item}), ("return", "twice", {"return": 2 * item}),
                ("entry", "twice", {"x": item + 1}), ("return", "twice", {"return": 2 * item + 2}),
                ("statement", "put", {"a[i]": 4 * item + 2}), ("statement", "helper", {}),
                ("entry", "scale", {"v": struct.unpack("<i", struct.pack("<f", float(item)))[0],
                                    "by": struct.unpack("<i", struct.pack("<f", 0.5))[0]}),
                ("return", "scale", {"return": item * 0.5}),
                ("statement", "helper", {"f[i]": struct.unpack("<i", struct.pack("<f", item * 0.5))[0]})]
        check(got == want, f"work-item {item}'s records:\n  {got}\nexpected\n  {want}")
    print("trace: each work-item's calls recorded in order, twice's two calls with their arguments and results")


BRANCHES = """\
kernel void branches(global int *out, int n) {
  int i = get_global_id(0);
  int r = 0;
  if (i % 2 == 0)
    r = i * 10;
  else if (i % 3 == 0)
    r = -i;
  else
    r = n;
  while (r > 30) r -= 30;
  for (int k = 0; k < 2; k++) r++;
  if (i == 7) return;
  out[i] = r;
}
"""


def branches_expected(i, n):
    out = [("entry", 1, {"n": n}), ("statement", 2, {"i": i}), ("statement", 3, {"r": 0}),
           ("condition", 4, {"condition": int(i % 2 == 0)})]
    if i % 2 == 0:
        r = i * 10
        out.append(("statement", 5, {"r": r}))
    else:
        out.append(("condition", 6, {"condition": int(i % 3 == 0)}))
        r = -i if i % 3 == 0 else n
        out.append(("statement", 7 if i % 3 == 0 else 9, {"r": r}))
    while True:
        out.append(("condition", 10, {"condition": int(r > 30)}))
        if r <= 30:
            break
        r -= 30
        out.append(("statement", 10, {"r": r}))
    for k in range(3):
        out.append(("condition", 11, {"condition": int(k < 2), "k": k}))
        if k < 2:
            r += 1
            out.append(("statement", 11, {"r": r}))
    out.append(("condition", 12, {"condition": int(i == 7)}))
    if i == 7:
        out.append(("return", 12, {}))
    else:
        out.append(("statement", 13, {"out[i]": r}))
    return out, (None if i == 7 else r)


def scenario_branches(args, tmp):
    path = source_file(tmp, "branches.cl", BRANCHES)
    result = instrument(args.instrument, path, "branches")
    check_site_words(result.layout)
    src = result.source.splitlines()
    for line in (5, 7, 9):
        check(src[line - 1].strip().startswith("{ r = ") and src[line - 1].rstrip().endswith("}"),
              f"line {line}'s single statement is braced with its record: {src[line - 1]!r}")
    check("{ r -= 30; clcapture_rec_" in src[9] and "{ r++; clcapture_rec_" in src[10], "loop bodies braced")
    check("{ clcapture_rec_" in src[11] and "return; }" in src[11], "the return's record before it, braced")
    check(names(result.site_at(11, "condition")) == ["condition", "k"], "the for's condition records k")
    check(result.site_at(12, "return")["values"] == [], "a kernel's return records no value")
    clang_compiles(result.full)
    plain, trace = run_both(BRANCHES, result, "branches", [bytes(64), Scalar(struct.pack("<i", 55))], [16], [16])
    trace.check_structure(16)
    for i in range(16):
        want, final = branches_expected(i, 55)
        compare_records(replayed(trace, result.layout, i), want, i)
        if final is not None:
            check(struct.unpack_from("<i", plain[0], 4 * i)[0] == final, f"out[{i}]")
    print("trace: every work-item's branch, loop iterations and values as simulated")


EFFECTS = """\
int next(global int *c) { return atomic_inc(c); }
int count(int *k) { return (*k)++; }
kernel void effects(global int *out, global int *c) {
  int i = get_global_id(0);
  int k = 0, calls = 0;
  while (k++ < 3) calls++;
  for (int j = 0; j < 3 && (calls += 10) > 0; j++) ;
  if ((k = next(c)) >= 0) calls += 100;
  int m = 5;
  int got = count(&m);
  do calls--; while (count(&m) < 8);
  out[i * 5 + 0] = calls;
  out[i * 5 + 1] = k >= 0;
  out[i * 5 + 2] = m;
  out[i * 5 + 3] = got;
  out[i * 5 + 4] = next(c) >= 0;
}
"""


def scenario_effects(args, tmp):
    path = source_file(tmp, "effects.cl", EFFECTS)
    result = instrument(args.instrument, path, "effects")
    check_site_words(result.layout)
    src = result.source
    check("(clcapture_c = (k++ < 3) ? 1 : 0, clcapture_rec_" in src,
          "a condition with side effects and other values is ordered by a comma operator")
    check(" int clcapture_c;" in src, "the condition temporary is declared")
    check(names(result.site_at(6, "condition")) == ["condition", "k"], "while (k++ < 3) records k")
    check(names(result.site_at(7, "condition")) == ["condition", "j", "calls"], "the for records j and calls")
    check(names(result.site_at(10)) == ["m", "got"], "count(&m) records m (its address passed) and got")
    clang_compiles(src)
    plain, trace = run_both(EFFECTS, result, "effects", [bytes(4 * 5 * 4), bytes(4)], [4], [4])
    trace.check_structure(4)
    for i in range(4):
        calls, k, m, got = struct.unpack_from("<4i", plain[0], 4 * 5 * i)
        check((calls, k, m, got) == (3 + 30 + 100 - 3, 1, 9, 5), f"work-item {i}: {calls, k, m, got}")
        records = replayed(trace, result.layout, i)
        loop = [as_int(v["k"]) for kind, _, line, v in records if kind == "condition" and line == 6]
        check(loop == [1, 2, 3, 4], f"while (k++ < 3): k recorded {loop}, expected 1 2 3 4 (one increment each)")
        fors = [(as_int(v["condition"]), as_int(v["calls"])) for kind, _, line, v in records
                if kind == "condition" and line == 7]
        check(fors == [(1, 13), (1, 23), (1, 33), (0, 33)], f"the for's conditions: {fors}")
        dos = [as_int(v["condition"]) for kind, _, line, v in records if kind == "condition" and line == 11]
        check(dos == [1, 1, 0], f"do-while count(&m) < 8: {dos}")
        rets = [as_int(v["return"]) for kind, f, _, v in records if kind == "return" and f == "count"]
        check(rets == [5, 6, 7, 8], f"count's returns {rets}")
    counter = struct.unpack("<i", plain[1])[0]
    check(counter == 8, f"next() ran {counter} times, expected 8 (twice per work-item)")
    print("every condition, increment and call evaluated once, in order; recorded values match")


SHAPES = """\
typedef struct { float x; int n; } Point;
struct Pair { short a; char b; };
kernel void shapes(global float4 *out, global int *flags) {
  int i = get_global_id(0);
  Point p = {1.5f, i};
  struct Pair q = {(short)(i - 2), 'c'};
  float4 v = (float4)(p.x, (float)i, 2.0f, 3.0f);
  float3 w = v.xyz;
  p.n += 2;
  v.w = 7.0f;
  bool odd = i & 1;
  char c = (char)(-i);
  size_t gid = get_global_id(0);
  int arr[2] = {1, 2};
  out[i] = v + (float4)(w, (float)(p.n + arr[1]));
  flags[i] = odd + c + (int)gid + q.a;
}
"""


def scenario_shapes(args, tmp):
    path = source_file(tmp, "shapes.cl", SHAPES)
    result = instrument(args.instrument, path, "shapes")
    check_site_words(result.layout)
    value(result.site_at(5), "p", type="Point", size=8, words=2, lanes=1, declares=True, **{"class": "bytes"})
    value(result.site_at(6), "q", type="struct Pair", size=4, words=1, **{"class": "bytes"})
    value(result.site_at(7), "v", type="float4", size=16, words=4, lanes=4, **{"class": "float"})
    value(result.site_at(8), "w", type="float3", size=16, words=4, lanes=3, **{"class": "float"})
    value(result.site_at(9), "p.n", type="int", lvalue=True, **{"class": "int"})
    value(result.site_at(10), "v.w", type="float", lvalue=True, **{"class": "float"})
    value(result.site_at(11), "odd", type="bool", size=4, words=1, **{"class": "bool"})
    value(result.site_at(12), "c", type="char", size=1, words=1, **{"class": "int"})
    value(result.site_at(13), "gid", type="size_t", size=8, words=2, **{"class": "uint"})
    check(result.site_at(14)["values"] == [], "an array is not recorded whole")
    clang_compiles(result.full)
    plain, trace = run_both(SHAPES, result, "shapes", [bytes(16 * 4), bytes(16)], [4], [4])
    trace.check_structure(4)
    for i in range(4):
        rec = {line: v for _, _, line, v in replayed(trace, result.layout, i)}
        check(rec[5]["p"] == struct.unpack("<2I", struct.pack("<fi", 1.5, i)), f"work-item {i}: p's bytes")
        q = struct.pack("<I", rec[6]["q"][0])
        check(q[:3] == struct.pack("<hb", i - 2, ord("c")), f"work-item {i}: q's bytes {q}")
        check([as_float(w) for w in rec[7]["v"]] == [1.5, i, 2.0, 3.0], f"work-item {i}: v")
        check([as_float(w) for w in rec[8]["w"][:3]] == [1.5, i, 2.0] and rec[8]["w"][3] == 0,
              f"work-item {i}: w = {rec[8]['w']} (its fourth word, padding, must be 0)")
        check(as_int(rec[9]["p.n"]) == i + 2 and as_float(rec[10]["v.w"][0]) == 7.0, f"work-item {i}: p.n, v.w")
        check(rec[11]["odd"][0] == i % 2, f"work-item {i}: odd recorded as {rec[11]['odd'][0]}")
        check(rec[12]["c"][0] & 0xff == (-i) & 0xff and rec[12]["c"][0] >> 8 == 0,
              f"work-item {i}: c = {rec[12]['c'][0]:#x} (one byte, the rest of its word 0)")
        check(as_int(rec[13]["gid"], signed=False) == i, f"work-item {i}: gid")
    print("struct, vector, bool, char and size_t values recorded as their bytes")


MACROS = """\
#define ACC(x) sum += (x)
#define SWAP(a, b) do { int t_ = a; a = b; b = t_; } while (0)
#define TWO x = 1; y = 2
#define CALL_SQ(v) sq(v)
#define BEGIN {
#define END }
int sq(int v) { return v * v; }
kernel void macros(global int *out) {
  int sum = 0, a = 1, b = 2, x = 0, y = 0;
  ACC(get_global_id(0));
  SWAP(a, b);
  TWO;
  sum = CALL_SQ(sum + a);
  if (sum > 0) BEGIN x += 3; y += 4; END
  out[get_global_id(0)] = sum * 100 + a * 10 + b + x + y;
}
"""


def scenario_macros(args, tmp):
    path = source_file(tmp, "macros.cl", MACROS)
    result = instrument(args.instrument, path, "macros")
    check_site_words(result.layout)
    acc = result.site_at(10)
    check(acc["text"] == "ACC(get_global_id(0));" and names(acc) == ["sum"], f"the ACC site: {acc}")
    swap = result.site_at(11)
    check(swap["text"] == "SWAP(a, b);" and names(swap) == ["a", "b"], f"the SWAP site: {swap}")
    check(not [s for s in result.layout["sites"] if s["line"] == 12],
          "statements written inside TWO's body got a site")
    check("#define CALL_SQ(v) sq(v, clcapture_t, clcapture_s)" in result.source,
          "a call written in a macro body passes the trace parameters there")
    check("#define ACC(x) sum += (x)\n" in result.source, "a macro without calls is left alone")
    between = [names(s) for s in result.layout["sites"] if s["line"] == 14 and s["kind"] == "statement"]
    check(between == [["x"], ["y"]], f"the statements between BEGIN and END are the file's: {between}")
    clang_compiles(result.full)
    plain, trace = run_both(MACROS, result, "macros", [bytes(16)], [4], [4])
    trace.check_structure(4)
    for i in range(4):
        rec = {line: v for _, f, line, v in replayed(trace, result.layout, i) if f == "macros"}
        check(as_int(rec[10]["sum"]) == i, f"work-item {i}: ACC recorded sum {as_int(rec[10]['sum'])}")
        check((as_int(rec[11]["a"]), as_int(rec[11]["b"])) == (2, 1), f"work-item {i}: SWAP recorded a, b")
        check(struct.unpack_from("<i", plain[0], 4 * i)[0] == (i + 2) ** 2 * 100 + 20 + 1 + 4 + 6, f"out[{i}]")
    print("macro-generated statements recorded at their expansion; the macro's inner statements left alone")


def scenario_items(args, tmp):
    path = source_file(tmp, "reduce.cl", REDUCTION)
    predicate = "get_global_id(0) == 3 || get_global_id(0) == 12"
    result = instrument(args.instrument, path, "reduce", ["--record-items", predicate])
    check(result.layout["record_items"] == predicate, "record_items is the predicate")
    check(f"__global uint *clcapture_t = ({predicate}) ? clcapture_trace : 0;" in result.source,
          "the predicate chooses the trace pointer")
    clang_compiles(result.full)
    inputs = list(range(16))
    _, trace = run_both(REDUCTION, result, "reduce", [struct.pack("<16i", *inputs), bytes(8), Local(32)], [16], [8])
    trace.check_structure(16)
    check(sorted(trace.by_item()) == [3, 12], f"recorded work-items {sorted(trace.by_item())}, expected 3 and 12")
    compare_records(replayed(trace, result.layout, 12), reduction_expected(inputs, 1, 4), 12)
    bad = instrument(args.instrument, path, "reduce", ["--record-items", "get_global_id(0) =="], want=1)
    check("--record-items" in bad.stderr and "expected expression" in bad.stderr, "the bad predicate's message")
    instrument(args.instrument, path, "reduce", ["--record-items", "1 // all"], want=1)


def scenario_inject(args, tmp):
    path = source_file(tmp, "reduce.cl", REDUCTION)
    plain = instrument(args.instrument, path, "reduce", show=False)
    site = plain.site_at(3)["id"]
    # Work-item 9 (group 1, lid 1): records entry (0), lid (1), then scratch[lid] (2).
    result = instrument(args.instrument, path, "reduce", ["--inject", f"{site}:2:9:scratch[lid]=1000"])
    check(result.layout == plain.layout, "an injection changes no site")
    check(f"if (clcapture_t && clcapture_item() == 9u && *clcapture_s == 2u) {{ scratch[lid] = (1000); }} "
          f"clcapture_rec_{site}(" in result.source, "the injection goes after the statement, before its record")
    clang_compiles(result.full)
    inputs = [5] * 16
    args_ = [struct.pack("<16i", *inputs), bytes(8), Local(32)]
    traced = device().run(result.full, "reduce", args_ + [trace_buffer(1 << 14)], [16], [8])
    check(struct.unpack("<2i", traced[1]) == (40, 35 + 1000), f"partial sums {struct.unpack('<2i', traced[1])}")
    trace = Trace(traced[-1], result.layout)
    nine = [r for r in trace.by_item()[9] if r[0] == site]
    check(nine and nine[0][2] == 2 and as_int(nine[0][3]) == 1000, f"work-item 9's record shows {nine}")
    eight = [r for r in trace.by_item()[8] if r[0] == site]
    check(as_int(eight[0][3]) == 5, "another work-item is unchanged")
    print("the injected value is recorded and the launch ran on from it")

    bad = instrument(args.instrument, path, "reduce", ["--inject", f"{site}:0:0:nosuchvar=1"], want=1)
    check("nosuchvar" in bad.stderr and "--inject" in bad.stderr, "the message names the variable and --inject")
    bad = instrument(args.instrument, path, "reduce", ["--inject", "99:0:0:lid=1"], want=1)
    check("no site 99" in bad.stderr, "a site that does not exist")
    cond = plain.site_at(5, "condition")["id"]
    bad = instrument(args.instrument, path, "reduce", ["--inject", f"{cond}:0:0:lid=1"], want=1)
    check("condition site" in bad.stderr, "a condition site takes no injection")
    for spec in ("3:0:x=1", "a:0:0:x=1", "3:0:0:x", "3:0:0:x==1"):
        instrument(args.instrument, path, "reduce", ["--inject", spec], want=1)


def scenario_options(args, tmp):
    text = "kernel void k(global int *o) {\n  int w = WIDTH;\n  o[get_global_id(0)] = w;\n}\n"
    path = source_file(tmp, "options.cl", text)
    result = instrument(args.instrument, path, "k", ["--options", "-DWIDTH=4 -cl-mad-enable"])
    value(result.site_at(2), "w", type="int")
    clang_compiles(result.full, "-DWIDTH=4")
    bad = instrument(args.instrument, path, "k", want=10)
    check("WIDTH" in bad.stderr and "options.cl:2:" in bad.stderr, "undeclared WIDTH, where")
    instrument(args.instrument, path, "k", ["--options", "-D'unterminated"], want=1)


def scenario_bad_input(args, tmp):
    path = source_file(tmp, "reduce.cl", REDUCTION + "kernel void other(global int *x) { x[0] = 1; }\n")
    bad = instrument(args.instrument, path, "nosuch", want=1)
    check("no kernel named 'nosuch'" in bad.stderr and "'other', 'reduce'" in bad.stderr, "the kernels listed")
    check(len(bad.stderr.strip().splitlines()) == 1, "one line")
    broken = source_file(tmp, "broken.cl", "kernel void k(global int *o) {\n  o[0] = 1\n  o[1] = 2;\n}\n")
    bad = instrument(args.instrument, broken, "k", want=10)
    check("broken.cl:2:" in bad.stderr and "error: expected ';'" in bad.stderr, "Clang's message with its line")
    bad = instrument(args.instrument, os.path.join(tmp, "missing.cl"), "k", want=10)
    check("cannot read" in bad.stderr, "a missing file")
    r = subprocess.run([args.instrument, path, "--output-source", "x", "--output-layout", "y"], capture_output=True,
                       text=True)
    check(r.returncode == 1 and "--kernel is required" in r.stderr, f"no --kernel: {r.returncode} {r.stderr}")
    instrument(args.instrument, path, "reduce", ["--address-bits", "48"], want=1)
    # The other kernel in the file keeps its signature and is not instrumented.
    ok = instrument(args.instrument, path, "reduce")
    check("kernel void other(global int *x) { x[0] = 1; }" in ok.source, "another kernel is left alone")
    clang_compiles(ok.full)
    ldd = subprocess.run(["ldd", args.instrument], capture_output=True, text=True).stdout
    check("libclang-cpp.so.16" in ldd and "libLLVM-16" in ldd, "clcapture-instrument links Clang 16")
    check("oclgrind" not in ldd.lower() and "LLVM-14" not in ldd, "clcapture-instrument links Oclgrind or LLVM 14")
    if args.debug:
        ldd = subprocess.run(["ldd", args.debug], capture_output=True, text=True).stdout
        check("libclang-cpp.so.16" not in ldd and "LLVM-16" not in ldd, "clcapture-debug links Clang/LLVM 16")
    print("bad input: one clear line and the documented exit status each")


SCENARIOS = {"reduction": scenario_reduction, "helper": scenario_helper, "branches": scenario_branches,
             "effects": scenario_effects, "shapes": scenario_shapes, "macros": scenario_macros,
             "items": scenario_items, "inject": scenario_inject, "options": scenario_options,
             "bad-input": scenario_bad_input}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("scenarios", nargs="*", default=[])
    p.add_argument("--instrument", required=True)
    p.add_argument("--debug")
    args = p.parse_args()
    failed = []
    unknown = [n for n in args.scenarios if n not in SCENARIOS]
    if unknown:
        p.error(f"unknown scenarios {unknown}; known: {', '.join(SCENARIOS)}")
    for name in args.scenarios or list(SCENARIOS):
        print(f"=== {name}")
        with tempfile.TemporaryDirectory() as tmp:
            try:
                SCENARIOS[name](args, tmp)
                print(f"ok: {name}")
            except Failure as e:
                print(f"FAIL: {name}: {e}")
                failed.append(name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
