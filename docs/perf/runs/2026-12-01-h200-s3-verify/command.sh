#!/usr/bin/env bash
# session scratch: verification + benches (not committed)
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; }
tar xf gpubin.tar.xz
B=build; G=$B/gpuprims
J=$OUT/json; mkdir -p $J
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >$OUT/summary.txt
s ctest
timeout 300 ctest --test-dir $B -j 4 --output-on-failure --timeout 280 -E cli_install >$OUT/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt; grep -E "tests passed|Skipped|Failed|\*\*\*" $OUT/ctest.log >>$OUT/summary.txt
s "exact quick"
GP_TEST_QUICK=1 timeout 60 $B/test_reduce_exact_gpu >$J/exact_quick.log 2>&1; echo "exact quick exit $?" >>$OUT/summary.txt
s bench
timeout 60 $G bench reduce --max-time 0.3 --quiet --dtype f32,i32 --op argmin,argmax --n 2^20,2^24,2^28,2^30 --json $J/arg.json >$J/arg.txt 2>&1
timeout 60 $G bench reduce --max-time 0.2 --quiet --dtype f32,f64 --op sum --n 2^10,2^11,2^12,2^13,2^14,2^15,2^16,2^17 --json $J/small.json >$J/small.txt 2>&1
R=1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576
timeout 120 $G bench reduce --max-time 0.2 --quiet --dtype f32 --op sum --n 2^26 --rows $R --json $J/rows.json >$J/rows.txt 2>&1
timeout 40 $G bench reduce --max-time 0.2 --quiet --dtype f64,i32 --op sum --n 2^26 --rows 1024,65536,1048576 --json $J/rows2.json >$J/rows2.txt 2>&1
tar xf var.tar.xz
for v in w2k; do
  timeout 60 $B/gpuprims_$v bench reduce --max-time 0.2 --quiet --dtype f32 --op sum --n 2^26 --rows 512,1024,2048,4096,32768,65536,262144,1048576 --json $J/rows_$v.json >$J/rows_$v.txt 2>&1
done
s pytest
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 90 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$OUT/pytest.log 2>&1
echo "pytest exit $? $(tail -1 $OUT/pytest.log)" >>$OUT/summary.txt
s cpu
rem=$((570 - SECONDS + T0)); [ $rem -gt 30 ] && timeout $rem python3 bench/numpy_cpu.py --lib $lib --reps 5 --json $J/cpu.json --md $J/cpu.md >$J/cpu.txt 2>&1
echo "cpu bench exit $? (uptime $(uptime))" >>$OUT/summary.txt
s done
tar czf $OUT/json.tgz -C $OUT json && rm -rf $J
