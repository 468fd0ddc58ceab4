#!/usr/bin/env bash
# Runs a libFuzzer target over the seed corpus for a bounded number of inputs or seconds.
#   run-fuzzer.sh FUZZER WORK_CORPUS_DIR FUZZ_SOURCE_DIR RUNS MAX_SECONDS
# New inputs go to WORK_CORPUS_DIR (in the build tree), never into the source tree. Crash reproducers are
# written to WORK_CORPUS_DIR/../artifacts/. Fails if the fuzzer fails or did not run the inputs.
set -euo pipefail
fuzzer=$1 corpus=$2 src=$3 runs=$4 seconds=$5
[ -x "$fuzzer" ] || { echo "fuzzer not built: $fuzzer" >&2; exit 1; }
mkdir -p "$corpus" "$corpus/../artifacts"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
"$fuzzer" -runs="$runs" -max_total_time="$seconds" -max_len=8192 -seed=1 -print_final_stats=1 \
  -dict="$src/captures.dict" -artifact_prefix="$corpus/../artifacts/" "$corpus" "$src/corpus" >"$log" 2>&1
status=$?
set -e
tail -n 25 "$log"
if [ $status -ne 0 ]; then
  echo "fuzzer failed with status $status" >&2
  exit $status
fi
done_line=$(grep -E '^Done [0-9]+ runs' "$log" || true)
[ -n "$done_line" ] || { echo "fuzzer printed no 'Done N runs' line" >&2; exit 1; }
echo "fuzz: $done_line, no crash, leak or sanitizer report"
