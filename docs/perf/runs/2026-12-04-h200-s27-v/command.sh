#!/usr/bin/env bash
# s27-v (2026-12-04): binaries of $1 (the session's last code). The sort tests that reach
# gp_sort_copy (test_sort_radix_gpu whole, test_sort_gpu, test_host_memory_gpu) and the
# whole pytest suite, with the device time left (the whole CTest suite does not fit).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27v.tar.xz
B=$(realpath build)
{ echo "binaries of ${1:-?}"; uptime; } >$O
for t in test_sort_radix_gpu test_sort_gpu test_host_memory_gpu; do
  (cd $B && timeout 100 ./$t) >$R/$t.txt 2>&1; echo "$t exit $? ($(tail -n 1 $R/$t.txt)) [$((SECONDS - T0))s]" >>$O
done
pack
export GPUPRIMS_LIBRARY=$B/libgpuprims.so
(cd python && PYTHONPATH=. timeout 120 python3 -m pytest -q) >$R/pytest.txt 2>&1; echo "pytest exit $? [$((SECONDS - T0))s]" >>$O; tail -n 1 $R/pytest.txt >>$O; pack
