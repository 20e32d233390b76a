#!/usr/bin/env bash
# s27-u (2026-12-04): binaries of $1. gp_sort_copy with both arrays in host memory stages
# its input in once (no host copy first): test_host_memory_gpu, test_sort_radix_gpu
# (quick), and probe_numpy_sort.py (NumPy arrays on the CUDA context, wall clock).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27u.tar.xz
B=$(realpath build); PY=$(realpath python); D=$(pwd)
{ echo "binaries of ${1:-?}"; uptime; } >$O
(cd $B && timeout 120 ./test_host_memory_gpu) >$R/t_host.txt 2>&1; echo "test_host_memory_gpu exit $? [$((SECONDS - T0))s]" >>$O
(cd $B && GP_TEST_QUICK=1 timeout 120 ./test_sort_radix_gpu) >$R/t_radix.txt 2>&1; echo "test_sort_radix_gpu (quick) exit $? [$((SECONDS - T0))s]" >>$O
tail -qn 1 $R/t_host.txt $R/t_radix.txt >>$O; pack
(cd /tmp && GPUPRIMS_LIBRARY=$B/libgpuprims.so PYTHONPATH=$PY timeout 120 python3 $D/docs/perf/runs/2026-12-04-h200-s27-u/probe_numpy_sort.py) >$R/probe.txt 2>&1
echo "probe exit $? [$((SECONDS - T0))s]" >>$O; pack
