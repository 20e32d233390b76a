#!/usr/bin/env bash
# s27-f (2026-12-04): binaries of $1. gp_sort_copy with the bitonic cluster reading `in`
# and the rank sort's copy from 2 keys: test_sort_radix_gpu whole, memcheck (quick) and
# racecheck (quick=2); C bench copy / in place / CUB (in place at 4097..2^16 against
# s27-e's, the cluster kernel's load changed); pytest; Python bench twice.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27f.tar.xz
B=$(realpath build); PY=$(realpath python)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; } >$O
export GPUPRIMS_LIBRARY=$B/libgpuprims.so
(cd $B && timeout 200 ./test_sort_radix_gpu) >$R/t_radix.txt 2>&1; echo "test_sort_radix_gpu exit $? [$((SECONDS - T0))s]" >>$O
(cd $B && GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_sort_radix_gpu) >$R/memcheck.txt 2>&1; echo "memcheck exit $? [$((SECONDS - T0))s]" >>$O
(cd $B && GP_TEST_QUICK=2 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 ./test_sort_radix_gpu) >$R/racecheck.txt 2>&1; echo "racecheck exit $? [$((SECONDS - T0))s]" >>$O
for f in t_radix memcheck racecheck; do tail -n 2 $R/$f.txt >>$O; done; pack
(cd python && PYTHONPATH=. timeout 150 python3 -m pytest -q -x tests/test_gpu_arrays.py tests/test_numpy.py) >$R/pytest.txt 2>&1; echo "pytest exit $? [$((SECONDS - T0))s]" >>$O; tail -n 2 $R/pytest.txt >>$O; pack
S=2,16,100,256,512,4097,5000,8192,16384,32768,65536
for r in 1 2; do
  $B/gpuprims bench sort --algo auto --sizes $S --no-segments --max-time 0.1 --json $R/inplace_r$r.json >$R/inplace_r$r.txt 2>&1
  $B/gpuprims bench sort --copy --algo auto --sizes $S --no-segments --max-time 0.1 --json $R/copy_r$r.json >$R/copy_r$r.txt 2>&1
done
echo "C bench done [$((SECONDS - T0))s]" >>$O; pack
P=2048,4096,8192,16384,32768,65536,1048576,16777216,268435456
for r in 1 2; do
  (cd /tmp && PYTHONPATH=$PY timeout 170 python3 -m gpuprims.bench --suites sum,sort,argsort --sizes $P --json $R/py_r$r.json) >$R/py_r$r.txt 2>&1
  echo "python round $r exit $? [$((SECONDS - T0))s]" >>$O; pack
done
uptime >>$O; pack
