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
    launch = {"args": {}, "sizes": {}, "data": {}, "alias": {}}
    entry = None
    inst = {"language": "OpenCL", "endianness": "little"}
    it = iter(options)
    for o in it:
        if o.startswith("--global_size="):
            inst["global_size"] = run_kernel.dims(o.split("=", 1)[1])
        elif o.startswith("--local_size="):
            inst["local_size"] = run_kernel.dims(o.split("=", 1)[1])
        elif o.startswith("--global_offset="):
            inst["global_offset"] = run_kernel.dims(o.split("=", 1)[1])
        elif o.startswith("--entry="):
            entry = o.split("=", 1)[1]
        elif o.startswith("--flags="):
            inst["compiler_flags"] = o.split("=", 1)[1]
        elif o in ("--arg", "--size", "--data", "--alias"):
            key, value = next(it).split("=", 1)
            launch[{"--arg": "args", "--size": "sizes", "--data": "data", "--alias": "alias"}[o]][key] = value
        else:
            raise SystemExit(f"unknown header option {o}")
    entry, params = run_kernel.parameters(text, entry)
    return entry, params, inst, launch


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
