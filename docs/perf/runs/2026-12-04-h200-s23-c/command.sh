#!/usr/bin/env bash
# s23-c (2026-12-04): gpuprims = $1 (offsets with the two-batch prefetch, 2701e3e's
# code); variants of reduce_offsets.cu: s16 / s32 spans of 16 / 32 KB
# (GP_OFF_SPAN_BYTES), sp1 the span kernel prefetches its span's lines before reading
# the map (GP_OFF_SPAN_PF=1), sp2 also its next span (=2), s16p2 both. Test of the
# segments on the head binary; benches two rounds alternated.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 60 $B/test_reduce_segments_gpu >$R/test_seg.log 2>&1
echo "test_reduce_segments_gpu exit $? ($(grep -h passed $R/test_seg.log | tail -1))" >>$O
for v in s16 s32 sp2 s16p2; do
  timeout 60 $B/test_reduce_segments_gpu_$v >$R/test_seg_$v.log 2>&1
  echo "test_reduce_segments_gpu_$v exit $? ($(grep -h passed $R/test_seg_$v.log | tail -1))" >>$O
done
for r in 1 2; do
  for v in gpuprims gpuprims_s16 gpuprims_s32 gpuprims_sp1 gpuprims_sp2 gpuprims_s16p2; do
    timeout 60 $B/$v bench reduce --offsets large,uniform,powerlaw,one,mix --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/off24_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench reduce --offsets large,powerlaw,one --n 2^20,2^27 --dtype f32 --op sum --max-time 0.05 --quiet >$R/offn_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench reduce --offsets large,one --n 2^24 --dtype i32 --op max --max-time 0.05 --quiet --no-peers >$R/offmax_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
