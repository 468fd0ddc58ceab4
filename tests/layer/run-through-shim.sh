#!/usr/bin/env bash
# Runs a command with libclcapture.so as the only ICD the loader sees (ocl-icd's OCL_ICD_VENDORS, the
# launcher's recipe) and CLCAPTURE_ICD naming the real driver, then checks positive signals: the command
# passed its own check, and the capture library said it forwarded to that driver (a loader silently skips
# a broken ICD, so success alone proves nothing).
#   run-through-shim.sh SHIM_LIB DRIVER EXPECTED_LOG_REGEX EXPECTED_STATUS -- COMMAND [ARGS...]
set -uo pipefail
shim=$1 driver=$2 expect=$3 want_status=$4
shift 4
[ "$1" = "--" ] && shift
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$shim" > "$vendors/clcapture.icd"
out=$(OCL_ICD_VENDORS=$vendors OCL_ICD_FILENAMES=$shim CLCAPTURE_ICD=$driver CLCAPTURE_LOG=info "$@" 2>&1)
status=$?
echo "$out"
if ! grep -Eq -- "$expect" <<<"$out"; then
  echo "run-through-shim: expected output matching '$expect'" >&2
  exit 1
fi
if [ "$status" -ne "$want_status" ]; then
  echo "run-through-shim: exit status $status, expected $want_status" >&2
  exit 1
fi
