#!/usr/bin/env bash
# Third and fourth GPU calls of the fifth session (2026-12-01): binaries of the commit in summary.txt
# (Release, sm_90), carried as gpubin.tar.xz. The warp select of gp_topk_rows: its CPU and
# GPU suites, FORCE_ARCH=80, memcheck and racecheck (quick), pytest of the top-k tests,
# the Python topk_rows suite beside torch.topk(dim=1), and Nsight Compute on the kernel.
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build; L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ctest
timeout 120 ctest --test-dir $B -j 4 -R "topk" --output-on-failure --timeout 110 >$L/ctest.log 2>&1
echo "ctest topk exit $?" >>$OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*" $L/ctest.log >>$OUT/summary.txt
GPUPRIMS_FORCE_ARCH=80 GP_TEST_QUICK=1 timeout 60 $B/test_topk_rows_gpu >$L/sm80.log 2>&1
echo "FORCE_ARCH=80 test_topk_rows_gpu exit $? ($(tail -1 $L/sm80.log))" >>$OUT/summary.txt
s sanitizers
for t in memcheck racecheck synccheck; do
  GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/test_topk_rows_gpu >$L/$t.log 2>&1
  echo "$t test_topk_rows_gpu exit $? ($(tail -1 $L/$t.log))" >>$OUT/summary.txt
done
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 60 python3 -m pytest -q -rs -p no:cacheprovider -k topk tests) >$L/pytest.log 2>&1
echo "pytest -k topk exit $? ($(tail -1 $L/pytest.log))" >>$OUT/summary.txt
s bench
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites topk_rows --json $L/topk_rows.json) >$L/topk_rows.txt 2>&1
echo "bench exit $?" >>$OUT/summary.txt
s ncu
OUT=$L bash scripts/profile_topk_rows.sh >/dev/null 2>&1
tail -1 $L/ncu_topk_rows.txt >>$OUT/summary.txt
s done
save
