#!/usr/bin/env bash
# Last GPU call of the thirteenth session: binaries of the commit given as $1 in
# c13g.tar.xz, with radix.cu variants of 17 and 19 keys a thread for 4-byte pairs
# (gpuprims_p4_17, gpuprims_p4_19; 18 is the kept one): u32/u32 pairs against CUB at
# 2^20, 2^24, 2^28, the three binaries alternated, two rounds.
set -u
O=$OUT/out.txt
tar xf c13g.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >>$O
for v in new p4_17 p4_19 new p4_17 p4_19; do
  g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
  echo "== u32/u32 $v" >>$O
  timeout 60 $g bench sort --algo auto --pairs u32 --max-time 0.4 --quiet --no-seed --no-segments --sizes 2^20,2^24,2^28 2>&1 | grep -E "^(gpuprims|cub)" >>$O
done
