#!/usr/bin/env bash
# s25-b (2026-12-04, twenty-fifth session): gpuprims = $1's build (one-sweep pass with
# fewer instructions a key: predicated leader atomic, desc as a mask, full tiles loaded
# without bounds tests and output addresses in shared memory for 4-byte keys alone);
# gpuprims_old = the pass before (6efbab3's radix.cu, VARIANT_SRC); gpuprims_nofull =
# -DGP_RX_FULL_LOAD=0. Radix and sort tests and memcheck of the new build; benches
# alternated, two rounds; the new pass's SASS and ncu source counters (u32, 2^26).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s25b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_sort_radix_gpu test_sort_gpu; do
  timeout 200 $B/$t >$R/$t.log 2>&1
  echo "$t exit $? ($(grep -h passed $R/$t.log | tail -1)) [$((SECONDS - T0))s]" >>$O
done
GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
cuobjdump -sass -fun '_Z11rx_onesweepIjjLb0ELi0EEv13rx_sweep_args' $B/gpuprims 2>&1 | xz -T2 >$R/sass_u32_new.txt.xz
cuobjdump -sass -fun '_Z11rx_onesweepIjjLb0ELi0EEv13rx_sweep_args' $B/gpuprims_old 2>&1 | xz -T2 >$R/sass_u32_old.txt.xz
pack
Q="--no-seed --no-segments --quiet"
for r in 1 2; do
  for v in gpuprims gpuprims_old gpuprims_nofull; do
    timeout 90 $B/$v bench sort --algo auto --sizes 2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30 $Q --max-time 0.15 >$R/u32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --sizes 2^20,2^24,2^28 $Q --max-time 0.15 >$R/u64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --pairs u32 --sizes 2^20,2^24,2^28 $Q --max-time 0.15 >$R/p32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 $Q --max-time 0.2 >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes 2^24 $Q --max-time 0.15 >$R/arg_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
timeout 90 ncu --clock-control none --set full -k regex:rx_onesweep --launch-skip 1 --launch-count 1 -o $R/os_new $B/gpuprims bench sort --algo radix --sizes 2^26 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 1 --warmup 0 --quiet >$R/ncu_run.txt 2>&1
echo "ncu exit $? [$((SECONDS - T0))s]" >>$O
ncu -i $R/os_new.ncu-rep --page details >$R/os_new.details.txt 2>&1
ncu -i $R/os_new.ncu-rep --page source --csv --print-source cuda,sass 2>&1 | xz -T2 >$R/os_new.cs.csv.xz
rm -f $R/os_new.ncu-rep
echo "[$((SECONDS - T0))s] done" >>$O; pack
