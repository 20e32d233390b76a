#!/usr/bin/env bash
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; }
tar xf gpubin.tar.xz
B=build; G=$B/gpuprims; J=$OUT/json; mkdir -p $J
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>$OUT/summary.txt
s ctest
timeout 100 ctest --test-dir $B -j 6 --output-on-failure --timeout 95 -R "segments|topk|argreduce|sort_cpu|python|threads" >$OUT/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt; grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $OUT/ctest.log >>$OUT/summary.txt
s rows
timeout 25 $G bench reduce --max-time 0.15 --quiet --dtype f32 --op sum --n 2^26 --rows 1,2,4,8,16,32,1024,4096,8192,65536,1048576 --json $J/rows.json >$J/rows.txt 2>&1
s topk
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 35 python3 -m gpuprims.bench --suites topk --sizes 268435456 --json $J/topk.json) >$J/topk.txt 2>&1
echo "topk bench exit $?" >>$OUT/summary.txt
s done
tar czf $OUT/json.tgz -C $OUT json
