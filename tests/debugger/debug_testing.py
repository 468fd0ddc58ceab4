"""What the debugger's test scripts share: the PoCL ICD, the failure they raise, running a program with its
output shown, capturing the reduction sample with the real layer, reading the captured input back, and
comparing buffers within 4 ULP (session_test.py, dap_test.py, command_fuzz.py, corpus_sweep.py,
capture_sweep.py)."""
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import capture_blobs  # noqa: E402  (tools/: blobs loose or packed)

POCL = "/etc/OpenCL/vendors/pocl.icd"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(cmd, want=None, stdin=None):
    """Runs `cmd`, prints it with its exit status and output; `want`: the exit status it must have."""
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, input=stdin)
    print("$ " + " ".join(cmd) + f"  -> {r.returncode}")
    if r.stdout.strip():
        print(r.stdout.rstrip())
    if r.stderr.strip():
        print(r.stderr.rstrip())
    if want is not None and r.returncode != want:
        raise Failure(f"{os.path.basename(cmd[0])} exited {r.returncode}, expected {want}")
    return r


def capture_reduce(launcher, samples, folder, options=(), sample_args=("--groups", "2", "--local", "8")):
    """The reduction sample under the clcapture launcher on PoCL, into `folder`."""
    run([launcher, "--icd", POCL, "--dir", folder, *options, "--", os.path.join(samples, "reduce"), *sample_args],
        want=0)


def captured_input(folder):
    """The first launch's first argument (the reduction's input) as the int32 values the capture holds."""
    with open(os.path.join(folder, "captures.json")) as f:
        inst = json.load(f)[0]
    data = capture_blobs.read(folder, inst["kernel_arguments"][0]["data"])
    return list(struct.unpack("<%di" % (len(data) // 4), data))


def within_ulp(a, b, width):
    """Whether the byte strings, read as float32 (width 4) or float64 (8) words, are within 4 ULP each."""
    if len(a) != len(b) or len(a) % width:
        return False
    fmt = {4: "i", 8: "q"}[width]
    n = len(a) // width
    sign = 1 << (8 * width - 1)
    for x, y in zip(struct.unpack(f"<{n}{fmt}", a), struct.unpack(f"<{n}{fmt}", b)):
        if x == y:
            continue
        # The bits of a float as a monotonic integer: their difference is the ULP distance.
        mx = x if x >= 0 else -(x & (sign - 1))
        my = y if y >= 0 else -(y & (sign - 1))
        if abs(mx - my) > 4:
            return False
    return True


def same_output(a, b, source):
    """Two buffers a kernel with `source` left: equal bytes, or (a kernel that computes in float or double)
    values within 4 ULP."""
    if a == b:
        return True
    if "double" in source and within_ulp(a, b, 8):
        return True
    return "float" in source and within_ulp(a, b, 4)
