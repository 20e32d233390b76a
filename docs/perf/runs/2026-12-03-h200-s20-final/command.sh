#!/usr/bin/env bash
# s20-final (2026-12-03, twentieth session): binaries of $1 (rank sort with 16-byte
# vector reads, keys up to 2^10 and pairs/argsorts up to 2^12; the wide one-sweep
# shape's values early at 2 blocks a SM; the F64 SUM's final rounding by gp_xf_round).
# Verification: the whole CTest suite at -j 4 with pytest beside it, memcheck (quick)
# of test_sort_radix_gpu; racecheck, synccheck and memcheck of `gpuprims sort` on small
# files that take the rank sort, each output equal to the CPU backend's. Benches: small
# sorts against gpuprims_norank (the rank sort off), gpuprims_k12 (keys alone up to
# 2^12 too) and gpuprims_old1 (s20-a's rank sort, keys up to 2^12), alternated, two
# rounds; F64 sums and u64/u64 pairs once; ncu of the rank sort at 2^11 keys (k12).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c20f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(GP_TEST_QUICK=1 timeout 250 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/mem.log 2>&1; echo "memcheck test_sort_radix_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/mem.log | tail -1); $(grep -h 'passed' $R/mem.log | tail -1))" >$R/san.sum) &
SP=$!
timeout 300 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 280 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
echo "[$((SECONDS - T0))s] sanitizers on files" >>$O; pack
python3 - <<'PY'
import numpy as np
r = np.random.default_rng(2020)
np.save("/tmp/f32_1000.npy", r.standard_normal(1000).astype(np.float32))
a = r.integers(0, 50, 2048).astype(np.float32); a[7] = np.nan; a[100] = -0.0; a[101] = 0.0
np.save("/tmp/f32_2048_ties.npy", a)
np.save("/tmp/f64_3000.npy", r.integers(0, 300, 3000).astype(np.float64))
np.save("/tmp/u64_4096.npy", r.integers(0, 2**64 - 1, 4096, dtype=np.uint64))
PY
for c in "f32_1000 " "f32_2048_ties --argsort" "f64_3000 --argsort --desc" "u64_4096 --argsort"; do
  set -- $c; f=$1; shift
  $B/gpuprims sort /tmp/$f.npy /tmp/${f}_cpu.npy --backend cpu "$@" >/dev/null 2>&1
  for tool in racecheck synccheck memcheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims sort /tmp/$f.npy /tmp/${f}_$tool.npy --backend cuda "$@" >$R/san_${tool}_$f.log 2>&1
    echo "$tool gpuprims sort $f $* exit $? ($(grep -h SUMMARY $R/san_${tool}_$f.log | tail -1)); same as cpu: $(cmp -s /tmp/${f}_$tool.npy /tmp/${f}_cpu.npy && echo yes || echo NO)" >>$O
  done
done
echo "[$((SECONDS - T0))s] benches" >>$O; pack
S=2^8,2^10,2^11,3000,2^12
for r in 1 2; do
  for v in gpuprims gpuprims_norank gpuprims_k12 gpuprims_old1; do
    [ $((SECONDS - T0)) -lt 470 ] || break
    timeout 30 $B/$v bench sort --algo auto --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/keys_u32_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --dtype u64 --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/keys_u64_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --pairs u32 --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/pairs_u32_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes $S --no-seed --no-segments --max-time 0.1 --quiet >$R/argsort_f32_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] f64, wide" >>$O
[ $((SECONDS - T0)) -lt 500 ] && timeout 40 $B/gpuprims bench reduce --dtype f64 --n 2^10,2^11,2^12,2^13,2^14,2^16,2^18,2^20,2^22,2^24 --max-time 0.1 --quiet >$R/f64.txt 2>&1
[ $((SECONDS - T0)) -lt 520 ] && timeout 40 $B/gpuprims bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 --no-seed --no-segments --max-time 0.3 --quiet >$R/wide.txt 2>&1
echo "[$((SECONDS - T0))s] ncu" >>$O; pack
if [ $((SECONDS - T0)) -lt 550 ]; then
  timeout 30 ncu --clock-control none --kernel-name regex:rk_sort --launch-count 2 --section SpeedOfLight --section WarpStateStats --section SourceCounters --print-details all \
    $B/gpuprims_k12 bench sort --algo auto --sizes 2^11 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 2 --warmup 0 --quiet >$R/ncu_rank_2048.txt 2>&1
fi
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
