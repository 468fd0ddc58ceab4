#!/usr/bin/env bash
# Issue 12's deadlock hunt on the NVIDIA machine: repeated full captures of `bench_launches 20000` (20,000
# identical launches, in-order queue, no waits until the final read); a run still going after LIMIT seconds is
# called hung, and eu-stack dumps every thread of the application into $OUT/stack-N.txt.
# Prepare here, then carry build/packages/*.tar.gz, build/samples, build/lib, build/debug-tools:
#   cd /tmp && apt-get download elfutils && dpkg -x elfutils_*.deb elfu
#   mkdir -p build/debug-tools && cp /tmp/elfu/usr/bin/eu-stack /usr/lib/x86_64-linux-gnu/lib{dw,elf}.so.1 build/debug-tools/
#   RUNS=10 LIMIT=40 [LOADER=/usr/lib/x86_64-linux-gnu/libOpenCL.so.1] bash tools/nvidia-deadlock-hunt.sh
root=$(pwd)
tools=$root/build/debug-tools   # eu-stack, libdw.so.1, libelf.so.1
mkdir -p "$OUT" /tmp/nv && echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/nv/nvidia.icd
loader=${LOADER:-$(ls /usr/local/cuda*/targets/x86_64-linux/lib/libOpenCL.so.1 | head -1)}
mkdir -p /tmp/rel && tar xzf "$root"/build/packages/clcapture-*-linux-x86_64.tar.gz -C /tmp/rel
launcherBin=$(ls -d /tmp/rel/clcapture-*)/bin/clcapture
export CLCAPTURE_LIBRARY=$root/build/lib/libclcapture.so
for i in $(seq 1 ${RUNS:-12}); do
  rm -rf /tmp/cap
  start=$(date +%s.%N)
  LD_PRELOAD=$loader "$launcherBin" --no-preflight --icd /tmp/nv/nvidia.icd --dir /tmp/cap -- \
    "$root/build/samples/bench_launches" 20000 > /tmp/run.log 2>&1 &
  launcher=$!
  hung=0
  for t in $(seq 1 ${LIMIT:-40}); do
    sleep 1
    kill -0 $launcher 2>/dev/null || break
    [ $t -eq ${LIMIT:-40} ] && hung=1
  done
  end=$(date +%s.%N)
  if [ $hung = 1 ]; then
    app=$(pgrep -f "samples/bench_launches" | head -1)
    echo "run $i: HUNG after ${LIMIT:-40}s (app pid $app)"
    LD_LIBRARY_PATH=$tools "$tools/eu-stack" -p "$app" -s -m -v > "$OUT/stack-$i.txt" 2>&1
    cat /proc/$app/status | grep -i threads >> "$OUT/stack-$i.txt"
    grep -c "launches" /tmp/cap/captures.meta.json 2>/dev/null
    kill -9 $app $launcher 2>/dev/null
    wait $launcher 2>/dev/null
    head -c 300 "$OUT/stack-$i.txt"; echo
    [ -n "${STOP_ON_HANG:-1}" ] && break
  else
    wait $launcher; status=$?
    echo "run $i: exit $status in $(python3 -c "print(round($end-$start,1))") s: $(tail -1 /tmp/run.log)"
  fi
done
