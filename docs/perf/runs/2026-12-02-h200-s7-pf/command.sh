#!/usr/bin/env bash
# Last GPU call of the seventh session (2026-12-02): the exact SUM with each thread's
# next tile loaded before it adds the current one. Binaries of the commit in summary.txt
# (Release, sm_90) in pf.tar.xz: gpuprims (GP_XS_PREFETCH=0, the default), gpuprims_pf4
# (-DGP_XS_PREFETCH=1: 64 registers, spills) and gpuprims_pf3 (-DGP_XS_PREFETCH=1
# -DGP_XS_MIN_BLOCKS=3: 80 registers, no new spills), and the reduce tests linked against
# pf3. A/B beside CUB (two rounds, alternated), then the pf3 tests and memcheck.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf pf.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; cat /proc/loadavg; } >>$OUT/summary.txt
s bench
for r in 1 2; do for v in "" _pf3 _pf4; do
  timeout 40 $B/gpuprims$v bench reduce --max-time 0.15 --quiet --dtype f32,f64 --op sum \
    --n 2^18,2^20,2^22,2^24,2^26,2^28 --json $L/pf${v}_r$r.json >$L/pf${v}_r$r.txt 2>&1
  echo "bench$v round $r exit $?" >>$OUT/summary.txt
done; done
s tests
GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu_pf3 >$L/memcheck.log 2>&1 &
MP=$!
for t in test_reduce_exact_gpu_pf3 test_reduce_gpu_pf3; do
  GP_TEST_QUICK=$([ $t = test_reduce_gpu_pf3 ] && echo 1 || echo 0) timeout 90 $B/$t >$L/$t.log 2>&1
  echo "$t exit $? ($(tail -1 $L/$t.log))" >>$OUT/summary.txt
done
wait $MP; echo "memcheck test_reduce_exact_gpu_pf3 (quick) exit $? ($(tail -1 $L/memcheck.log))" >>$OUT/summary.txt
s done
save
