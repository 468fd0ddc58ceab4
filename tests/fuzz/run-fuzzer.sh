#!/usr/bin/env bash
# Runs a libFuzzer target over the seed corpus for a bounded number of inputs or seconds.
#   run-fuzzer.sh FUZZER WORK_CORPUS_DIR FUZZ_SOURCE_DIR RUNS MAX_SECONDS [OPTION...]
# Options (the defaults are the capture-format reader's):
#   --seeds=DIR     the seed corpus (default FUZZ_SOURCE_DIR/corpus); read only
#   --dict=FILE     the libFuzzer dictionary (default FUZZ_SOURCE_DIR/captures.dict); --no-dict for none
#   --max-len=N     the longest input libFuzzer makes (default 8192)
# New inputs go to WORK_CORPUS_DIR (in the build tree), never into the source tree. Crash reproducers are
# written to WORK_CORPUS_DIR/../artifacts/. Fails if the fuzzer fails or did not run the inputs.
set -euo pipefail
fuzzer=$1 corpus=$2 src=$3 runs=$4 seconds=$5
shift 5
seeds=$src/corpus dict=$src/captures.dict max_len=8192
for option in "$@"; do
  case $option in
    --seeds=*) seeds=${option#--seeds=} ;;
    --dict=*) dict=${option#--dict=} ;;
    --no-dict) dict= ;;
    --max-len=*) max_len=${option#--max-len=} ;;
    *) echo "run-fuzzer.sh: unknown option $option" >&2; exit 2 ;;
  esac
done
[ -x "$fuzzer" ] || { echo "fuzzer not built: $fuzzer" >&2; exit 1; }
[ -d "$seeds" ] || { echo "no seed corpus: $seeds" >&2; exit 1; }
[ -z "$dict" ] || [ -f "$dict" ] || { echo "no dictionary: $dict" >&2; exit 1; }
dict_flag=()
[ -z "$dict" ] || dict_flag=(-dict="$dict")
mkdir -p "$corpus" "$corpus/../artifacts"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
"$fuzzer" -runs="$runs" -max_total_time="$seconds" -max_len="$max_len" -seed=1 -print_final_stats=1 \
  "${dict_flag[@]}" -artifact_prefix="$corpus/../artifacts/" "$corpus" "$seeds" >"$log" 2>&1
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
