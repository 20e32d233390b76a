#!/usr/bin/env bash
# s18-a (2026-12-03): the exact SUM's tile loops without a call per step (gp_xs_try: a
# miss mask, gp_xs_redo once a tile) and F32's fold trees as loops (GP_XS_FOLD_ROLL),
# against head (reduce_exact.cu of c264b1f: gpuprims_head) and the new code with the
# fold trees unrolled (gpuprims_unroll); u64/u64 pairs with the wide one-sweep kernel
# compiled for 2 blocks a SM (gpuprims_wide2); F64 inputs of up to 8191 / 4095 elements in
# the one-block kernel (gpuprims_one8k / one4k). Binaries of $1 in c18a.tar.xz. First the
# whole CTest suite at -j 4 with pytest, test_dist_gpu p1 and the sanitizers beside it,
# then the SASS of the F32 kernels, then the benches, alternated, two rounds.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c18a.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(GP_TEST_QUICK=1 timeout 250 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/race.log 2>&1; echo "racecheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/race.log | tail -1); $(grep -h 'passed' $R/race.log | tail -1))" >$R/san.sum
 GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/mem.log 2>&1; echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/mem.log | tail -1); $(grep -h 'passed' $R/mem.log | tail -1))" >>$R/san.sum) &
SP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1; echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
echo "[$((SECONDS - T0))s] sass" >>$O; pack
for v in libgpuprims.so; do
  cuobjdump -sass -fun '_Z19gp_sum_exact_kernelIfLi2ELb0EEvPKT_mP9gp_xs_recPyPjPS0_Pl' $B/$v >$R/sass_f32_new.txt 2>&1
done
cuobjdump -sass -fun '_Z19gp_sum_exact_kernelIfLi2ELb0EEvPKT_mP9gp_xs_recPyPjPS0_Pl' $B/gpuprims_head >$R/sass_f32_head.txt 2>&1
xz -T4 $R/sass_*.txt
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for r in 1 2; do
  for v in gpuprims gpuprims_head gpuprims_unroll; do
    [ $((SECONDS - T0)) -lt 500 ] || break
    timeout 60 $B/$v bench reduce --dtype f32 --n 2^10,2^12,2^13,2^14,2^16,2^18,2^20,2^22,2^24 --max-time 0.12 --quiet >$R/f32_uniform_${v}_r$r.txt 2>&1
  done
  for v in gpuprims gpuprims_head gpuprims_one8k gpuprims_one4k; do
    [ $((SECONDS - T0)) -lt 500 ] || break
    timeout 60 $B/$v bench reduce --dtype f64 --n 2^10,2^11,3000,2^12,6000,2^13,2^14,2^16,2^20,2^24 --max-time 0.12 --quiet >$R/f64_uniform_${v}_r$r.txt 2>&1
  done
  for v in gpuprims gpuprims_wide2; do
    [ $((SECONDS - T0)) -lt 520 ] || break
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --max-time 0.3 --quiet --no-seed --no-segments --sizes 2^24,2^28 >$R/pairs64_${v}_r$r.txt 2>&1
  done
  pack
done
for d in lognormal wide; do for v in gpuprims gpuprims_head; do
  [ $((SECONDS - T0)) -lt 545 ] || break
  timeout 30 $B/$v bench reduce --dtype f32 --n 2^12,2^16,2^20,2^24 --data $d --max-time 0.1 --quiet >$R/f32_${d}_${v}.txt 2>&1
done; done
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
for f in $R/f*_r*.txt $R/f32_lognormal* $R/f32_wide*; do printf "%-34s" "$(basename $f .txt)"; grep "^gpuprims" $f | awk '{t=""; for(i=1;i<=NF;i++) if ($i=="us"||$i=="ms") t=$(i-1); r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; sz=""; for(i=2;i<NF;i++) if ($i ~ /^f(32|64)$/) sz=$(i+1); printf " %s %s %s|", sz, t, r}'; echo; done
for f in $R/pairs64_*; do echo "== $(basename $f)"; grep -E "^gpuprims|^cub" $f; done
