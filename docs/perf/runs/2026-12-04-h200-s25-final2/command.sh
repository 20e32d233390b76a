#!/usr/bin/env bash
# s25-final2 (2026-12-04, twenty-fifth session): binaries of $1 (gpuprims), with
# gpuprims_b (50c8dd8's radix.cu) and gpuprims_old (6efbab3's: the session's start).
# pytest with -rs on the build's library (torch, CuPy, JAX on the GPU); then issue 12's
# target table: AUTO u32 keys 2^11..2^30 (new and start, two rounds), f32/i64/u64/f64
# keys, pairs u32/u32, f32/u32 and u64/u64 (new and b, two rounds), argsort f32 2^24.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s25f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log) [$((SECONDS - T0))s]" >>$O
pack
Q="--no-seed --no-segments --quiet"
for r in 1 2; do
  for v in gpuprims gpuprims_old; do
    timeout 90 $B/$v bench sort --algo auto --sizes 2^11,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30 $Q --max-time 0.15 --json $R/u32_${v}_r$r.json >$R/u32_${v}_r$r.txt 2>&1
  done
  for v in gpuprims gpuprims_b; do
    timeout 60 $B/$v bench sort --algo auto --pairs u32 --sizes 2^20,2^24,2^28 $Q --max-time 0.15 >$R/p32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f32 --pairs u32 --sizes 2^20,2^24,2^28 $Q --max-time 0.15 >$R/pf32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 $Q --max-time 0.2 >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes 2^24 $Q --max-time 0.15 >$R/arg_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
for t in f32 i64 u64 f64; do
  timeout 60 $B/gpuprims bench sort --algo auto --dtype $t --sizes 2^20,2^24,2^28 $Q --max-time 0.15 >$R/keys_$t.txt 2>&1
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
