#!/usr/bin/env bash
# Captures one sample through libclcapture.so on a real driver and checks the capture folder.
#   capture-and-check.sh SHIM_LIB DRIVER SAMPLE_NAME SCHEMAS_DIR -- COMMAND [ARGS...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shim=$1 driver=$2 sample=$3 schemas=$4
shift 4
[ "$1" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CLCAPTURE_DIR=$work/capture
# The positive signal: the layer says where it captures (or, when a filter matches nothing, that it forwards).
signal="clcapture: info: capturing into $CLCAPTURE_DIR"
[ "$sample" = nothing ] && signal="clcapture: info: (forwarding to |OPENCL_LAYERS layer in front)"
"$here/run-through-shim.sh" "$shim" "$driver" "$signal" 0 -- "$@" || exit 1
/usr/bin/python3 "$here/check_capture.py" "$sample" "$CLCAPTURE_DIR" "$schemas"
