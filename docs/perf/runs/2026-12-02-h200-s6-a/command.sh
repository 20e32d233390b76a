#!/usr/bin/env bash
# First GPU call of the sixth session (2026-12-02): binaries of b58ec7d (Release, sm_90)
# built on the dev box and carried as gpubin.tar.xz (gpuprims, the variants, the sort tests).
# The composite sort of many large segments by offsets (from branch seg-composite), tiny
# segments four to a warp (variants ws1/ws8: GP_RX_WARP_SEGS), argsort of 4-byte keys up
# to 2^16 by bitonic composites (variant ab0: off). Tests and memcheck first, then benches
# beside CUB, then Nsight Compute on the tiny-segment kernels.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1 2>/dev/null; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ctest
timeout 240 ctest --test-dir $B -j 3 -R "sort_radix_gpu|radix_scratch|test_sort_gpu|topk_rows_gpu" --output-on-failure --timeout 230 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*|Passed|sec$" $L/ctest.log >>$OUT/summary.txt
s memcheck
GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$L/memcheck.log 2>&1
echo "memcheck test_sort_radix_gpu exit $? ($(tail -1 $L/memcheck.log))" >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 90 python3 -m pytest -q -rs -p no:cacheprovider -k "sort" tests) >$L/pytest.log 2>&1
echo "pytest -k sort exit $? ($(tail -1 $L/pytest.log))" >>$OUT/summary.txt
s bench-offsets
BS="--max-time 0.3 --quiet --no-seed --no-segments --sizes 2^11"
timeout 120 $B/gpuprims bench sort $BS --offsets large,uniform,powerlaw,tiny,one --json $L/offsets.json >$L/offsets.txt 2>&1
echo "offsets exit $?" >>$OUT/summary.txt
for v in ws1 ws8; do
  timeout 60 $B/gpuprims_$v bench sort $BS --no-peers --offsets tiny >$L/tiny_$v.txt 2>&1
done
grep -h "offsets\|segments" $L/offsets.txt $L/tiny_ws*.txt >>$OUT/summary.txt
s bench-argsort
AS="--max-time 0.3 --quiet --no-seed --no-segments --argsort --sizes 2^11,2^12,2^13,2^14,2^15,2^16,2^17"
for d in u32 f32; do
  timeout 60 $B/gpuprims bench sort $AS --dtype $d --json $L/argsort_$d.json >$L/argsort_$d.txt 2>&1
  timeout 60 $B/gpuprims_ab0 bench sort $AS --dtype $d --no-peers >$L/argsort_${d}_ab0.txt 2>&1
done
grep -h "argsort" $L/argsort_*.txt >>$OUT/summary.txt
s ncu
for b in gpuprims gpuprims_ws1; do
  timeout 90 ncu --clock-control none -k regex:"rx_summarize|rx_warpsort" -c 2 --section SpeedOfLight \
    --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    $B/$b bench sort --max-time 0.01 --min-samples 1 --warmup 0 --quiet --no-seed --no-segments --no-peers \
    --sizes 2^11 --offsets tiny >$L/ncu_tiny_$b.txt 2>&1
  grep -E "rx_|Duration|Achieved Occupancy|Registers Per|DRAM Throughput" $L/ncu_tiny_$b.txt >>$OUT/summary.txt
done
s done
save
