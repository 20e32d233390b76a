#!/usr/bin/env bash
# s22-c (2026-12-03, twenty-second session): gpuprims = $1 (F32 exact sums: a batch whose
# window fits a double added with plain additions, else tried; F64 tried per batch),
# test_reduce_segments_gpu_mut (the window 3 bits too wide: must fail), gpuprims_head (8eb966f).
# test_reduce_segments_gpu (+ memcheck); offsets and rows benches, two rounds;
# ncu source counters of the new span kernel (large, f32 sum).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s22c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 60 $B/test_reduce_segments_gpu >$R/test.log 2>&1
echo "test_reduce_segments_gpu exit $? ($(grep -h passed $R/test.log | tail -1))" >>$O
timeout 60 $B/test_reduce_segments_gpu_mut >$R/test_mut.log 2>&1
echo "test_reduce_segments_gpu_mut (must fail) exit $? ($(grep -h passed $R/test_mut.log | tail -1); $(grep -c 'window data' $R/test_mut.log) window failures)" >>$O
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_segments_gpu >$R/memcheck.log 2>&1
echo "memcheck test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/memcheck.log | tail -1); $(grep -h passed $R/memcheck.log | tail -1))" >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
K=uniform,powerlaw,tiny,one,large,mix
for r in 1 2; do
  for v in gpuprims gpuprims_head; do
    timeout 60 $B/$v bench reduce --offsets $K --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/off_sum_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench reduce --offsets $K --n 2^24 --dtype i32 --op max --max-time 0.05 --quiet --no-peers >$R/off_max_${v}_r$r.txt 2>&1
    timeout 40 $B/$v bench reduce --offsets powerlaw,uniform,large --n 2^20,2^27 --dtype f32 --op sum --max-time 0.05 --quiet >$R/off_n_${v}_r$r.txt 2>&1
    timeout 40 $B/$v bench reduce --rows 64,1024,16384 --n 2^26 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/rows_${v}_r$r.txt 2>&1
  done
  pack
done
ncu --clock-control none --set full -k regex:gp_off_span --launch-skip 8 --launch-count 1 -o $R/span_large $B/gpuprims bench reduce --offsets large --n 2^24 --dtype f32 --op sum --no-peers --max-time 0.01 --quiet >$R/ncu_run1.txt 2>&1
ncu -i $R/span_large.ncu-rep --page details >$R/span_large.details.txt 2>&1
ncu -i $R/span_large.ncu-rep --page source --csv --print-source sass >$R/span_large.sass.csv 2>&1
rm -f $R/span_large.ncu-rep
echo "[$((SECONDS - T0))s] done" >>$O; pack
