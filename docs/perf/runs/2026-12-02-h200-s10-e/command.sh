#!/usr/bin/env bash
# Sixth GPU call of the tenth session (2026-12-02): binaries of ede6bb2 (c5.tar.xz; the
# commit is passed as $1), after the top-k grid helper: the top-k suites and their
# memcheck, pytest's top-k tests.
set -u
L=/tmp/logs; mkdir -p $L
tar xf c5.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit ${1:-?}"; } >>$OUT/summary.txt
for t in test_topk_gpu test_topk_rows_gpu; do
  timeout 200 $B/$t >$L/$t.log 2>&1
  echo "$t exit $? ($(tail -1 $L/$t.log))" >>$OUT/summary.txt
  GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/$t >$L/san_$t.log 2>&1
  echo "memcheck $t (GP_TEST_QUICK=1) exit $? ($(tail -1 $L/san_$t.log))" >>$OUT/summary.txt
done
(cd python && GPUPRIMS_LIBRARY=$(realpath ../$B)/libgpuprims.so PYTHONPATH=. timeout 120 python3 -m pytest -q -rs -p no:cacheprovider tests -k topk) >$L/pytest.log 2>&1
echo "pytest -k topk exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
tar czf $OUT/logs.tgz -C /tmp logs
