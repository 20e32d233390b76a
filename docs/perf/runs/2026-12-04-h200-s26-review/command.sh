#!/usr/bin/env bash
# s26-review (2026-12-04, twenty-sixth session): binaries of $1 (after the review: the
# rank sort's cooperative decision through gp_resident_blocks and per_device.h flags; its
# kernels and the radix kernels unchanged). The radix test (AUTO's small sorts against the
# CPU backend, the takes() ranges) and AUTO u32 keys at 2^11 / 3000 (the cooperative path).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26v.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 100 $B/test_sort_radix_gpu >$R/test_sort_radix_gpu.log 2>&1
echo "test_sort_radix_gpu exit $? ($(grep -h passed $R/test_sort_radix_gpu.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
timeout 30 $B/gpuprims bench sort --algo auto --sizes 2^11,3000 --no-seed --no-segments --quiet --max-time 0.1 >$R/u32.txt 2>&1
echo "[$((SECONDS - T0))s] done" >>$O; pack
