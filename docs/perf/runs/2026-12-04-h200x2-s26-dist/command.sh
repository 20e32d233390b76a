#!/usr/bin/env bash
# s26-dist (2026-12-04, twenty-sixth session): binaries of $1 on two H200s: the two
# tests that need two GPUs (test_dist_gpu, cli_gpus), skipped on one GPU in s26-final2.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26f.tar.xz
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 200 ctest --test-dir build -R "test_dist_gpu|cli_gpus" --output-on-failure --timeout 180 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout|Passed" $R/ctest.log >>$O
pack
