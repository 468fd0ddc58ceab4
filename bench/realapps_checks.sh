#!/bin/bash
# Verifies every tests/realapps capture in turn with the checks given, as a user would (no verdict cache), and
# prints each application's verdicts. For the cost of memory safety (docs/verify-benchmark.md):
#   farm-bench -n 3 --timeout 1500 --vs 'bench/realapps_checks.sh races,divergence' -- bench/realapps_checks.sh all
# usage: realapps_checks.sh CHECKS [REALAPPS_WORK_DIR]   (default build/tests/realapps/work, from `ctest -L realapps`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
checks=${1:?usage: realapps_checks.sh CHECKS [REALAPPS_WORK_DIR]}
work=${2:-$root/build/tests/realapps/work}
verify=${CLCAPTURE_VERIFY:-$root/build/bin/clcapture-verify}
shopt -s nullglob
captures=("$work"/*/capture)
[ ${#captures[@]} -gt 0 ] || { echo "realapps_checks.sh: no captures under $work (run ctest -L realapps)" >&2; exit 2; }
for capture in "${captures[@]}"; do
  app=$(basename "$(dirname "$capture")")
  # Exit status 6 is "not every launch verified": a verdict, not a failure of this script.
  summary=$("$verify" --no-cache --quiet -j 2 --timeout 60 --checks="$checks" "$capture" 2>&1 | tail -n 1) || true
  echo "$app: $summary"
done
