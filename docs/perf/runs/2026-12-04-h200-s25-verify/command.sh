#!/usr/bin/env bash
# s25-verify (2026-12-04, twenty-fifth session): binaries of $1 (pairs' one-sweep kernels
# = 50c8dd8's, keys alone = 809ca5c's). The whole CTest suite at -j 4 alone (cli_install
# needs the source install), memcheck of the radix test (quick), racecheck of device-wide
# pairs sorts through the CLI, and one run of the pairs the change is for.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s25v.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
GP_TEST_QUICK=1 timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
for t in "u32 u32" "u64 u64"; do
  set -- $t
  timeout 30 compute-sanitizer --tool racecheck --error-exitcode 9 $B/gpuprims bench sort --algo radix --dtype $1 --pairs $2 --sizes 300001 --no-seed --no-segments --no-peers --max-time 0.001 --min-samples 1 --warmup 0 --quiet >$R/racecheck_$1_$2.log 2>&1
  echo "racecheck radix pairs $t 300001 exit $? ($(grep -h SUMMARY $R/racecheck_$1_$2.log | tail -1)) [$((SECONDS - T0))s]" >>$O
done
pack
timeout 40 $B/gpuprims bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24 --no-seed --no-segments --quiet --max-time 0.2 >$R/p64.txt 2>&1
timeout 30 $B/gpuprims bench sort --algo auto --pairs u32 --sizes 2^24 --no-seed --no-segments --quiet --max-time 0.15 >$R/p32.txt 2>&1
echo "[$((SECONDS - T0))s] done" >>$O; pack
