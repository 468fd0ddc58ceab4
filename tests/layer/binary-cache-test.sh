#!/usr/bin/env bash
# An application with a program-binary cache, run twice under the clcapture launcher with a private program
# store (--store) and a private application cache: run 1 finds its cache empty, builds from source and saves
# the binary (clcapture stores the source under the binary's hash); run 2 loads the binary. Both captures are
# checked with check_capture.py, the store must hold an entry after run 1.
#   binary-cache-test.sh LAUNCHER SCHEMAS_DIR STORE RUN1_SAMPLE RUN2_SAMPLE -- COMMAND [ARGS...]
# STORE: `shared` (run 2 uses run 1's store: the source is recovered) or `empty` (run 2 gets an empty store:
# its launches are listed as not verifiable). In COMMAND, @CACHE@ becomes a private cache file's path, and
# XDG_CACHE_HOME is a private folder (PyOpenCL keeps its binary cache there).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
launcher=$1 schemas=$2 store=$3 run1=$4 run2=$5
shift 5
[ "$1" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/xdg-cache
command=()
for arg in "$@"; do command+=("${arg//@CACHE@/$work/app-cache.bin}"); done

run() { # run NAME STORE_FOLDER SAMPLE
  echo "== $1 (store $2)"
  out=$("$launcher" --log info --store "$2" --dir "$work/$1" -- "${command[@]}" 2>&1)
  status=$?
  echo "$out"
  [ "$status" -eq 0 ] || { echo "binary-cache-test: $1 exited with $status" >&2; exit 1; }
  /usr/bin/python3 "$here/check_capture.py" "$3" "$work/$1" "$schemas" || exit 1
}

run run1 "$work/store" "$run1"
entries=$(find "$work/store" -name '*.prog' 2>/dev/null | wc -l)
[ "$entries" -ge 1 ] || { echo "binary-cache-test: run 1 left no entry in the program store" >&2; exit 1; }
grep -q "source stored in $work/store for its binary" <<<"$out" ||
  { echo "binary-cache-test: the layer did not say it stored a source" >&2; exit 1; }
case $store in
  shared) run run2 "$work/store" "$run2" ;;
  empty) mkdir -p "$work/empty-store" && run run2 "$work/empty-store" "$run2" ;;
  *) echo "binary-cache-test: unknown STORE $store" >&2; exit 1 ;;
esac
grep -q "created from a binary\|program store does not know" <<<"$out" ||
  { echo "binary-cache-test: run 2 did not load a binary" >&2; exit 1; }
