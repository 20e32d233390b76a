#!/usr/bin/env bash
# s27-e (2026-12-04): binaries of $1. gp_sort_copy: its tests (test_sort_radix_gpu whole,
# memcheck quick; test_sort_cpu; pytest of the GPU arrays), the C bench of the copy
# against the in-place sort and CUB at the rank sort's sizes, and Python: the new
# package against the session's first (oldpy/, HEAD 0aa0d53's) with the new timer.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27e.tar.xz
B=$(realpath build)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; } >$O
export GPUPRIMS_LIBRARY=$B/libgpuprims.so
(cd $B && timeout 200 ./test_sort_radix_gpu) >$R/t_radix.txt 2>&1; echo "test_sort_radix_gpu exit $? [$((SECONDS - T0))s]" >>$O
(cd $B && timeout 60 ./test_sort_cpu) >$R/t_cpu.txt 2>&1; echo "test_sort_cpu exit $? [$((SECONDS - T0))s]" >>$O
(cd $B && GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_sort_radix_gpu) >$R/memcheck.txt 2>&1; echo "memcheck exit $? [$((SECONDS - T0))s]" >>$O
tail -3 $R/t_radix.txt $R/t_cpu.txt $R/memcheck.txt >>$O; pack
(cd python && PYTHONPATH=. timeout 200 python3 -m pytest -q -x tests/test_gpu_arrays.py tests/test_numpy.py) >$R/pytest.txt 2>&1; echo "pytest exit $? [$((SECONDS - T0))s]" >>$O; tail -2 $R/pytest.txt >>$O; pack
S=256,512,513,600,768,1024,1500,2048,3000,3072,4096,5000,8192
for r in 1 2; do
  $B/gpuprims bench sort --algo auto --sizes $S --no-segments --max-time 0.1 --json $R/inplace_r$r.json >$R/inplace_r$r.txt 2>&1
  $B/gpuprims bench sort --copy --algo auto --sizes $S --no-segments --max-time 0.1 --json $R/copy_r$r.json >$R/copy_r$r.txt 2>&1
done
echo "C bench done [$((SECONDS - T0))s]" >>$O; pack
P=2048,4096,8192,16384,32768,65536,1048576,16777216,268435456
for r in 1 2; do
  for pkg in new old; do
    d=$(realpath python); [ $pkg = old ] && d=$(realpath oldpy)
    (cd /tmp && PYTHONPATH=$d timeout 170 python3 -m gpuprims.bench --suites sort,argsort --sizes $P --json $R/py_${pkg}_r$r.json) >$R/py_${pkg}_r$r.txt 2>&1
    echo "python $pkg round $r exit $? [$((SECONDS - T0))s]" >>$O; pack
  done
done
uptime >>$O; pack
