#!/usr/bin/env bash
# s25-final (2026-12-04, twenty-fifth session): binaries of $1. The whole CTest suite at
# -j 4 alone (python_pytest runs with -rs in s25-final2; cli_install needs the source
# install), then memcheck of the radix test (quick) and racecheck of a device-wide radix
# sort through the CLI (the one-sweep pass changed).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s25f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 400 ctest --test-dir $B -j 4 -E "cli_install|python_pytest" --output-on-failure --timeout 360 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
GP_TEST_QUICK=1 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
for t in "u32 1048579" "u32 300001 --pairs u32" "u64 300001 --pairs u64"; do
  set -- $t
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $B/gpuprims bench sort --algo radix --dtype $1 ${3:-} ${4:-} --sizes $2 --no-seed --no-segments --no-peers --max-time 0.001 --min-samples 1 --warmup 0 --quiet >$R/racecheck_$1_$2${4:-}.log 2>&1
  echo "racecheck radix sort $t exit $? ($(grep -h SUMMARY $R/racecheck_$1_$2${4:-}.log | tail -1)) [$((SECONDS - T0))s]" >>$O
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
