#!/usr/bin/env bash
# Longer fuzzing on demand: tools/fuzz.sh [SECONDS] [format|archive|all|soundness] (default 600 seconds, the
# format reader). With "all", each reader fuzzer gets SECONDS in turn. Builds the fuzzers if needed.
#   format     the capture-format reader (format_reader_fuzzer)
#   archive    the bug-report archive reader (archive_reader_fuzzer)
#   soundness  the differential soundness fuzzer (tools/fuzz_soundness.py, docs/soundness-fuzzer.md):
#              generated kernels captured on PoCL, verified, and run under Oclgrind's race detector;
#              batches of 50 from seed $CLCAPTURE_FUZZ_SEED (default: the time) into
#              $CLCAPTURE_FUZZ_OUT (default build/soundness-fuzz); exit 1 on an unsound verdict
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
which=${2:-format}
case $which in
  format | archive | all | soundness) ;;
  *) echo "usage: tools/fuzz.sh [SECONDS] [format|archive|all|soundness]" >&2; exit 2 ;;
esac
build=${CLCAPTURE_BUILD_DIR:-$root/build}
"$root/tools/build.sh"
if [ "$which" = soundness ]; then
  out=${CLCAPTURE_FUZZ_OUT:-$build/soundness-fuzz}
  /usr/bin/python3 "$root/tools/fuzz_soundness.py" --seconds "$seconds" --batch-size 50 \
    --seed "${CLCAPTURE_FUZZ_SEED:-$(date +%s)}" --out "$out"
  # Any unsound verdict fails the run; its reproducers are under $out/unsound/.
  /usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["summary"]; sys.exit(1 if s["unsound"] else 0)' \
    "$out/summary.json"
  exit
fi
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
