#!/usr/bin/python3
"""Runs one corpus launch with images through the OpenCL API, for oclgrind_crosscheck.py under `oclgrind`.

usage: oclgrind --data-races oclgrind_image_launch.py SPEC.json

oclgrind-kernel's .sim files have no images, so a corpus kernel with image or sampler arguments is launched
by this host program instead (PyOpenCL, Debian's python3-pyopencl), on the platform `oclgrind` preloads, so
that its race detector and MemCheck watch the launch. SPEC (written by oclgrind_crosscheck.py):
  {"source": FILE, "entry": NAME, "global": [..], "local": [..],
   "args": [{"kind": "buffer", "bytes": N, "ints": [..] | null} | {"kind": "local", "bytes": N}
            | {"kind": "scalar", "raw": HEX} | {"kind": "image", "type": T, "width": W, ...}
            | {"kind": "sampler", "normalized_coords": B, "addressing": A, "filter": F}]}
A buffer without `ints` holds 1, 2, 3, …; an image holds zeros, in RGBA float pixels (CL_SIGNED_INT32 or
CL_UNSIGNED_INT32 when the kernel reads or writes it with the i or ui built-ins). Prints `launched` once the
kernel finished.
"""
import json
import re
import sys

import numpy as np
import pyopencl as cl

ADDRESSING = {"none": cl.addressing_mode.NONE, "clamp-to-edge": cl.addressing_mode.CLAMP_TO_EDGE,
              "clamp": cl.addressing_mode.CLAMP, "repeat": cl.addressing_mode.REPEAT,
              "mirrored-repeat": cl.addressing_mode.MIRRORED_REPEAT}


def image(ctx, arg, channel):
    fmt = cl.ImageFormat(cl.channel_order.RGBA, channel)
    kind = arg["type"]
    shape = {"image1d": (arg["width"],), "image1d_array": (arg["width"], arg.get("array_size", 1)),
             "image2d": (arg["width"], arg.get("height", 1)),
             "image2d_array": (arg["width"], arg.get("height", 1), arg.get("array_size", 1)),
             "image3d": (arg["width"], arg.get("height", 1), arg.get("depth", 1))}[kind]
    pixels = int(np.prod(shape))
    host = np.zeros(pixels * 4, dtype=np.float32 if channel == cl.channel_type.FLOAT else np.int32)
    return cl.Image(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, fmt, shape=shape,
                    hostbuf=host, is_array=kind.endswith("_array"))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    with open(spec["source"], encoding="utf-8") as f:
        source = f.read()
    channel = (cl.channel_type.UNSIGNED_INT32 if re.search(r"\b(read|write)_imageui\b", source)
               else cl.channel_type.SIGNED_INT32 if re.search(r"\b(read|write)_imagei\b", source)
               else cl.channel_type.FLOAT)
    ctx = cl.Context(devices=[cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    kernel = getattr(cl.Program(ctx, source).build(), spec["entry"])
    keep = []
    for index, arg in enumerate(spec["args"]):
        if arg["kind"] == "buffer":
            count = arg["bytes"] // 4
            ints = np.array(arg["ints"] if arg.get("ints") is not None else range(1, count + 1), dtype=np.int32)
            value = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=ints)
        elif arg["kind"] == "local":
            value = cl.LocalMemory(arg["bytes"])
        elif arg["kind"] == "scalar":
            value = np.frombuffer(bytes.fromhex(arg["raw"]), dtype=np.uint8)
        elif arg["kind"] == "image":
            value = image(ctx, arg, channel)
        else:
            filters = cl.filter_mode.LINEAR if arg["filter"] == "linear" else cl.filter_mode.NEAREST
            value = cl.Sampler(ctx, arg["normalized_coords"], ADDRESSING[arg["addressing"]], filters)
        keep.append(value)
        kernel.set_arg(index, value)
    cl.enqueue_nd_range_kernel(queue, kernel, spec["global"], spec["local"])
    queue.finish()
    print("launched")


if __name__ == "__main__":
    main()
