#!/usr/bin/env bash
# s26-final2 (2026-12-04, twenty-sixth session): binaries of $1 (the session's last
# kernels: GP_RX_WIDE_ADDR 1). The whole CTest suite at -j 4 (-E cli_install: it needs
# the source install; pytest runs inside), memcheck of the radix test (quick), and issue
# 12's u64/u64 pairs against CUB once more, two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
for r in 1 2; do
  timeout 60 $B/gpuprims bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 --no-seed --no-segments --quiet --max-time 0.2 >$R/p64_gpuprims_r$r.txt 2>&1
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
