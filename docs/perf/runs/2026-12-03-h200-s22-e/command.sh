#!/usr/bin/env bash
# s22-e (2026-12-03, twenty-second session): gpuprims = $1 (the F32 window of plain
# additions, src/cuda/reduce/xs_window.cuh, now also in gp_reduce's exact kernel),
# gpuprims_head (8eb966f). Tests: test_reduce_exact_gpu (new test_window on forced
# grids), test_reduce_segments_gpu; the mutants (windows 3 bits too wide) mutE, mutB,
# mutW must fail. Benches: gp_reduce f32/f64 sum 2^12..2^30 (uniform, and f32 wide at
# 2^20/2^24/2^28), offsets f32 sum 2^24, two rounds each, CUB beside.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s22e.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_reduce_exact_gpu test_reduce_segments_gpu test_reduce_exact_gpu_mutE test_reduce_segments_gpu_mutB test_reduce_segments_gpu_mutW; do
  timeout 120 $B/$t >$R/$t.log 2>&1
  echo "$t exit $? ($(grep -h passed $R/$t.log | tail -1); $(grep -ho 'window [a-z]* [0-9]*' $R/$t.log | sort | uniq -c | tr '\n' ' '))" >>$O
done
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for r in 1 2; do
  for v in gpuprims gpuprims_head; do
    timeout 90 $B/$v bench reduce --n 2^12,2^16,2^20,2^22,2^24,2^26,2^28,2^30 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/sum_${v}_r$r.txt 2>&1
    timeout 40 $B/$v bench reduce --n 2^20,2^24,2^28 --dtype f32 --op sum --data wide --max-time 0.05 --quiet >$R/wide_${v}_r$r.txt 2>&1
    timeout 40 $B/$v bench reduce --offsets uniform,powerlaw,one,large --n 2^24 --dtype f32 --op sum --max-time 0.05 --quiet >$R/off_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
