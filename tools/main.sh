#!/usr/bin/env bash
# The main job from a fresh Debian 12 machine: installs what is missing and builds everything. Until the
# capture layer and the analyzer land, it then writes an example capture folder with the format library
# and checks it against the schemas.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLCAPTURE_BUILD_DIR:-$root/build}
bash "$root/tools/setup.sh"
bash "$root/tools/build.sh"
out=$build/example-capture
"$build/tests/schema/write_example_capture" "$out"
/usr/bin/python3 "$root/tests/schema/validate.py" --schema "$root/schemas/captures.schema.json" "$out/captures.json"
/usr/bin/python3 "$root/tests/schema/validate.py" --schema "$root/schemas/captures.meta.schema.json" "$out/captures.meta.json"
echo "capture folder: $out"
