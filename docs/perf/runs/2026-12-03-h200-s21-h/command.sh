#!/usr/bin/env bash
# s21-h (2026-12-03, twenty-first session): binaries of $1 (the session's last code:
# after s21-g only comments, one expression with the same values and the policy
# dispatch stamped by a macro). test_reduce_segments_gpu and its memcheck; one bench of
# power-law and uniform offsets, f32, 2^24, CUB in the process.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s21h.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 60 $B/test_reduce_segments_gpu >$R/test.log 2>&1; echo "test_reduce_segments_gpu exit $? ($(tail -1 $R/test.log))" >>$O
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_segments_gpu >$R/memcheck.log 2>&1
echo "memcheck test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/memcheck.log | tail -1); $(grep -h passed $R/memcheck.log | tail -1))" >>$O
timeout 30 $B/gpuprims bench reduce --offsets powerlaw,uniform --n 2^24 --dtype f32 --op sum --max-time 0.1 --quiet >$R/offsets.txt 2>&1
echo "[$((SECONDS - T0))s] done" >>$O; pack
