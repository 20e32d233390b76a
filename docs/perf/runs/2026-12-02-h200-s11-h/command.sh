#!/usr/bin/env bash
# A last GPU call of the eleventh session: the one-cluster radix sort under
# compute-sanitizer racecheck, memcheck and synccheck through test_sort_radix_gpu with
# GP_TEST_CLUSTER=1 (single sorts, argsorts and segments by offsets that clusters of 2, 3
# and 9 blocks take); binaries of the commit given as $1 in c11h.tar.xz.
set -u
tar xf c11h.tar.xz
B=build
echo "binaries of ${1:-?}" >$OUT/summary.txt
GP_TEST_CLUSTER=1 $B/test_sort_radix_gpu >$OUT/plain.log 2>&1
echo "plain exit $? ($(tail -1 $OUT/plain.log))" >>$OUT/summary.txt
for t in racecheck memcheck synccheck; do
  (GP_TEST_CLUSTER=1 timeout 200 compute-sanitizer --tool $t --error-exitcode 9 $B/test_sort_radix_gpu >$OUT/$t.log 2>&1
   echo $? >$OUT/$t.rc) &
done
wait
for t in racecheck memcheck synccheck; do echo "$t exit $(cat $OUT/$t.rc): $(tail -2 $OUT/$t.log | tr '\n' ' ')" >>$OUT/summary.txt; done
