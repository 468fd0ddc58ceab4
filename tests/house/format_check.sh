#!/usr/bin/env bash
# Every C and C++ file of the tree is formatted as .clang-format says, by clang-format 16 (Debian package
# clang-format-16, installed by tools/setup.sh): prints the files that are not and exits 1. To fix them:
#   git ls-files '*.c' '*.cpp' '*.h' | xargs clang-format-16 -i
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
command -v clang-format-16 >/dev/null || { echo "format check: clang-format-16 missing (tools/setup.sh installs it)"; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h')
else
  mapfile -t files < <(find common layer analyzer bugreport tests samples bench -name '*.c' -o -name '*.cpp' -o -name '*.h')
fi
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  clang-format-16 --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
for f in "${bad[@]}"; do echo "not formatted: $f"; done
echo "format check: ${#files[@]} files, ${#bad[@]} not formatted"
[ ${#bad[@]} -eq 0 ]
