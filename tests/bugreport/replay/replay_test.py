#!/usr/bin/python3
"""clcapture-replay on real drivers: captures made by the real layer (the clcapture launcher on PoCL),
replayed on PoCL through the system ICD loader and on Oclgrind's ICD opened directly (--icd).

usage: replay_test.py SCENARIO --replay BIN --launcher BIN --samples DIR

SCENARIO
  reduce         reduce captured with --data-after: the replayed partial sums are the known sums of the
                 captured input, the same as captured (--compare), on PoCL and Oclgrind; --output files
  memory-forms   sub-buffers that alias (one parent rebuilt, sub-buffers in it), the parent beside its own
                 sub-buffer, CL_MEM_HOST_NO_ACCESS: each output checked against its known values; the SVM
                 launch is reported as not replayable, with its reason (exit 6)
  struct-arg     a struct passed by value (the scalar's bytes from its hex value) replays the same bytes
  compare        a capture folder written here with data_after blobs: an integer mismatch, a float one ulp
                 off (different under --ulp 0, the same under --ulp 1), a float far off (different under
                 --ulp 1), a buffer without data_after ("nothing to compare")
  aliasing       a capture written here: one buffer passed twice (one cl_mem), launched by clEnqueueTask;
                 sub-buffers 4 bytes apart (no device allows it: reported); a global offset
  missing-data   buffers left without bytes (--data 16): the launch is reported with the layer's reason
                 and skipped; the write-only buffer alone would start zeroed (said so)
  binary         a program loaded from a binary whose source clcapture never saw (--store off): its launches
                 have no instantiation and are listed as not replayable, with the layer's reason
  repeat         reduce --racy replayed with --repeat 3 (a race need not show on a CPU: only the runs are
                 checked)
  command-line   exit codes: 1 for a bad --only, 10 for a missing or invalid capture
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
import sidecar_expand  # noqa: E402  (tools/: expands the sidecar's repeat entries)
import capture_blobs  # noqa: E402  (tools/: blobs loose or packed)

POCL = "/etc/OpenCL/vendors/pocl.icd"
OCLGRIND = "/usr/lib/oclgrind/liboclgrind-rt-icd.so"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(cmd, env=None, want=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    r = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=120)
    print("$ " + " ".join(cmd) + f"  -> {r.returncode}")
    if r.stdout.strip():
        print(r.stdout.rstrip())
    if r.stderr.strip():
        print(r.stderr.rstrip())
    if want is not None and r.returncode != want:
        raise Failure(f"{os.path.basename(cmd[0])} exited {r.returncode}, expected {want}")
    return r


def capture(args, folder, command, options=()):
    """The sample under the clcapture launcher on PoCL, into `folder`."""
    run([args.launcher, "--icd", POCL, "--dir", folder, *options, "--", *command], want=0)
    check(os.path.exists(os.path.join(folder, "captures.json")), "the launcher wrote no captures.json")


# Each driver a replay runs on: the system loader told to see PoCL only, and Oclgrind's ICD opened directly.
def drivers():
    return [("pocl", [], {"OCL_ICD_VENDORS": POCL}), ("oclgrind", ["--icd", OCLGRIND], {})]


def replay(args, folder, options, env=None, want=None):
    r = run([args.replay, folder, "--format=json", *options], env=env, want=want)
    try:
        return r, json.loads(r.stdout)
    except ValueError:
        raise Failure("clcapture-replay --format=json printed no JSON")


def ints(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack(f"<{len(data) // 4}i", data))


def scenario_reduce(args, work):
    folder = os.path.join(work, "reduce")
    capture(args, folder, [os.path.join(args.samples, "reduce")], ["--data-after"])
    captures = json.load(open(os.path.join(folder, "captures.json")))
    data = capture_blobs.read(folder, captures[0]["kernel_arguments"][0]["data"])
    inputs = list(struct.unpack(f"<{len(data) // 4}i", data))
    local = captures[0]["local_size"][0]
    expected = [sum(inputs[g * local:(g + 1) * local]) for g in range(len(inputs) // local)]
    for name, options, env in drivers():
        out = os.path.join(work, "out-" + name)
        r, report = replay(args, folder, ["--compare", "--output", out, *options], env=env, want=0)
        launch = report["launches"][0]
        check(launch["status"] == "replayed", f"{name}: status {launch['status']}")
        check(("Oclgrind" if name == "oclgrind" else "Portable Computing Language") in report["device"],
              f"{name}: replayed on {report['device']}")
        buffers = {b["name"]: b for b in launch["buffers"]}
        check(set(buffers) == {"partial"}, f"{name}: written buffers {sorted(buffers)}, expected partial only")
        check(buffers["partial"]["comparison"] == "same", f"{name}: partial: {buffers['partial']['comparison']}")
        check(buffers["partial"]["file"] == "0/arg1.bin", f"{name}: file {buffers['partial']['file']}")
        got = ints(os.path.join(out, "0", "arg1.bin"))
        check(got == expected, f"{name}: partial sums {got}, expected {expected}")
        on_disk = json.load(open(os.path.join(out, "replay.json")))
        check(on_disk["launches"][0]["buffers"][0]["comparison"] == "same", f"{name}: replay.json disagrees")
        text = run([args.replay, folder, "--compare", *options], env=env, want=0).stdout
        check("partial (argument 1): same as captured" in text, f"{name}: text report lacks the comparison")


def scenario_memory_forms(args, work):
    folder = os.path.join(work, "memory_forms")
    capture(args, folder, [os.path.join(args.samples, "memory_forms")], ["--data-after"])
    meta = sidecar_expand.load(folder)
    kinds = [[a["kind"] for a in launch["arguments"]] for launch in meta["launches"]]
    check(any("svm" in k for k in kinds), f"no SVM launch in the capture (PoCL without SVM?): {kinds}")
    for name, options, env in drivers():
        out = os.path.join(work, "out-" + name)
        r, report = replay(args, folder, ["--compare", "--output", out, *options], env=env, want=6)
        by_index = {l["index"]: l for l in report["launches"]}
        quarter = 64  # ints: PoCL's 128-byte alignment gives the sample 256-byte quarters
        # Launch 0: high = low + 1 (disjoint sub-buffers). 1: middle + low, overlapping sub-buffers of one
        # parent. 2: the parent and its own sub-buffer. 3: a CL_MEM_HOST_NO_ACCESS input.
        expect = {0: [i + 1 for i in range(2 * quarter)], 1: [quarter + 2 * i for i in range(quarter)],
                  2: [2 * i + 1 for i in range(quarter)], 3: [5000 + i + 1 for i in range(4 * quarter)]}
        for index, values in expect.items():
            launch = by_index[index]
            check(launch["status"] == "replayed", f"{name}: launch {index}: {launch['status']} {launch.get('reason')}")
            got = ints(os.path.join(out, str(index), "arg0.bin"))[:len(values)]
            check(got == values, f"{name}: launch {index}: dst starts {got[:6]}, expected {values[:6]}")
            check(launch["buffers"][0]["comparison"] == "same",
                  f"{name}: launch {index}: {launch['buffers'][0]['comparison']}")
        svm = [l for l in report["launches"] if l["status"] == "not-replayable"]
        check(len(svm) == 1 and "SVM pointer" in svm[0]["reason"], f"{name}: SVM launch not reported: {svm}")


def scenario_struct_arg(args, work):
    folder = os.path.join(work, "struct_arg")
    capture(args, folder, [os.path.join(args.samples, "struct_arg")], ["--data-after"])
    for name, options, env in drivers():
        r, report = replay(args, folder, ["--compare", *options], env=env, want=0)
        for launch in report["launches"]:
            check(launch["status"] == "replayed", f"{name}: {launch['status']} {launch.get('reason')}")
            check(all(b["comparison"] == "same" for b in launch["buffers"]), f"{name}: {launch['buffers']}")


COMPARE_KERNEL = """kernel void fill(global int *counts, global float *values, global float *far, global int *plain) {
  size_t i = get_global_id(0);
  counts[i] = (int)i * 3;
  values[i] = (float)i * 0.1f;
  far[i] = (float)i;
  plain[i] = (int)i;
}
"""


def write_compare_capture(folder):
    """A capture folder as the layer writes one with CLCAPTURE_DATA_AFTER, with after-bytes edited: counts[5]
    off by one (integer), values[2] one ulp up, far[3] 1.5 instead of 3.0; plain has no data_after."""
    n = 16
    os.makedirs(os.path.join(folder, "kernels"))
    os.makedirs(os.path.join(folder, "data"))
    with open(os.path.join(folder, "kernels", "fill.cl"), "w") as f:
        f.write(COMPARE_KERNEL)

    def blob(name, data):
        with open(os.path.join(folder, "data", name), "wb") as f:
            f.write(data)
        return "data/" + name

    zeros = blob("zeros.bin", bytes(4 * n))
    counts = [3 * i for i in range(n)]
    counts[5] += 1
    # (float)i * 0.1f: one multiplication, correctly rounded (OpenCL 1.2 §7.4); the product of two floats is
    # exact in a double, so rounding it to float gives the device's value. One ulp up: the next bit pattern.
    tenth = struct.unpack("<f", struct.pack("<f", 0.1))[0]
    values = bytearray(struct.pack(f"<{n}f", *[i * tenth for i in range(n)]))
    word = struct.unpack_from("<I", values, 8)[0]
    struct.pack_into("<I", values, 8, word + 1)
    far = [float(i) for i in range(n)]
    far[3] = 1.5
    after = {0: blob("counts.bin", struct.pack(f"<{n}i", *counts)), 1: blob("values.bin", bytes(values)),
             2: blob("far.bin", struct.pack(f"<{n}f", *far))}
    names = [("counts", "int*"), ("values", "float*"), ("far", "float*"), ("plain", "int*")]
    inst = {"language": "OpenCL", "endianness": "little", "kernel_file": "kernels/fill.cl", "global_size": [n],
            "compiler_flags": "", "entry_point": "fill",
            "kernel_arguments": [{"type": "array", "size": 4 * n, "address_space": "global",
                                  "flags": ["CL_MEM_READ_WRITE"], "data": zeros} for _ in names]}
    facts = []
    for i, (name, type_name) in enumerate(names):
        fact = {"index": i, "kind": "buffer", "name": name, "type_name": type_name, "address_qualifier": "global",
                "mem_object": i, "mem_flags": 1}
        if i in after:
            fact["data_after"] = after[i]
        facts.append(fact)
    meta = {"format": "clcapture-meta", "format_version": 2, "clcapture_version": "test",
            "process": {"executable": "test", "pid": 0, "started_at": "2026-01-01T00:00:00Z"},
            "launches": [{"launch": 0, "instantiation": 0, "enqueue_function": "clEnqueueNDRangeKernel",
                          "kernel_name": "fill", "thread": 0, "queue": 0, "program": 0, "program_origin": "source",
                          "build_options": "", "device": {"name": "test", "vendor": "test", "version": "OpenCL 1.2",
                                                          "driver_version": "0", "address_bits": 64,
                                                          "endianness": "little"},
                          "arguments": facts, "aliases": []}]}
    json.dump([inst], open(os.path.join(folder, "captures.json"), "w"), indent=2)
    json.dump(meta, open(os.path.join(folder, "captures.meta.json"), "w"), indent=2)


def scenario_compare(args, work):
    folder = os.path.join(work, "compare")
    write_compare_capture(folder)
    for name, options, env in drivers():
        r, report = replay(args, folder, ["--compare", *options], env=env, want=6)
        launch = report["launches"][0]
        check(launch["status"] == "differs", f"{name}: status {launch['status']}")
        b = {x["name"]: x for x in launch["buffers"]}
        check(b["counts"]["comparison"] == "differs", f"{name}: counts {b['counts']['comparison']}")
        first = b["counts"]["differences"]["first"][0]
        check(b["counts"]["differences"]["count"] == 1 and first["offset"] == 20 and first["element"] == 5 and
              first["replayed"] == "0x0000000F" and first["captured"] == "0x00000010",
              f"{name}: counts differences {b['counts']['differences']}")
        check(b["values"]["comparison"] == "differs" and b["values"]["differences"]["first"][0]["element"] == 2,
              f"{name}: values under --ulp 0: {b['values']}")
        check(b["far"]["comparison"] == "differs", f"{name}: far {b['far']['comparison']}")
        check(b["plain"]["comparison"] == "nothing to compare (captured without CLCAPTURE_DATA_AFTER)",
              f"{name}: plain {b['plain']['comparison']}")
        r, report = replay(args, folder, ["--compare", "--ulp", "1", *options], env=env, want=6)
        b = {x["name"]: x for x in report["launches"][0]["buffers"]}
        check(b["values"]["comparison"] == "same", f"{name}: values under --ulp 1: {b['values']['comparison']}")
        check(b["far"]["comparison"] == "differs", f"{name}: far under --ulp 1: {b['far']['comparison']}")
        check(b["counts"]["comparison"] == "differs", f"{name}: counts under --ulp 1: {b['counts']['comparison']}")
        text = run([args.replay, folder, "--compare", *options], env=env, want=6).stdout
        check("counts (argument 0): differs from the capture: 1 of 16 int values differ, first at byte 20 "
              "(element 5): 0x0000000F replayed, 0x00000010 captured" in text, f"{name}: text report")


ALIAS_KERNELS = """kernel void same(global int *a, global int *b) {
  a[0] = 7;
  b[1] = a[0] + b[0];
}
kernel void shifted(global int *o) {
  o[get_global_id(0)] = (int)get_global_id(0);
}
"""


def write_alias_capture(folder):
    """Three launches written by hand: `same` launched by clEnqueueTask with one buffer passed twice (b[0]
    is a[0], so b[1] becomes 14; two buffers would give 7); `same` on two sub-buffers 4 bytes apart in one
    parent (no device aligns sub-buffers to 4 bytes: reported); `shifted` with a global offset of 2."""
    os.makedirs(os.path.join(folder, "kernels"))
    os.makedirs(os.path.join(folder, "data"))
    with open(os.path.join(folder, "kernels", "alias.cl"), "w") as f:
        f.write(ALIAS_KERNELS)
    with open(os.path.join(folder, "data", "zeros.bin"), "wb") as f:
        f.write(bytes(32))
    array = {"type": "array", "size": 32, "address_space": "global", "flags": ["CL_MEM_READ_WRITE"],
             "data": "data/zeros.bin"}
    base = {"language": "OpenCL", "endianness": "little", "kernel_file": "kernels/alias.cl", "compiler_flags": ""}
    insts = [dict(base, global_size=[1], local_size=[1], entry_point="same", kernel_arguments=[array, array]),
             dict(base, global_size=[1], local_size=[1], entry_point="same", kernel_arguments=[array, array]),
             dict(base, global_size=[4], global_offset=[2], entry_point="shifted", kernel_arguments=[array])]

    def fact(i, mem, sub=None):
        f = {"index": i, "kind": "buffer", "name": "ab"[i] if mem < 9 else "o", "type_name": "int*",
             "address_qualifier": "global", "mem_object": mem, "mem_flags": 1}
        if sub is not None:
            f["sub_buffer"] = {"parent": 0, "origin": sub}
        return f

    device = {"name": "test", "vendor": "test", "version": "OpenCL 1.2", "driver_version": "0", "address_bits": 64,
              "endianness": "little"}
    launches = [
        ([fact(0, 1), fact(1, 1)], [[0, 1]], "clEnqueueTask", {}),
        ([fact(0, 1, 4), fact(1, 2, 8)], [[0, 1]], "clEnqueueNDRangeKernel", {}),
        ([fact(0, 9)], [], "clEnqueueNDRangeKernel", {"global_offset": [2]})]
    meta = {"format": "clcapture-meta", "format_version": 2, "clcapture_version": "test",
            "process": {"executable": "test", "pid": 0, "started_at": "2026-01-01T00:00:00Z"},
            "launches": [dict({"launch": n, "instantiation": n, "enqueue_function": how,
                               "kernel_name": insts[n]["entry_point"], "thread": 0, "queue": 0, "program": 0,
                               "program_origin": "source", "build_options": "", "device": device,
                               "arguments": facts, "aliases": aliases}, **extra)
                         for n, (facts, aliases, how, extra) in enumerate(launches)]}
    json.dump(insts, open(os.path.join(folder, "captures.json"), "w"), indent=2)
    json.dump(meta, open(os.path.join(folder, "captures.meta.json"), "w"), indent=2)


def scenario_aliasing(args, work):
    folder = os.path.join(work, "alias")
    write_alias_capture(folder)
    for name, options, env in drivers():
        out = os.path.join(work, "out-" + name)
        r, report = replay(args, folder, ["--output", out, *options], env=env, want=6)
        same, misaligned, shifted = report["launches"]
        check(same["status"] == "replayed", f"{name}: same: {same['status']} {same.get('reason')}")
        for arg in ("arg0.bin", "arg1.bin"):
            got = ints(os.path.join(out, "0", arg))[:2]
            check(got == [7, 14], f"{name}: same: {arg} starts {got}, expected [7, 14] (one buffer passed twice)")
        check(misaligned["status"] == "not-replayable" and "CL_DEVICE_MEM_BASE_ADDR_ALIGN" in misaligned["reason"],
              f"{name}: misaligned sub-buffers: {misaligned}")
        check(shifted["status"] == "replayed", f"{name}: shifted: {shifted['status']} {shifted.get('reason')}")
        got = ints(os.path.join(out, "2", "arg0.bin"))
        check(got == [0, 0, 2, 3, 4, 5, 0, 0], f"{name}: shifted wrote {got}, expected work-items 2 to 5")


def scenario_missing_data(args, work):
    folder = os.path.join(work, "reduce-16")
    capture(args, folder, [os.path.join(args.samples, "reduce")], ["--data", "16"])
    for name, options, env in drivers():
        r, report = replay(args, folder, options, env=env, want=6)
        launch = report["launches"][0]
        check(launch["status"] == "not-replayable", f"{name}: status {launch['status']}")
        check(launch["reason"].startswith("argument 0 (in): the capture has no bytes for it (larger than the "
                                          "per-buffer cap"), f"{name}: reason {launch['reason']}")
        text = run([args.replay, folder, *options], env=env, want=6).stdout
        check("instantiation 0 (reduce): not replayable: argument 0 (in)" in text, f"{name}: text report")
    # Metadata only: the write-only partial sums would start zeroed, the input still stops the launch.
    folder = os.path.join(work, "reduce-none")
    capture(args, folder, [os.path.join(args.samples, "reduce")], ["--data", "none"])
    r, report = replay(args, folder, [], env={"OCL_ICD_VENDORS": POCL}, want=6)
    check("metadata-only mode" in report["launches"][0]["reason"], f"reason {report['launches'][0]['reason']}")


def scenario_binary(args, work):
    cache = os.path.join(work, "program.bin")
    run([os.path.join(args.samples, "binary_cache"), cache], env={"OCL_ICD_VENDORS": POCL}, want=0)
    folder = os.path.join(work, "binary")
    # Without the program store the binary's source is unknown: launches without an instantiation.
    run([args.launcher, "--icd", POCL, "--store", "off", "--dir", folder, "--",
         os.path.join(args.samples, "binary_cache"), cache], want=0)
    r, report = replay(args, folder, [], env={"OCL_ICD_VENDORS": POCL}, want=6)
    check(len(report["launches"]) == 2, f"{len(report['launches'])} launches listed, expected 2")
    for launch in report["launches"]:
        check(launch["status"] == "not-replayable" and "index" not in launch and
              launch["reason"].startswith("program built from a binary"), f"launch {launch}")


def scenario_repeat(args, work):
    folder = os.path.join(work, "reduce-racy")
    capture(args, folder, [os.path.join(args.samples, "reduce"), "--racy"])
    for name, options, env in drivers():
        r, report = replay(args, folder, ["--repeat", "3", *options], env=env)
        check(r.returncode in (0, 6), f"{name}: exit {r.returncode}")
        launch = report["launches"][0]
        check(launch["runs"] == 3, f"{name}: {launch.get('runs')} runs")
        # On a CPU the race need not show; where it does, it is reported between runs (exit 6).
        differing = [b for b in launch["buffers"] if "between_runs" in b]
        check((r.returncode == 6) == bool(differing), f"{name}: exit {r.returncode} with {differing}")


def scenario_command_line(args, work):
    folder = os.path.join(work, "compare")
    write_compare_capture(folder)
    r = run([args.replay, folder, "--only", "3"], want=1)
    check("no instantiation 3" in r.stderr, "no message for --only 3")
    run([args.replay, folder, "--only", "x"], want=1)
    run([args.replay, os.path.join(work, "absent")], want=10)
    with open(os.path.join(folder, "captures.json"), "w") as f:
        f.write('[{"language": "OpenCL", "kernel_file": "kernels/fill.cl", "global_size": [0], "entry_point": 3}]')
    r = run([args.replay, folder], want=10)
    check("not a valid capture" in r.stderr, "no message for an invalid capture")
    run([args.replay, "--icd", os.path.join(work, "absent.so"), folder], want=1)


SCENARIOS = {"reduce": scenario_reduce, "memory-forms": scenario_memory_forms, "struct-arg": scenario_struct_arg,
             "compare": scenario_compare, "aliasing": scenario_aliasing, "missing-data": scenario_missing_data,
             "binary": scenario_binary, "repeat": scenario_repeat,
             "command-line": scenario_command_line}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=sorted(SCENARIOS))
    p.add_argument("--replay", required=True)
    p.add_argument("--launcher")
    p.add_argument("--samples")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="clcapture-replay-test-")
    try:
        SCENARIOS[args.scenario](args, work)
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
