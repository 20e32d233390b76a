#!/usr/bin/env bash
# s23-b (2026-12-04): gpuprims = $1 (no prefetch, as before); prologue-only L2 prefetch
# variants (GP_SEG_PF_BYTES / GP_SEG_PF_MAX): reduce_offsets.cu o4 4096/8192, o8
# 8192/8192, o8x 8192/any, o16 16384/16384; reduce_segments.cu r8 8192/16384, r4x
# 4096/any. Benches two rounds alternated.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for r in 1 2; do
  for v in gpuprims gpuprims_o4 gpuprims_o8 gpuprims_o8x gpuprims_o16; do
    timeout 60 $B/$v bench reduce --offsets uniform,large,powerlaw,mix --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/off24_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench reduce --offsets uniform,large,powerlaw --n 2^20,2^27 --dtype f32 --op sum --max-time 0.05 --quiet >$R/offn_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench reduce --offsets uniform,large --n 2^24 --dtype i32 --op max --max-time 0.05 --quiet --no-peers >$R/offmax_${v}_r$r.txt 2>&1
  done
  for v in gpuprims gpuprims_r8 gpuprims_r4x; do
    timeout 60 $B/$v bench reduce --rows 256,1024,4096,16384,65536 --n 2^26 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/rows_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
