#!/usr/bin/env bash
# Last GPU call of the tenth session (2026-12-02): binaries of the commit given as $1
# (Release, sm_90) in c7.tar.xz, after the CPU radix sort's bucket change (the
# reference of the GPU sort tests) and the top-k grid helper: every sort, segments and
# top-k suite, CPU and GPU, and the CLI sort test.
set -u
L=/tmp/logs; mkdir -p $L
tar xf c7.tar.xz
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit ${1:-?}"; } >>$OUT/summary.txt
timeout 200 ctest --test-dir build -j 8 -R "sort|segments|topk" --output-on-failure --timeout 190 >$L/ctest.log 2>&1
echo "ctest -R 'sort|segments|topk' exit $?" >>$OUT/summary.txt
grep -E "Test +#|tests passed|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
tar czf $OUT/logs.tgz -C /tmp logs
