#!/usr/bin/env bash
# Final GPU call of the fourth session (2026-12-01): binaries built on the dev box
# (Release, sm_90) from the commit named in summary.txt, carried as gpubin.tar.xz. Full
# CTest suite; FORCE_ARCH=80 over the new and changed GPU suites; memcheck of the rows
# top-k; pytest -rs; then, on the otherwise idle host, the CLI on files (cli_files.py), the
# Python suites beside torch/CuPy, and the CPU backend beside NumPy.
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build; L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT 2>/dev/null; nproc; } >>$OUT/summary.txt
s ctest
timeout 230 ctest --test-dir $B -j 10 -E cli_install --output-on-failure --timeout 250 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s "force 80 + memcheck"
GPUPRIMS_FORCE_ARCH=80 GP_TEST_QUICK=1 timeout 50 ctest --test-dir $B -j 4 -R "topk_rows_gpu|integrate_gpu|segments_gpu" --output-on-failure --timeout 55 >$L/ctest_sm80.log 2>&1
echo "ctest FORCE_ARCH=80 exit $?" >>$OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*" $L/ctest_sm80.log >>$OUT/summary.txt
GP_TEST_QUICK=1 timeout 50 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_topk_rows_gpu >$L/memcheck_topk_rows.log 2>&1
echo "memcheck test_topk_rows_gpu exit $?" >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 60 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s cli_files
timeout 90 python3 bench/cli_files.py --gpuprims $B/gpuprims --reps 3 --json $L/cli_files.json >$L/cli_files.txt 2>&1
echo "cli_files exit $?" >>$OUT/summary.txt
s python
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 90 python3 -m gpuprims.bench --suites overhead,sum,sort,argsort --sizes 2048,8192,32768,65536,1048576 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
s cpu
timeout 70 python3 bench/numpy_cpu.py --lib $lib --reps 5 --json $L/cpu.json --md $L/cpu.md >$L/cpu.txt 2>&1
echo "cpu bench exit $? ($(cat /proc/loadavg))" >>$OUT/summary.txt
s done
save
