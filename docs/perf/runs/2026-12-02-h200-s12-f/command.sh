#!/usr/bin/env bash
# A/B of the arg-min/max kernel's loads in flight (GP_ARG_UNROLL, src/cuda/reduce/
# argreduce.cu): binaries of the commit given as $1 in c12f2.tar.xz: gpuprims (4 loads
# of 16 bytes a thread), gpuprims_u8 (8) and gpuprims_u2 (2), variants built by
# scripts/variant_build.sh with their test_argreduce_gpu. The variants' tests (quick) and
# memcheck, then two alternated rounds of f32 / i32 argmax beside CUB. $OUT/out.txt.
set -u
O=$OUT/out.txt
tar xf c12f2.tar.xz
B=build
echo "binaries of ${1:-?}" >>$O
for v in _u8 _u2; do
  GP_TEST_QUICK=1 timeout 100 $B/test_argreduce_gpu$v 2>&1 | tail -1 | sed "s/^/$v: /" >>$O
done
GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_argreduce_gpu_u8 >/tmp/m.log 2>&1
echo "memcheck test_argreduce_gpu_u8 (quick): exit $? ($(tail -1 /tmp/m.log))" >>$O
for round in 1 2; do for v in "" _u8 _u2; do
  echo "== round $round gpuprims$v" >>$O
  timeout 60 $B/gpuprims$v bench reduce --op argmax --dtype f32,i32 --n 2^20,2^24,2^26,2^28,2^30 --max-time 0.3 --quiet 2>&1 | grep -E "^gpuprims|^cub" >>$O
done; done
