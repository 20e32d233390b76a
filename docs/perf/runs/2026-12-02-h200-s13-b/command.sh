#!/usr/bin/env bash
# Second GPU call of the thirteenth session: binaries of the commit given as $1 in
# c13b.tar.xz, with libgpuprims_nopre.so (scripts/variant_build.sh, VARIANT_SO=1:
# topk.cu with -DGP_CUDA_TOPK_PRE_MIN_N=2^48, no prefilter). test_topk_gpu, the CLI's
# top-k under memcheck; Python benches: small sorts first (a quiet process), then top-k
# with and without the prefilter, alternated, torch in each process.
set -u
T0=$SECONDS
O=$OUT/out.txt
s() { echo "[$((SECONDS - T0))s] $*" >>$O; }
tar xf c13b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; cat /proc/loadavg; } >>$O
s "python bench: small sort, argsort"
(cd python && GPUPRIMS_LIBRARY=$(realpath ../$B/libgpuprims.so) PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites sort,argsort --sizes 2048,8192,32768,65536 --json $OUT/small_sort.json) >/tmp/pb2.log 2>&1
echo "bench sort exit $?" >>$O; grep -v "^#" /tmp/pb2.log | grep gpuprims >>$O
s tests
timeout 200 $B/test_topk_gpu >/tmp/tk.log 2>&1; echo "test_topk_gpu exit $? ($(tail -1 /tmp/tk.log))" >>$O
grep -E "FAIL" /tmp/tk.log | head -20 >>$O
python3 -c "
import numpy as np
r = np.random.default_rng(3)
np.save('/tmp/u22.npy', r.random(2**22 + 5, dtype=np.float32))"
for a in "-k 16" "-k 1024 --smallest"; do
  timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/gpuprims topk /tmp/u22.npy $a --backend cuda >/tmp/san.out 2>/tmp/san.err
  echo "memcheck topk u22 $a: exit $? ($(grep -E 'ERROR SUMMARY' /tmp/san.err | tail -1))" >>$O
  timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $B/gpuprims topk /tmp/u22.npy $a --backend cuda >/tmp/san.out 2>/tmp/san.err
  echo "racecheck topk u22 $a: exit $? ($(grep -E 'RACECHECK SUMMARY' /tmp/san.err | tail -1))" >>$O
done
s "python bench: topk, prefilter on/off"
i=0
for v in pre nopre pre nopre; do
  i=$((i + 1))
  lib=$(realpath $B/libgpuprims.so); [ $v = pre ] || lib=$(realpath $B/libgpuprims_$v.so)
  (cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites topk --peers torch --json $OUT/topk_${v}_$i.json) >/tmp/pb.log 2>&1
  echo "== $v: exit $?" >>$O; grep -v "^#" /tmp/pb.log | grep gpuprims >>$O
done
s done
