#!/usr/bin/env bash
# Seventh GPU call of the tenth session (2026-12-02), for the host's 16 CPU cores: the
# CPU radix sort's MSD buckets sized in bytes (64 KiB of keys: 16384 4-byte keys, 8192
# 8-byte ones) against 8192 keys for every width. lib_base.so (da42f84) and
# lib_b64kB.so (that change) in c6.tar.xz; sort_ab.py (runs/2026-12-01-h200-s4-cpuab)
# three rounds alternated, then bench/numpy_cpu.py once each; test_sort_radix_gpu
# (quick) of the change, whose reference is the CPU radix sort.
set -u
L=/tmp/logs; mkdir -p $L
tar xf c6.tar.xz
{ lscpu | grep -E "Model name|^CPU\(s\)|L2"; cat /proc/loadavg; } >>$OUT/summary.txt
R=docs/perf/runs/2026-12-01-h200-s4-cpuab/sort_ab.py
REPS=9 timeout 240 python3 $R lib_base.so lib_b64kB.so lib_base.so lib_b64kB.so lib_base.so lib_b64kB.so >$L/sort_ab.txt 2>&1
echo "sort_ab exit $?" >>$OUT/summary.txt
cat $L/sort_ab.txt >>$OUT/summary.txt
for v in base b64kB; do
  timeout 150 python3 bench/numpy_cpu.py --lib lib_$v.so --reps 5 --json $L/numpy_cpu_$v.json --md $L/numpy_cpu_$v.md >$L/numpy_cpu_$v.txt 2>&1
  echo "numpy_cpu $v exit $?" >>$OUT/summary.txt
  cat $L/numpy_cpu_$v.md >>$OUT/summary.txt
done
GP_TEST_QUICK=1 timeout 150 build/test_sort_radix_gpu >$L/radix_gpu.log 2>&1
echo "test_sort_radix_gpu (quick) exit $? ($(tail -1 $L/radix_gpu.log))" >>$OUT/summary.txt
tar czf $OUT/logs.tgz -C /tmp logs
