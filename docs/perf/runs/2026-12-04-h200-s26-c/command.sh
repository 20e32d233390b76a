#!/usr/bin/env bash
# s26-c (2026-12-04, twenty-sixth session): the whole-GPU rank sort, keys and pairs in one
# cooperative launch (grid sync). gpuprims = $1's build (AUTO: 257 .. 4096 keys);
# gpuprims_off = the same with it off (-DGP_GRS_*_LOG2=0: the paths before it);
# gpuprims_wide = it from 2 keys (-DGP_GRS_*_MIN_LOG2=1). Radix test (AUTO's small sorts
# against the CPU backend; test_sort_radix_gpu_nocoop: the scratch + copy fallback,
# -DGP_GRS_COOP=0, = s26-b's form), sanitizers on the new kernels, benches alternated,
# two rounds (s26-b measured the fallback form).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 200 $B/test_sort_radix_gpu >$R/test_sort_radix_gpu.log 2>&1
echo "test_sort_radix_gpu exit $? ($(grep -h passed $R/test_sort_radix_gpu.log | tail -1)) [$((SECONDS - T0))s]" >>$O
timeout 200 $B/test_sort_radix_gpu_nocoop >$R/test_sort_radix_gpu_nocoop.log 2>&1
echo "test_sort_radix_gpu_nocoop exit $? ($(grep -h passed $R/test_sort_radix_gpu_nocoop.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
S1="--no-seed --no-segments --no-peers --max-time 0.001 --min-samples 1 --warmup 0 --quiet"
for tool in memcheck racecheck synccheck; do
  for m in "--dtype u32" "--dtype f64 --pairs u32 --desc" "--dtype f32 --argsort" "--dtype u64 --pairs u64"; do
    timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims bench sort --algo auto $m --sizes 3001,2048,300 $S1 >$R/san.log 2>&1
    echo "$tool [$m] exit $? ($(grep -h SUMMARY $R/san.log | tail -1)) [$((SECONDS - T0))s]" >>$O
  done
done
pack
Q="--no-seed --no-segments --quiet --max-time 0.2"
Z="--sizes 2^8,2^9,2^10,2^11,3000,2^12"
for r in 1 2; do
  for v in gpuprims gpuprims_off gpuprims_wide; do
    timeout 60 $B/$v bench sort --algo auto $Z $Q >$R/u32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 $Z $Q >$R/u64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --pairs u32 $Z $Q >$R/p32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --pairs u64 $Z $Q >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f32 --argsort $Z $Q >$R/arg_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack
