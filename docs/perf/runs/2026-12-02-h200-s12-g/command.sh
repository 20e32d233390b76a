#!/usr/bin/env bash
# The staging pipeline's shape for pageable host arrays (issue 13: gp_reduce of 2^28 f32
# from malloc'd memory >= 40 GB/s), swept through its tuning variables
# (GPUPRIMS_STAGE_THREADS, GPUPRIMS_STAGE_CHUNK_MB; src/core/host_io.h): binaries of the
# commit given as $1 (build/gpuprims in c12g.tar.xz), `gpuprims bench host --big 2^28
# --reps 10` per setting, the default (8 threads, 8 MiB) first and last. $OUT/out.txt.
set -u
O=$OUT/out.txt
tar xf c12g.tar.xz
echo "binaries of ${1:-?}; $(cat /proc/loadavg)" >>$O
for tc in 8:8 4:8 12:8 16:8 8:4 8:16 8:32 16:16 8:8; do
  t=${tc%:*}; c=${tc#*:}
  echo "== threads $t chunk $c MiB" >>$O
  GPUPRIMS_STAGE_THREADS=$t GPUPRIMS_STAGE_CHUNK_MB=$c timeout 60 build/gpuprims bench host --big 268435456 --reps 10 2>&1 | grep -E "pageable|pinned|sort" >>$O
done
