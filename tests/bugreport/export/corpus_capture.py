#!/usr/bin/python3
"""Builds the capture folder of one corpus kernel (tests/kernels/) from its GPUVerify-style header, exactly as
tests/kernels/run_kernel.py does before it runs clcapture-verify (its build_capture()), without running it.

usage: corpus_capture.py KERNEL.cl OUT_DIR
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.normpath(os.path.join(HERE, "..", "..", "kernels"))
sys.path.insert(0, KERNELS)
import run_kernel  # noqa: E402


def launch_of(text):
    """(entry, params, inst, launch) from a corpus header, as run_kernel.main() reads it."""
    _, options, _ = run_kernel.parse_header(text)
    return run_kernel.launch_of(text, options)


def build(kernel_path, folder, data_for_all=None, local_default=None):
    """Writes the capture of `kernel_path` into `folder` (which must not exist). `data_for_all(name, size)`,
    when given, supplies the bytes of every global buffer the header gives no data for (its size: the
    header's --size, else the function's choice); `local_default` is the size of local arrays the header
    gives none for."""
    with open(kernel_path, encoding="utf-8") as f:
        text = f.read()
    entry, params, inst, launch = launch_of(text)
    if local_default:
        for name, kind in params:
            if kind == "local":
                launch["sizes"].setdefault(name, str(local_default))
    if data_for_all:
        for name, kind in params:
            if kind in ("global", "constant") and name not in launch["data"] and name not in launch["alias"]:
                blob = data_for_all(name, launch["sizes"].get(name))
                if blob is not None:
                    launch["data"][name] = blob
    run_kernel.build_capture(folder, os.path.basename(kernel_path), text, entry, params, inst, launch)
    return entry


if __name__ == "__main__":
    build(sys.argv[1], sys.argv[2])
