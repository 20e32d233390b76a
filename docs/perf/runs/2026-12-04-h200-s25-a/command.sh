#!/usr/bin/env bash
# s25-a (2026-12-04, twenty-fifth session): gpuprims = $1's build (pairs with 8-byte
# values by index: u32 indices through the passes, the values gathered by the last
# pass); gpuprims_direct = -DGP_RX_BY_INDEX_LOG2_K8=64 -DGP_RX_BY_INDEX_LOG2_K4=64 (the
# values moved at every pass, as before). Radix tests of both, memcheck of the new one;
# benches alternated, two rounds; ncu source counters of one u32 one-sweep pass at 2^26.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s25a.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_sort_radix_gpu test_sort_radix_gpu_direct test_sort_gpu test_topk_gpu; do
  timeout 200 $B/$t >$R/$t.log 2>&1
  echo "$t exit $? ($(grep -h passed $R/$t.log | tail -1)) [$((SECONDS - T0))s]" >>$O
done
GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
for r in 1 2; do
  for v in gpuprims gpuprims_direct; do
    timeout 90 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^21,2^22,2^24,2^26,2^28 --no-seed --no-segments --max-time 0.2 --quiet >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --pairs u64 --sizes 2^20,2^22,2^24,2^28 --no-seed --no-segments --max-time 0.2 --quiet >$R/p3264_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
N="ncu --clock-control none"
timeout 90 $N --set full -k regex:rx_onesweep --launch-skip 1 --launch-count 1 -o $R/os_u32_2p26 $B/gpuprims bench sort --algo radix --sizes 2^26 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 1 --warmup 0 --quiet >$R/ncu_run.txt 2>&1
echo "ncu exit $? [$((SECONDS - T0))s]" >>$O
ncu -i $R/os_u32_2p26.ncu-rep --page details >$R/os_u32_2p26.details.txt 2>&1
ncu -i $R/os_u32_2p26.ncu-rep --page source --csv --print-source sass 2>&1 | xz -T2 >$R/os_u32_2p26.sass.csv.xz
ncu -i $R/os_u32_2p26.ncu-rep --page source --csv --print-source cuda,sass 2>&1 | xz -T2 >$R/os_u32_2p26.cs.csv.xz
rm -f $R/os_u32_2p26.ncu-rep
echo "[$((SECONDS - T0))s] done" >>$O; pack
