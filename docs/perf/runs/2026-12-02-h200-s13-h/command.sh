#!/usr/bin/env bash
# Check call after the last code change of the thirteenth session: binaries of the commit
# given as $1 in c13h.tar.xz (4-byte pairs at 19 keys a thread). The sort suites (the
# radix suite in full, its sm_89 mode, test_sort_gpu quick), Python's sort tests, then
# pairs and argsorts against CUB.
set -u
T0=$SECONDS
O=$OUT/out.txt
s() { echo "[$((SECONDS - T0))s] $*" >>$O; }
tar xf c13h.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >>$O
(timeout 250 $B/test_sort_radix_gpu >/tmp/rx.log 2>&1; echo "test_sort_radix_gpu (full) exit $? ($(tail -1 /tmp/rx.log))" >/tmp/rx.sum) &
P1=$!
(GPUPRIMS_FORCE_ARCH=89 GP_TEST_QUICK=1 timeout 120 $B/test_sort_radix_gpu >/tmp/rx89.log 2>&1; echo "test_sort_radix_gpu (FORCE_ARCH=89, quick) exit $? ($(tail -1 /tmp/rx89.log))" >/tmp/rx89.sum
 GP_TEST_QUICK=1 timeout 200 $B/test_sort_gpu >/tmp/sg.log 2>&1; echo "test_sort_gpu (quick) exit $? ($(tail -1 /tmp/sg.log))" >/tmp/sg.sum
 cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m pytest -q -p no:cacheprovider tests -k "sort" >/tmp/py.log 2>&1; echo "pytest -k sort exit $? ($(tail -1 /tmp/py.log))" >/tmp/py.sum) &
P2=$!
wait $P1 $P2
cat /tmp/rx.sum /tmp/rx89.sum /tmp/sg.sum /tmp/py.sum >>$O
grep -E "FAIL" /tmp/rx.log /tmp/rx89.log /tmp/sg.log | head -10 >>$O
s benches
timeout 60 $B/gpuprims bench sort --algo auto --pairs u32 --max-time 0.4 --quiet --no-seed --no-segments --sizes 2^20,2^24,2^28 --json $OUT/pairs32.json >$OUT/pairs32.txt 2>&1
timeout 60 $B/gpuprims bench sort --algo auto --dtype f32 --pairs u32 --max-time 0.4 --quiet --no-seed --no-segments --sizes 2^20,2^24,2^28 --json $OUT/pairsf32.json >$OUT/pairsf32.txt 2>&1
timeout 60 $B/gpuprims bench sort --dtype f32 --argsort --max-time 0.4 --quiet --no-seed --no-segments --sizes 2^20,2^24,2^28 --json $OUT/argsort.json >$OUT/argsort.txt 2>&1
s done
