#!/usr/bin/env bash
# Runs a command with libclcapture.so in front of a real driver, then checks positive signals: the command
# passed its own check, and the capture library's log matched (a loader silently skips a broken ICD or
# layer, so success alone proves nothing). CLCAPTURE_FRONT_END picks how the library is loaded:
#   icd   (default) the only ICD the loader sees (OCL_ICD_VENDORS, the launcher's recipe), CLCAPTURE_ICD
#         naming the real driver;
#   layer OPENCL_LAYERS names the library, OCL_ICD_VENDORS the real driver;
#   both  loaded both ways at once (only one of them may capture).
#   run-through-shim.sh SHIM_LIB DRIVER EXPECTED_LOG_REGEX EXPECTED_STATUS -- COMMAND [ARGS...]
set -uo pipefail
shim=$1 driver=$2 expect=$3 want_status=$4
shift 4
[ "$1" = "--" ] && shift
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$shim" > "$vendors/clcapture.icd"
case ${CLCAPTURE_FRONT_END:-icd} in
  icd) loader=(OCL_ICD_VENDORS=$vendors OCL_ICD_FILENAMES=$shim CLCAPTURE_ICD=$driver) ;;
  layer) loader=(OPENCL_LAYERS=$shim OCL_ICD_VENDORS=$driver) ;;
  both) loader=(OPENCL_LAYERS=$shim OCL_ICD_VENDORS=$vendors OCL_ICD_FILENAMES=$shim CLCAPTURE_ICD=$driver) ;;
  *) echo "run-through-shim: unknown CLCAPTURE_FRONT_END=$CLCAPTURE_FRONT_END" >&2; exit 1 ;;
esac
out=$(env "${loader[@]}" CLCAPTURE_LOG=info "$@" 2>&1)
status=$?
echo "$out"
if ! grep -Eq -- "$expect" <<<"$out"; then
  echo "run-through-shim: expected output matching '$expect'" >&2
  exit 1
fi
# Which front end captured must be visible too: the layer says so; loaded both ways, one only forwards.
case ${CLCAPTURE_FRONT_END:-icd} in
  layer) also="clcapture: info: OPENCL_LAYERS layer in front of the loader" ;;
  both) also="clcapture: info: the (OPENCL_LAYERS layer captures in this process; the shim ICD|shim ICD captures in this process; the OPENCL_LAYERS layer) only forwards" ;;
  *) also="" ;;
esac
if [ -n "$also" ] && ! grep -Eq -- "$also" <<<"$out"; then
  echo "run-through-shim: expected output matching '$also'" >&2
  exit 1
fi
if [ "$status" -ne "$want_status" ]; then
  echo "run-through-shim: exit status $status, expected $want_status" >&2
  exit 1
fi
