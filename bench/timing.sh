# Sourced by the bench/*.sh scripts: medians of timed runs.
#   run COMMAND...  runs it $reps times (stdout and stderr discarded, $work/cap removed before each run) and
#                   prints the median wall seconds
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }
run() {
  local times=() i t0 t1
  for ((i = 0; i < reps; i++)); do
    rm -rf "$work/cap"
    t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | median
}
