#!/usr/bin/env bash
# s28-final (2026-12-04, twenty-eighth session): binaries of $1 (the session's last code:
# topk_rows.cu's chunk path, the radix cluster argsort's 4-byte places). The whole CTest
# suite at -j 4 (-E cli_install: it needs the source install; pytest runs inside),
# memcheck of the radix test (quick), racecheck and synccheck of the top-k rows select
# (`gpuprims topk --rows` on small files, every list size), the k = 33 .. 128 A/B probe
# against s28-e's grouping (contig: 933eac3's source) and the session's first (old), and
# the Python suites topk_rows (twice), argsort and sort against torch.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s28final.tar.xz
B=build; PY=$(realpath python); LIBP=$(realpath build)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; } >$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
GP_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
python3 -c "
import numpy as np
r = np.random.default_rng(5)
np.save('/tmp/r1024.npy', r.standard_normal((64, 1024)).astype(np.float32))
np.save('/tmp/r4096.npy', r.standard_normal((16, 4096)).astype(np.float32))
np.save('/tmp/d1024.npy', r.standard_normal((32, 1024)))
"
for tool in racecheck synccheck; do
  rc=0
  for f in r1024 r4096 d1024; do
    for k in 8 33 100; do
      timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims topk /tmp/$f.npy -k $k --rows $( [ $f = r4096 ] && echo 16 || ( [ $f = d1024 ] && echo 32 || echo 64 ) ) --backend cuda >$R/${tool}_${f}_$k.log 2>&1 || rc=$?
      grep -h SUMMARY $R/${tool}_${f}_$k.log | tail -1 >>$R/${tool}_summaries.txt
    done
  done
  echo "$tool gpuprims topk --rows (3 files x k 8, 33, 100) worst exit $rc; $(sort $R/${tool}_summaries.txt | uniq -c | tr '\n' ' ') [$((SECONDS - T0))s]" >>$O
  rm -f $R/${tool}_r*.log $R/${tool}_d*.log
done
pack
timeout 100 python3 docs/perf/runs/2026-12-04-h200-s28-e/probe_topk_rows_k.py new=$LIBP contig=$(realpath build)/libgpuprims_contig.so old=$(realpath build)/libgpuprims_old.so >$R/probe_topk.txt 2>&1
echo "probe topk exit $? [$((SECONDS - T0))s]" >>$O
pack
for i in 1 2; do
  (cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 60 python3 -m gpuprims.bench --suites topk_rows --peers torch --json $R/py_topk_rows_$i.json) >$R/py_topk_rows_$i.txt 2>&1
  echo "python bench topk_rows round $i exit $? [$((SECONDS - T0))s]" >>$O
done
(cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 100 python3 -m gpuprims.bench --suites sort,argsort --sizes 2048,8192,32768,65536,131072,1048576 --peers torch --json $R/py.json) >$R/py.txt 2>&1
echo "python bench sort, argsort exit $? [$((SECONDS - T0))s]" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack
