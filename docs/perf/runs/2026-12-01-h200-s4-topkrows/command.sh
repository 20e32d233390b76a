#!/usr/bin/env bash
# Third GPU call of the fourth session: the block-per-row top-k select (topk_rows.cu):
# its test, the three sanitizers over it, pytest's top-k tests, and the rows top-k beside
# torch.topk(dim=1) from Python.
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; }
tar xf gpubin.tar.xz
B=build; L=$OUT/logs; mkdir -p $L; lib=$(realpath $B)/libgpuprims.so
s test
timeout 60 $B/test_topk_rows_gpu >$L/test.log 2>&1; echo "test_topk_rows_gpu exit $? ($(tail -1 $L/test.log))" >>$OUT/summary.txt
for tool in memcheck racecheck synccheck; do
  GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_topk_rows_gpu >$L/san_$tool.log 2>&1 &
done; wait
for tool in memcheck racecheck synccheck; do echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san_$tool.log | tail -1)" >>$OUT/summary.txt; done
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 60 python3 -m pytest -q -rs -p no:cacheprovider tests/test_topk.py) >$L/pytest.log 2>&1
echo "pytest test_topk exit $? ($(tail -1 $L/pytest.log))" >>$OUT/summary.txt
s bench
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 60 python3 -m gpuprims.bench --suites topk_rows --json $L/topk_rows.json) >$L/topk_rows.txt 2>&1
echo "bench exit $?" >>$OUT/summary.txt; cat $L/topk_rows.txt >>$OUT/summary.txt
s done
tar czf $OUT/logs.tgz -C $OUT logs && rm -rf $L
