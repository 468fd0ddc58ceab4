#!/usr/bin/env bash
# Longer fuzzing on demand: tools/fuzz.sh [SECONDS] (default 600). Builds the fuzzer if needed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
"$root/tools/build.sh"
exec "$root/tests/fuzz/run-fuzzer.sh" "$root/build/tests/fuzz/standalone/format_reader_fuzzer" \
  "$root/build/tests/fuzz/corpus" "$root/tests/fuzz" 2000000000 "$seconds"
