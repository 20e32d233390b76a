#!/usr/bin/env bash
# s18-b (2026-12-03): the exact SUM with whole partial tiles, misses' values passed to
# gp_xs_redo, the one-block kernel in two shapes up to 2^13 (F32 and F64), fold trees
# unrolled; against s18-a's best form (gpuprims_s18a: 0e1026f with GP_XS_FOLD_ROLL=0),
# head (c264b1f: gpuprims_head) and the small shape up to 4096 (gpuprims_small4k);
# s18a only on lognormal and wide data (cut for the device time left).
# Binaries of $1 in c18b.tar.xz. First the whole CTest suite at -j 4 with pytest,
# test_dist_gpu p1 and memcheck beside it, racecheck / memcheck of `gpuprims reduce` on
# small files, then the benches, alternated, two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c18b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(GP_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/mem.log 2>&1; echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/mem.log | tail -1); $(grep -h 'passed' $R/mem.log | tail -1))" >$R/san.sum) &
SP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1; echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
echo "[$((SECONDS - T0))s] sanitizers on files" >>$O; pack
python3 - <<'PY'
import numpy as np
r = np.random.default_rng(18)
np.save("/tmp/f64_6000.npy", r.standard_normal(6000))
a = r.standard_normal(8191).astype(np.float32); a[4000] = np.nan
np.save("/tmp/f32_8191_nan.npy", a)
np.save("/tmp/f32_20001_wide.npy", np.ldexp(r.standard_normal(20001), r.integers(-30, 30, 20001)).astype(np.float32))
b = np.ldexp(r.standard_normal(3001), r.integers(-60, 60, 3001)); b[7] = 1e308; b[9] = 1e308
np.save("/tmp/f64_3001_wide.npy", b)
np.save("/tmp/f64_70001_wide.npy", np.ldexp(r.standard_normal(70001), r.integers(-60, 60, 70001)))
PY
for f in f64_6000 f32_8191_nan f32_20001_wide f64_70001_wide; do
  for tool in racecheck memcheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims reduce /tmp/$f.npy --backend cuda >$R/san_${tool}_$f.log 2>&1
    echo "$tool gpuprims reduce $f exit $? ($(grep -h SUMMARY $R/san_${tool}_$f.log | tail -1)) result: $(grep -v '^=' $R/san_${tool}_$f.log | tail -1)" >>$O
  done
  echo "cpu backend $f: $($B/gpuprims reduce /tmp/$f.npy --backend cpu 2>&1 | tail -1)" >>$O
done
echo "[$((SECONDS - T0))s] benches" >>$O; pack
N=2^10,2^11,3000,2^12,6000,2^13,2^14,20000,2^16,2^18,2^20,1000000,2^22,2^24
for r in 1 2; do
  for t in f32 f64; do for v in gpuprims gpuprims_head gpuprims_small4k; do
    [ $((SECONDS - T0)) -lt 340 ] || break
    timeout 60 $B/$v bench reduce --dtype $t --n $N --max-time 0.1 --quiet >$R/${t}_uniform_${v}_r$r.txt 2>&1
  done; done
  pack
done
for d in lognormal wide; do for v in gpuprims gpuprims_s18a gpuprims_head; do
  [ $((SECONDS - T0)) -lt 370 ] || break
  timeout 30 $B/$v bench reduce --dtype f32 --n 2^12,2^16,2^20,2^24 --data $d --max-time 0.1 --quiet >$R/f32_${d}_${v}.txt 2>&1
done; done
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
for f in $R/f*_r*.txt $R/f32_lognormal* $R/f32_wide*; do printf "%-30s" "$(basename $f .txt)"; grep "^gpuprims" $f | awk '{t=""; for(i=1;i<=NF;i++) if ($i=="us"||$i=="ms") t=$(i-1); r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; sz=""; for(i=2;i<NF;i++) if ($i ~ /^f(32|64)$/) sz=$(i+1); printf " %s %s %s|", sz, t, r}'; echo; done
