#!/usr/bin/python3
"""tools/fuzz_soundness.py keeps every launch that ran: when the host dies between launches (a launch's
out-of-bounds writes corrupted the heap and the abort comes after its `done` line), the last launch that
finished may have no record in the capture; it must be captured from the manifest, never left without a
verdict. A fake clcapture stands in for the layer and PoCL, so the test decides where the host dies."""
import json
import os
import stat
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import fuzz_soundness  # noqa: E402
import kernel_generator  # noqa: E402
import launch_manifest  # noqa: E402

# Writes nothing to --dir (the writer never ran), prints the first launch as done, then dies as glibc's
# heap check does; a second run (--first 1) finishes the rest.
FAKE_CLCAPTURE = """#!/bin/sh
first=0
while [ "$#" -gt 0 ]; do
  if [ "$1" = --first ]; then first=$2; fi
  shift
done
if [ "$first" = 0 ]; then
  echo "start {a}"; echo "done {a}"; exit 134
fi
echo "start {b}"; echo "done {b}"; exit 0
"""


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        launches = kernel_generator.generate(7, 2)
        manifest_path = launch_manifest.write(d, 7, launches)
        manifest = launch_manifest.read(manifest_path)
        names = [l["kernel"] for l in manifest["launches"]]
        fake = os.path.join(d, "clcapture")
        with open(fake, "w", encoding="utf-8") as f:
            f.write(FAKE_CLCAPTURE.format(a=names[0], b=names[1]))
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)

        class Tools:
            clcapture, host = fake, "unused"

        record = fuzz_soundness.capture_on_pocl(Tools, manifest_path, manifest, d)
        if names[0] not in record["ran"] or names[1] not in record["ran"]:
            failures.append(f"ran: {sorted(record['ran'])}, expected both of {names}")
        if names[0] not in record["died_after"]:
            failures.append(f"died_after {record['died_after']} does not name {names[0]}")
        if record["synthesised"] != [names[0]]:
            failures.append(f"synthesised {record['synthesised']}, expected [{names[0]}] (the one the host died after)")
        captured = set()
        for cap in record["captures"]:
            with open(os.path.join(cap, "captures.json"), encoding="utf-8") as f:
                captured.update(i["entry_point"] for i in json.load(f))
        if names[0] not in captured:
            failures.append(f"{names[0]} has no capture: {sorted(captured)}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"ok: {names[0]} (the host died after it) captured from the manifest")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
