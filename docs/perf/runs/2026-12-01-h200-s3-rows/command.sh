#!/usr/bin/env bash
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; }
tar xf gpubin.tar.xz
B=build; G=$B/gpuprims; J=$OUT/json; mkdir -p $J
s seg-test
timeout 120 $B/test_reduce_segments_gpu >$J/seg_test.log 2>&1; echo "seg test exit $? $(tail -1 $J/seg_test.log)" >>$OUT/summary.txt
timeout 60 $B/test_reduce_segments >$J/seg_cpu.log 2>&1; echo "seg cpu exit $? $(tail -1 $J/seg_cpu.log)" >>$OUT/summary.txt
s bench
R=1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
timeout 120 $G bench reduce --max-time 0.2 --quiet --dtype f32 --op sum --n 2^26 --rows $R --json $J/rows.json >$J/rows.txt 2>&1
timeout 90 $G bench reduce --max-time 0.2 --quiet --dtype f64,i32 --op sum --n 2^26 --rows 16,1024,65536,1048576 --json $J/rows2.json >$J/rows2.txt 2>&1
tar xf var.tar.xz
timeout 60 $B/gpuprims_c8k bench reduce --max-time 0.2 --quiet --dtype f32,i32 --op sum --n 2^26 --rows 4096,8192,16384,32768,65536,131072,262144 --json $J/rows_c8k.json >$J/rows_c8k.txt 2>&1
s sanitize
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu >$J/san_$tool.log 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $J/san_$tool.log | tail -1)" >>$OUT/summary.txt
done
s done
tar czf $OUT/json.tgz -C $OUT json && rm -rf $J
