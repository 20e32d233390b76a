#!/usr/bin/env bash
# Last GPU call of the twelfth session: binaries of the commit given as $1 (Release,
# sm_90) in c12e.tar.xz, after the cluster launch helper (host code of the bitonic and
# radix cluster sorts) and the early writeback of large files: the sort suites (quick,
# the cluster-only mode, the sm_89 shared-memory limits), their memcheck, the io and
# CLI tests, Python's sort tests, and `gpuprims sort -v` of a 2^27 .npy.
set -u
O=$OUT/out.txt
tar xf c12e.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ echo "binaries of ${1:-?}"; cat /proc/loadavg; } >>$O
GP_TEST_QUICK=1 timeout 300 ctest --test-dir $B -j 4 -R "test_sort|test_io|cli_|test_topk" -E cli_install --output-on-failure --timeout 280 >/tmp/ctest.log 2>&1
echo "ctest (GP_TEST_QUICK=1) exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" /tmp/ctest.log >>$O
GP_TEST_CLUSTER=1 timeout 120 $B/test_sort_radix_gpu 2>&1 | tail -1 >>$O
GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_gpu >/tmp/m1.log 2>&1; echo "memcheck test_sort_gpu (quick): exit $? ($(tail -1 /tmp/m1.log))" >>$O
GP_TEST_CLUSTER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >/tmp/m2.log 2>&1; echo "memcheck GP_TEST_CLUSTER=1 test_sort_radix_gpu: exit $? ($(tail -1 /tmp/m2.log))" >>$O
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m pytest -q -p no:cacheprovider tests -k "sort") >/tmp/pytest.log 2>&1
echo "pytest -k sort exit $? ($(tail -1 /tmp/pytest.log))" >>$O
python3 -c "
import numpy as np; np.save('/tmp/s27.npy', np.random.default_rng(5).integers(0, 2**32, 2**27, dtype=np.uint32))"
for i in 1 2 3; do $B/gpuprims sort /tmp/s27.npy /tmp/s27o.npy -v 2>>$O; done
python3 -c "
import numpy as np; print('sort output', 'correct' if np.array_equal(np.load('/tmp/s27o.npy'), np.sort(np.load('/tmp/s27.npy'))) else 'WRONG')" >>$O
