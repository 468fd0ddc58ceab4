#!/usr/bin/env bash
# Longer fuzzing on demand: tools/fuzz.sh [SECONDS] [format|archive|all] (default 600 seconds, the format
# reader). With "all", each fuzzer gets SECONDS in turn. Builds the fuzzers if needed.
#   format   the capture-format reader (format_reader_fuzzer)
#   archive  the bug-report archive reader (archive_reader_fuzzer)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
which=${2:-format}
case $which in
  format | archive | all) ;;
  *) echo "usage: tools/fuzz.sh [SECONDS] [format|archive|all]" >&2; exit 2 ;;
esac
build=${CLCAPTURE_BUILD_DIR:-$root/build}
"$root/tools/build.sh"
fuzz=$root/tests/fuzz
if [ "$which" = format ] || [ "$which" = all ]; then
  "$fuzz/run-fuzzer.sh" "$build/tests/fuzz/standalone/format_reader_fuzzer" \
    "$build/tests/fuzz/corpus" "$fuzz" 2000000000 "$seconds"
fi
if [ "$which" = archive ] || [ "$which" = all ]; then
  "$fuzz/run-fuzzer.sh" "$build/tests/fuzz/standalone/archive_reader_fuzzer" \
    "$build/tests/fuzz/archive-corpus" "$fuzz" 2000000000 "$seconds" \
    --seeds="$fuzz/archive-corpus" --dict="$fuzz/archive.dict" --max-len=16384
fi
