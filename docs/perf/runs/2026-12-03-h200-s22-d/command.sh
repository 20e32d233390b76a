#!/usr/bin/env bash
# s22-d (2026-12-03, twenty-second session): gpuprims = $1 (F32 exact segment sums: a
# batch whose window fits a double added plainly; a warp whose lanes all fit one window
# merged plainly; shifts for the span geometry), gpuprims_head (8eb966f).
# test_reduce_segments_gpu (+ memcheck, racecheck); the mutants mutB (batch window 3 bits
# too wide) and mutW (warp window 3 bits too wide) must fail; pytest (Python tests with
# torch/cupy, the new argmin/argmax and axis/offsets); benches two rounds; ncu mix.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s22d.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 60 $B/test_reduce_segments_gpu >$R/test.log 2>&1
echo "test_reduce_segments_gpu exit $? ($(grep -h passed $R/test.log | tail -1))" >>$O
for m in mutB mutW; do
  timeout 60 $B/test_reduce_segments_gpu_$m >$R/test_$m.log 2>&1
  echo "test_reduce_segments_gpu_$m (must fail) exit $? ($(grep -h passed $R/test_$m.log | tail -1); $(grep -c 'window data' $R/test_$m.log) window lines: $(grep -o 'window data [0-9], [a-z]*' $R/test_$m.log | sort | uniq -c | tr '\n' ' '))" >>$O
done
timeout 200 bash python/tests/ctest.sh $PWD/$B/libgpuprims.so $PWD >$R/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $R/pytest.log))" >>$O
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
echo "[$((SECONDS - T0))s] sanitizers" >>$O; pack
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu >$R/$tool.log 2>&1
  echo "$tool test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/$tool.log | tail -1); $(grep -h passed $R/$tool.log | tail -1))" >>$O
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
