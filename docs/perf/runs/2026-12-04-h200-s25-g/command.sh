#!/usr/bin/env bash
# s25-g (2026-12-04, twenty-fifth session): binaries of $1. AUTO u32 keys at every power
# of two from 2^11 to 2^30 that s25-final2 did not measure, CUB in the same process.
set -u
R=/tmp/r; rm -rf $R; mkdir -p $R
tar xf s25g.tar.xz
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$R/summary.txt
timeout 200 build/gpuprims bench sort --algo auto --sizes 2^12,2^13,2^14,2^15,2^17,2^19,2^21,2^23,2^25,2^27,2^29 --no-seed --no-segments --quiet --max-time 0.15 --json $R/u32_rest.json >$R/u32_rest.txt 2>&1
echo "bench exit $?" >>$R/summary.txt
tar czf $OUT/r.tgz -C /tmp r
