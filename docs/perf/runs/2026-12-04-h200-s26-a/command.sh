#!/usr/bin/env bash
# s26-a (2026-12-04, twenty-sixth session): issue 12's digit-width trial
# (bench/tools/radix_digits.cu, built Release sm_90 on the dev box and carried):
# sanitizers at small n, the timing at 2^20..2^28, ncu memory counters of the passes at 2^26.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf rd.tar.xz
B=build/radix_digits_bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$O
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B --log2 20,13 --rounds 1 >$R/memcheck.log 2>&1
echo "memcheck exit $? ($(grep -h SUMMARY $R/memcheck.log | tail -1)) [$((SECONDS - T0))s]" >>$O
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B --log2 16 --rounds 1 >$R/racecheck.log 2>&1
echo "racecheck exit $? ($(grep -h SUMMARY $R/racecheck.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
timeout 200 $B --log2 20,22,24,26,28 --rounds 15 >$R/digits.txt 2>&1
echo "digits exit $? [$((SECONDS - T0))s]" >>$O
pack
timeout 150 ncu --clock-control none -k regex:"xd_onesweep|rx_onesweep" --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_shared_mem $B --log2 26 --rounds 1 >$R/ncu.csv 2>$R/ncu.err
echo "ncu exit $? [$((SECONDS - T0))s]" >>$O
xz -9 $R/ncu.csv
echo "[$((SECONDS - T0))s] done" >>$O; pack
