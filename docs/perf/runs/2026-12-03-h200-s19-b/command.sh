#!/usr/bin/env bash
# s19-b (2026-12-03, nineteenth session): the form kept after s19-a: F32 full tiles read
# their misses again in batches of 4 (gp_xs_redo_at), F64 tiles pass their values as
# head does, the one-block kernel in three shapes (up to 2048 / 4096 / 8192 elements).
# Against head (0ca57dd: gpuprims_head), s19-a's binary (31605de: F64 tiles read again
# too: gpuprims_s19a) on F64 data over 120 binades, and o4k (F64 inputs above 4096
# elements on the grid kernel: -DGP_XS_ONE_BLOCK_N_F64=4096u).
# Binaries of $1 in c19b.tar.xz. The whole CTest suite at -j 4 with pytest, test_dist_gpu
# p1, memcheck and racecheck of test_reduce_exact_gpu (quick) beside it; racecheck,
# memcheck and synccheck of `gpuprims reduce` on small files; benches alternated, two
# rounds; ncu of the one-block kernel against CUB's at F64 2^11.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c19b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/mem.log 2>&1; echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/mem.log | tail -1); $(grep -h 'passed' $R/mem.log | tail -1))" >$R/san.sum) &
SP=$!
(GP_TEST_QUICK=1 timeout 330 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/race.log 2>&1; echo "racecheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/race.log | tail -1); $(grep -h 'passed' $R/race.log | tail -1))" >$R/race.sum) &
RP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1; echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
wait $RP; cat $R/race.sum >>$O
echo "[$((SECONDS - T0))s] sanitizers on files" >>$O; pack
python3 - <<'PY'
import numpy as np
r = np.random.default_rng(191)
np.save("/tmp/f64_4000.npy", r.standard_normal(4000))
a = r.standard_normal(3500).astype(np.float32); a[1000] = np.nan
np.save("/tmp/f32_3500_nan.npy", a)
np.save("/tmp/f32_300001_wide.npy", np.ldexp(r.standard_normal(300001), r.integers(-30, 30, 300001)).astype(np.float32))
np.save("/tmp/f64_70001_wide.npy", np.ldexp(r.standard_normal(70001), r.integers(-60, 60, 70001)))
PY
for f in f64_4000 f32_3500_nan f32_300001_wide f64_70001_wide; do
  for tool in racecheck memcheck synccheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims reduce /tmp/$f.npy --backend cuda >$R/san_${tool}_$f.log 2>&1
    echo "$tool gpuprims reduce $f exit $? ($(grep -h SUMMARY $R/san_${tool}_$f.log | tail -1)) result: $(grep -v '^=' $R/san_${tool}_$f.log | tail -1)" >>$O
  done
  echo "cpu backend $f: $($B/gpuprims reduce /tmp/$f.npy --backend cpu 2>&1 | tail -1)" >>$O
done
echo "[$((SECONDS - T0))s] benches" >>$O; pack
N=2^10,2^11,3000,2^12,6000,2^13,2^14,2^16,2^18,2^20,1000000,2^22,2^24
for r in 1 2; do
  for t in f32 f64; do for v in gpuprims gpuprims_head; do
    [ $((SECONDS - T0)) -lt 460 ] || break
    timeout 60 $B/$v bench reduce --dtype $t --n $N --max-time 0.1 --quiet >$R/${t}_uniform_${v}_r$r.txt 2>&1
  done; done
  timeout 30 $B/gpuprims_o4k bench reduce --dtype f64 --n 3000,2^12,6000,2^13,2^14 --max-time 0.1 --quiet >$R/f64_uniform_gpuprims_o4k_r$r.txt 2>&1
  for v in gpuprims gpuprims_head gpuprims_s19a; do
    [ $((SECONDS - T0)) -lt 480 ] || break
    timeout 40 $B/$v bench reduce --dtype f64 --n 2^16,2^20,2^24 --data wide --max-time 0.1 --quiet >$R/f64_wide_${v}_r$r.txt 2>&1
  done
  pack
done
for d in lognormal wide; do for v in gpuprims gpuprims_head; do
  [ $((SECONDS - T0)) -lt 500 ] || break
  timeout 30 $B/$v bench reduce --dtype f32 --n 2^12,2^16,2^20,2^24 --data $d --max-time 0.1 --quiet >$R/f32_${d}_${v}.txt 2>&1
done; done
echo "[$((SECONDS - T0))s] ncu" >>$O; pack
if [ $((SECONDS - T0)) -lt 510 ]; then
  timeout 40 ncu --clock-control none --kernel-name regex:gp_sum_exact_one --launch-count 2 --section SpeedOfLight --section WarpStateStats --section SourceCounters --print-details all \
    $B/gpuprims bench reduce --dtype f64 --n 2^11 --max-time 0.01 --min-samples 2 --warmup 0 --no-peers --quiet >$R/ncu_ours_f64_2048.txt 2>&1
  timeout 40 ncu --clock-control none --kernel-name regex:'Reduce.*Kernel' --launch-count 2 --section SpeedOfLight --section WarpStateStats --print-details all \
    $B/gpuprims bench reduce --dtype f64 --n 2^11 --max-time 0.01 --min-samples 2 --warmup 0 --quiet >$R/ncu_cub_f64_2048.txt 2>&1
fi
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
for f in $R/f*_r*.txt $R/f32_lognormal* $R/f32_wide*; do printf "%-30s" "$(basename $f .txt)"; grep "^gpuprims" $f | awk '{t=""; for(i=1;i<=NF;i++) if ($i=="us"||$i=="ms") t=$(i-1); r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; sz=""; for(i=2;i<NF;i++) if ($i ~ /^f(32|64)$/) sz=$(i+1); printf " %s %s %s|", sz, t, r}'; echo; done
