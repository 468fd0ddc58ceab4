#!/usr/bin/env bash
# The deadlock hunt on the NVIDIA machine: full captures of `bench_launches 20000` until HANGS hangs or
# RUNS runs; a run still going after LIMIT s is called hung, its launch count is read twice 5 s apart, and
# eu-stack dumps every thread into $OUT/stack-N.txt. EXPECT=NVIDIA makes the sample refuse other platforms.
# Runs from a kit carried to the machine (nothing installs there); make it here:
#   K=build/device-kit; mkdir -p $K/bin $K/lib $K/samples $K/debug-tools
#   cp build/bin/clcapture $K/bin; cp build/lib/libclcapture.so $K/lib; strip --strip-debug $K/lib/*.so
#   cp build/samples/bench_launches $K/samples; cp tools/nvidia-deadlock-hunt.sh $K/hunt.sh
#   (cd /tmp && apt-get download elfutils libdw1 libelf1 && for d in *.deb; do dpkg -x $d elfu; done)
#   cp /tmp/elfu/usr/bin/eu-stack /tmp/elfu/usr/lib/x86_64-linux-gnu/lib{dw,elf}.so.1 $K/debug-tools/
# then on the device: RUNS=50 HANGS=2 LIMIT=45 bash build/device-kit/hunt.sh
K=$(cd "$(dirname "$0")" && pwd)
L=$(ls /usr/local/cuda*/targets/x86_64-linux/lib/libOpenCL.so.1 | head -1)
mkdir -p /tmp/nv && echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/nv/nvidia.icd
hangs=0
for i in $(seq 1 ${RUNS:-30}); do
  rm -rf /tmp/cap; start=$(date +%s)
  env ${EXPECT:+SAMPLE_EXPECT_PLATFORM=$EXPECT} LD_PRELOAD=$L "$K/bin/clcapture" --no-preflight --icd /tmp/nv/nvidia.icd --dir /tmp/cap -- "$K/samples/bench_launches" 20000 > /tmp/run.log 2>&1 &
  pid=$!; hung=1
  for t in $(seq 1 ${LIMIT:-40}); do sleep 1; kill -0 $pid 2>/dev/null || { hung=0; break; }; done
  if [ $hung = 1 ]; then
    app=$(pgrep -f "samples/bench_launches" | head -1); hangs=$((hangs+1))
    n1=$(grep -o '"launch": [0-9]*' /tmp/cap/captures.meta.json | wc -l); sleep 5; n2=$(grep -o '"launch": [0-9]*' /tmp/cap/captures.meta.json | wc -l)
    echo "run $i: HUNG after ${LIMIT:-40} s; $n1 then 5 s later $n2 launches recorded; $(grep -m1 platform /tmp/run.log)"; top -b -n1 -p $app | tail -2
    LD_LIBRARY_PATH=$K/debug-tools "$K/debug-tools/eu-stack" -p "$app" > "$OUT/stack-$i.txt" 2>&1
    grep -c "^TID" "$OUT/stack-$i.txt"; head -c 600 "$OUT/stack-$i.txt"
    kill -9 $app $pid 2>/dev/null; wait $pid 2>/dev/null
    [ $hangs -ge ${HANGS:-2} ] && break
  else
    wait $pid; echo "run $i: exit $? in $(( $(date +%s) - start )) s, $(grep -o '"launch": [0-9]*' /tmp/cap/captures.meta.json | wc -l) launches; $(grep -m1 platform /tmp/run.log)"
  fi
done
