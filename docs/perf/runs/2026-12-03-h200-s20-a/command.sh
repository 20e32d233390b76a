#!/usr/bin/env bash
# s20-a (2026-12-03, twentieth session): the one-cluster rank sort (rank_sort.cu) for
# AUTO's sorts, pairs and argsorts of up to 2^12 keys, against the paths before it
# (gpuprims_norank: -DGP_RK_KEYS_LOG2=0 -DGP_RK_PAIRS_LOG2=0 on rank_sort.cu); the wide
# one-sweep shape (u64/u64 pairs) compiled for 2 blocks a SM (gpuprims_w2:
# -DGP_RX_WIDE_MIN_BLOCKS=2) and with its values loaded before the look-back
# (gpuprims_early2: and -DGP_RX_VAL_EARLY=1), against the default (3, as before). The
# exact F64 SUM's final rounding by gp_xf_round (GP_XF_FINAL) against gp_xf_to_doubles
# (gpuprims_oldrn: -DGP_XF_FINAL_RN=0 on reduce_exact.cu).
# Binaries of $1 in c20a.tar.xz. The whole CTest suite at -j 4 with pytest beside it,
# memcheck (quick) and racecheck (quick=2) of test_sort_radix_gpu, memcheck (quick) of
# test_reduce_exact_gpu; benches alternated,
# two rounds; ncu of the rank sort's kernel and the bitonic cluster kernel at 2^11;
# `gpuprims bench host` with a new floor row (an empty kernel whose flag the host polls).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c20a.tar.xz
tar xf c20h.tar.xz # gpuprims again, with `bench host`'s flag row (same library code)
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(GP_TEST_QUICK=1 timeout 250 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/mem.log 2>&1; echo "memcheck test_sort_radix_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/mem.log | tail -1); $(grep -h 'passed' $R/mem.log | tail -1))" >$R/san.sum) &
SP=$!
(GP_TEST_QUICK=2 timeout 280 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/race.log 2>&1; echo "racecheck test_sort_radix_gpu (quick=2) exit $? ($(grep -h 'SUMMARY' $R/race.log | tail -1); $(grep -h 'passed' $R/race.log | tail -1))" >$R/race.sum) &
RP=$!
(GP_TEST_QUICK=1 timeout 250 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/memx.log 2>&1; echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/memx.log | tail -1); $(grep -h 'passed' $R/memx.log | tail -1))" >$R/sanx.sum) &
XP=$!
timeout 300 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 280 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
wait $RP; cat $R/race.sum >>$O
wait $XP; cat $R/sanx.sum >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
S=2^6,2^8,2^10,2^11,3000,2^12,2^13
for r in 1 2; do
  for v in gpuprims gpuprims_norank; do
    [ $((SECONDS - T0)) -lt 440 ] || break
    timeout 30 $B/$v bench sort --algo auto --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/keys_u32_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --dtype u64 --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/keys_u64_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --pairs u32 --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/pairs_u32_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/pairs_u64_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/argsort_f32_${v}_r$r.txt 2>&1
  done
  pack
done
timeout 30 $B/gpuprims bench host --big 0 --reps 400 >$R/host.txt 2>&1
echo "[$((SECONDS - T0))s] f64 sums" >>$O
for r in 1 2; do
  for v in gpuprims gpuprims_oldrn; do
    [ $((SECONDS - T0)) -lt 480 ] || break
    timeout 40 $B/$v bench reduce --dtype f64 --n 2^10,2^11,3000,2^12,6000,2^13,2^14,2^16,2^18,2^20,2^22,2^24 --max-time 0.1 --quiet >$R/f64_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] wide pairs" >>$O
for r in 1 2; do
  for v in gpuprims gpuprims_w2 gpuprims_early2; do
    [ $((SECONDS - T0)) -lt 540 ] || break
    timeout 40 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 --no-seed --no-segments --max-time 0.3 --quiet >$R/wide_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] ncu" >>$O; pack
if [ $((SECONDS - T0)) -lt 550 ]; then
  timeout 20 ncu --clock-control none --kernel-name regex:rk_sort --launch-count 3 --section SpeedOfLight --section LaunchStats \
    $B/gpuprims bench sort --algo auto --sizes 2^11 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 2 --warmup 0 --quiet >$R/ncu_rank_2048.txt 2>&1
  timeout 20 ncu --clock-control none --kernel-name regex:bs_cluster --launch-count 3 --section SpeedOfLight \
    $B/gpuprims_norank bench sort --algo auto --sizes 2^11 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 2 --warmup 0 --quiet >$R/ncu_bitonic_2048.txt 2>&1
fi
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
cat $R/host.txt
for f in $R/keys_* $R/pairs_* $R/argsort_* $R/wide_* $R/f64_*; do echo "== $(basename $f .txt)"; grep -vE "^#|^$" $f | head -20; done
