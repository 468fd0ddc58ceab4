#!/usr/bin/env bash
# Runs COMMAND under the clcapture launcher into a fresh folder and checks the capture and the launcher's
# report; the command's exit status must come back unchanged.
#   launcher-test.sh LAUNCHER SAMPLE_NAME SCHEMAS_DIR EXPECTED_STATUS -- COMMAND [ARGS...]
# LAUNCHER_OPTIONS (e.g. --layer) are passed to the launcher.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
launcher=$1 sample=$2 schemas=$3 want=$4
shift 4
[ "$1" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$("$launcher" ${LAUNCHER_OPTIONS:-} --dir "$work/capture" -- "$@" 2>&1)
status=$?
echo "$out"
[ "$status" -eq "$want" ] || { echo "launcher-test: exit status $status, expected $want" >&2; exit 1; }
grep -q "clcapture: [0-9]* instantiations\? captured in $work/capture" <<<"$out" ||
  { echo "launcher-test: the launcher did not report the capture folder" >&2; exit 1; }
/usr/bin/python3 "$here/check_capture.py" "$sample" "$work/capture" "$schemas"
