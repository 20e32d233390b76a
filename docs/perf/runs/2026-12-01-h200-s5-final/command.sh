#!/usr/bin/env bash
# Final GPU call of the fifth session (2026-12-01): binaries of the commit in summary.txt
# (Release, sm_90), carried as gpubin.tar.xz. On the fresh host first: the CPU backend
# beside NumPy, the Python suites beside torch/CuPy, the segmented sort by offsets beside
# CUB; then the whole CTest suite at -j 4, pytest -rs, memcheck of the radix sort suite.
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build; L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s cpu
timeout 80 python3 bench/numpy_cpu.py --lib $lib --reps 5 --json $L/cpu.json --md $L/cpu.md >$L/cpu.txt 2>&1
echo "cpu bench exit $? ($(cat /proc/loadavg))" >>$OUT/summary.txt
s python
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites overhead,sum,sort,argsort,topk_rows --sizes 2048,8192,32768,65536,1048576 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
s offsets
timeout 60 $B/gpuprims bench sort --max-time 0.3 --quiet --offsets large,uniform,powerlaw --sizes 2^11 --no-seed --no-segments --json $L/sort_offsets.json >$L/sort_offsets.txt 2>&1
echo "bench sort offsets exit $?" >>$OUT/summary.txt
s ctest
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 60 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s memcheck
GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$L/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu exit $? ($(tail -1 $L/memcheck_radix.log))" >>$OUT/summary.txt
s done
save
