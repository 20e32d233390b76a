#!/usr/bin/env bash
# s23-e (2026-12-04): gpuprims = $1 (spans of 8 KB or more, at most 8192, long = 2
# spans); m4k: at most 4096 spans; m4kc: that and long = 1 span (GP_OFF_LONG_SPANS=1);
# hc: at most 8192 spans, long = 1 span. Tests of the new variants; benches two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23e.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for v in m4kc hc; do
  timeout 60 $B/test_reduce_segments_gpu_$v >$R/test_seg_$v.log 2>&1
  echo "test_reduce_segments_gpu_$v exit $? ($(grep -h passed $R/test_seg_$v.log | tail -1))" >>$O
done
for r in 1 2; do
  for v in gpuprims gpuprims_m4k gpuprims_m4kc gpuprims_hc; do
    timeout 120 $B/$v bench reduce --offsets large,mix,powerlaw,one,uniform --n 2^24,2^25,2^26,2^27 --dtype f32,f64 --op sum --max-time 0.04 --quiet >$R/off_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
