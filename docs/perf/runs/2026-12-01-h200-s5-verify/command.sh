#!/usr/bin/env bash
# First GPU call of the fifth session (2026-12-01): binaries built on the dev box
# (Release, sm_90, commit in summary.txt), carried as gpubin.tar.xz. The whole CTest
# suite at -j 4 alone on the host (~350 s), then pytest -rs, then compute-sanitizer
# memcheck of the integrate suite (its kernel changed in ef42e1a and was never sanitized).
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build; L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ctest
timeout 430 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 400 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 60 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s memcheck
GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_integrate_gpu >$L/memcheck_integrate.log 2>&1
echo "memcheck test_integrate_gpu exit $?" >>$OUT/summary.txt
s done
save
