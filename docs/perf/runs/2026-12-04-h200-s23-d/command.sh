#!/usr/bin/env bash
# s23-d (2026-12-04): gpuprims = $1 (offsets: spans of 8 KB or more, at most 8192 of
# them); m4k / m2k: at most 4096 / 2048 spans (GP_OFF_MAX_SPANS), i.e. larger spans from
# 2^23 (f32) / 2^22 (f64) elements up. Tests of the variants; benches two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23d.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for v in m4k m2k; do
  timeout 60 $B/test_reduce_segments_gpu_$v >$R/test_seg_$v.log 2>&1
  echo "test_reduce_segments_gpu_$v exit $? ($(grep -h passed $R/test_seg_$v.log | tail -1))" >>$O
done
for r in 1 2; do
  for v in gpuprims gpuprims_m4k gpuprims_m2k; do
    timeout 90 $B/$v bench reduce --offsets large,powerlaw,one,mix,uniform --n 2^20,2^22,2^24,2^26,2^27 --dtype f32,f64 --op sum --max-time 0.04 --quiet >$R/off_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench reduce --offsets large,powerlaw,one --n 2^22,2^24,2^26 --dtype i32 --op max --max-time 0.04 --quiet --no-peers >$R/offmax_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
