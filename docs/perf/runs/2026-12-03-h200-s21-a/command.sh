#!/usr/bin/env bash
# s21-a (2026-12-03, twenty-first session): binaries of $1 (gp_reduce_segments_offsets
# by reduce_offsets.cu: class windows for short segments, spans for long ones, nothing
# read back for device offsets) and gpuprims_oldseg (HEAD before the change, 91d72fc,
# with this session's bench sources). Tests: the reduce and segments tests, memcheck
# and racecheck of test_reduce_segments_gpu. Benches: --offsets of every kind at 2^24
# (f32, f64 sum; i32 max), powerlaw and uniform at 2^20 and 2^27, rows at 2^26, new
# against old, alternated, two rounds, CUB in each process.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s21a.tar.xz
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
    timeout 30 $B/$v bench reduce --rows 64,1024,16384 --n 2^26 --dtype f32 --op sum --max-time 0.1 --quiet >$R/rows_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
