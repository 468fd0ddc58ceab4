#!/usr/bin/env bash
# Runs the stub app against the stub driver and compares what the app sent with what the stub received.
#   run-stub-test.sh SHIM_LIB STUB_LIB APP HOOKLIST_H SCHEMAS_DIR control|shim
# control: ocl-icd loads the stub directly. shim: ocl-icd loads only libclcapture.so (the launcher's recipe),
# which forwards to the stub (CLCAPTURE_ICD) and captures into a temporary folder, checked afterwards.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shim=$1 stub=$2 app=$3 hooklist=$4 schemas=$5 mode=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/vendors"
if [ "$mode" = control ]; then
  echo "$stub" > "$work/vendors/stub.icd"
  OCL_ICD_VENDORS=$work/vendors CLCAPTURE_STUB_LOG=$work/stub.log "$app" "$work/app.log"
  status=$?
  capture=()
else
  echo "$shim" > "$work/vendors/clcapture.icd"
  OCL_ICD_VENDORS=$work/vendors OCL_ICD_FILENAMES=$shim CLCAPTURE_ICD=$stub CLCAPTURE_DIR=$work/capture \
    CLCAPTURE_LOG=info CLCAPTURE_STUB_LOG=$work/stub.log "$app" "$work/app.log" 2> "$work/layer.log"
  status=$?
  cat "$work/layer.log" >&2
  # The positive signal: the capture library loaded and forwarded to the stub (a loader skips a broken ICD).
  if ! grep -q "clcapture: info: forwarding to $stub" "$work/layer.log"; then
    echo "run-stub-test: libclcapture.so did not say it forwards to the stub" >&2
    exit 1
  fi
  capture=(--capture "$work/capture" --schemas "$schemas")
fi
if [ "$status" -ne 0 ]; then
  echo "run-stub-test: the app failed with status $status" >&2
  exit 1
fi
/usr/bin/python3 "$here/compare_logs.py" "$mode" "$work/app.log" "$work/stub.log" "$hooklist" "${capture[@]}"
