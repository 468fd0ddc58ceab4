#!/usr/bin/env bash
# Installs every Debian 12 package clcapture needs to build, test and run.
# Idempotent: packages already present are skipped, and `apt-get update` runs at most once per call
# (and only when something is missing). Non-interactive; needs root (or sudo).
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build ccache pkg-config git bc
  # OpenCL: loader, headers, CPU driver, second driver + race oracle, inspector
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd oclgrind clinfo
  # analyzer: Clang/LLVM 16 as libraries, CVC5, libFuzzer runtime for clang-16
  llvm-16-dev libclang-16-dev clang-16 libclang-rt-16-dev libcvc5-dev
  # common libraries
  nlohmann-json3-dev libspdlog-dev catch2 libcli11-dev libxxhash-dev libdw-dev
  # bug reports: clcapture pack archives (bugreport/)
  libarchive-dev
  # debugger/: Oclgrind's interpreter as a library (built on LLVM 14, whose headers it includes), and GNU
  # Readline for the terminal (the line editor liboclgrind itself loads)
  liboclgrind-dev llvm-14-dev libreadline-dev
  # tests/house: functions and their lengths (architecture.py), the format check (format_check.sh)
  universal-ctags clang-format-16
  # test helpers (Debian's python, not PyPI); creduce reduces the soundness fuzzer's reproducers
  python3 python3-jsonschema python3-pyopencl creduce
  # launcher tests: a copy of libclcapture.so that cannot load (patchelf --add-needed)
  patchelf
  # the third-party programs of tests/realapps (captured and verified end to end)
  clblast-tests ffmpeg clfft-client python3-opencv python3-simtk libopenmm-plugins hashcat
  # a test suite in many processes (docs/real-apps.md): PyOpenCL's tests under pytest -n 4
  python3-pytest python3-pytest-xdist
  # bench/monte_carlo.sh: Boost.Compute's monte_carlo example, built against -lOpenCL
  libboost1.74-doc libboost1.74-dev
  # tools/cts_with_layer.py: the Khronos CTS's compiler suite assembles SPIR-V at build time (spirv-as)
  spirv-tools
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
