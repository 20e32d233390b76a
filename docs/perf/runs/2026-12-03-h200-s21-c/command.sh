#!/usr/bin/env bash
# s21-c (2026-12-03, twenty-first session): binaries of $1 (reduce_offsets.cu's third
# form: windows strided across warps, more lanes a segment in small windows, a lean loop
# marking long segments) and gpuprims_oldseg (91d72fc, this session's bench sources).
# Tests: the reduce and segments tests, memcheck and racecheck of
# test_reduce_segments_gpu. Benches as s21-b; ncu durations of the two kernels.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s21c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 200 ctest --test-dir $B -j 4 -R "reduce|segments|argreduce|topk" --output-on-failure --timeout 180 >$R/ctest.log 2>&1
echo "ctest -R reduce|segments|argreduce|topk exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
echo "[$((SECONDS - T0))s] sanitizers" >>$O; pack
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu >$R/$tool.log 2>&1
  echo "$tool test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/$tool.log | tail -1); $(grep -h passed $R/$tool.log | tail -1))" >>$O
done
echo "[$((SECONDS - T0))s] benches" >>$O; pack
K=uniform,powerlaw,tiny,one,large,mix
for r in 1 2; do
  for v in gpuprims gpuprims_oldseg; do
    [ $((SECONDS - T0)) -lt 430 ] || break
    timeout 60 $B/$v bench reduce --offsets $K --n 2^24 --dtype f32,f64 --op sum --max-time 0.1 --quiet >$R/off_sum_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench reduce --offsets $K --n 2^24 --dtype i32 --op max --max-time 0.1 --quiet >$R/off_max_${v}_r$r.txt 2>&1
    timeout 40 $B/$v bench reduce --offsets powerlaw,uniform --n 2^20,2^27 --dtype f32 --op sum --max-time 0.1 --quiet >$R/off_n_${v}_r$r.txt 2>&1
  done
  pack
done
for k in uniform large one powerlaw; do
  [ $((SECONDS - T0)) -lt 480 ] || break
  timeout 40 ncu --clock-control none -k regex:gp_off --launch-skip 8 --launch-count 2 --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active $B/gpuprims bench reduce --offsets $k --n 2^24 --dtype f32 --op sum --no-peers --max-time 0.01 --quiet >$R/ncu_$k.txt 2>&1
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
