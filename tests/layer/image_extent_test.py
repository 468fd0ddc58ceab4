#!/usr/bin/python3
"""An image read past its edge is found from the extents and the sampler the layer records
(docs/memory-safety.md, docs/semantics.md row 37i).

usage: image_extent_test.py --clcapture LAUNCHER --verify CLCAPTURE_VERIFY --app IMAGE_EDGE --driver ICD --work DIR

samples/image_edge.c reads a 30 × 20 image over 32 × 20 work-items through a sampler argument. Captured under
`clcapture` on the driver, the sidecar must hold the image's type and extents (clGetImageInfo) and the sampler's
properties (clGetSamplerInfo); with CL_ADDRESS_NONE `clcapture-verify` must report an out-of-bounds read on
`src` at a pixel whose x is 30 or 31, with the image's extents; with `--clamp` (CL_ADDRESS_CLAMP_TO_EDGE) the
launch is verified.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}")
    sys.exit(1)


def capture(a, name, *app_args):
    folder = os.path.join(a.work, name)
    r = subprocess.run([a.clcapture, "--dir", folder, "--icd", a.driver, "--", a.app, *app_args],
                       capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    if r.returncode != 0 or "image_edge: 0 mismatches" not in r.stdout:
        fail(f"the sample under clcapture exited {r.returncode}", r.stdout + r.stderr)
    with open(os.path.join(folder, "captures.meta.json"), encoding="utf-8") as f:
        arguments = json.load(f)["launches"][0]["arguments"]
    return folder, {arg["name"]: arg for arg in arguments}


def verify(a, folder):
    r = subprocess.run([a.verify, "--no-cache", "--format=json", folder], capture_output=True, text=True,
                       timeout=600)
    try:
        return r.returncode, json.loads(r.stdout)["results"][0]
    except (ValueError, KeyError, IndexError):
        fail(f"clcapture-verify exited {r.returncode} without a report", r.stdout + r.stderr)


def main():
    ap = argparse.ArgumentParser()
    for option in ("--clcapture", "--verify", "--app", "--driver", "--work"):
        ap.add_argument(option, required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)

    folder, args = capture(a, "address-none")
    if args["src"].get("image") != {"type": "image2d", "width": 30, "height": 20}:
        fail(f"the sidecar's image facts for src: {args['src']}")
    if args["s"].get("sampler") != {"normalized_coords": False, "addressing": "none", "filter": "nearest"}:
        fail(f"the sidecar's sampler facts for s: {args['s']}")
    code, result = verify(a, folder)
    oob = [f for f in result["findings"] if f["kind"] == "out-of-bounds"]
    if code != 6 or result["verdict"] != "defects" or len(oob) != 1 or oob[0].get("array") != "src":
        fail(f"expected one out-of-bounds read on src (exit 6), got exit {code}", json.dumps(result, indent=1))
    pixel, extent = oob[0].get("pixel"), oob[0].get("image_extent")
    if extent != [30, 20] or not pixel or pixel[0] not in (30, 31) or not 0 <= pixel[1] < 20 or \
            oob[0]["accesses"][0].get("access") != "read":
        fail(f"the finding's pixel {pixel} and extent {extent}", json.dumps(oob[0], indent=1))

    folder, args = capture(a, "clamp-to-edge", "--clamp")
    if args["s"].get("sampler", {}).get("addressing") != "clamp-to-edge":
        fail(f"the sidecar's sampler facts for s: {args['s']}")
    code, result = verify(a, folder)
    if code != 0 or result["verdict"] != "verified" or result.get("bounds_not_checked"):
        fail(f"with a clamping sampler: exit {code}", json.dumps(result, indent=1))
    print(f"PASS: out-of-bounds read on src at pixel {pixel} of {extent}; clamped: verified")


if __name__ == "__main__":
    main()
