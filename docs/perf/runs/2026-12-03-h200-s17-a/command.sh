#!/usr/bin/env bash
# First GPU call of the seventeenth session (2026-12-03): binaries of commit $1 (Release,
# sm_90) in c17a.tar.xz. The whole CTest suite at -j 4 with pytest, test_dist_gpu p1
# and racecheck (quick) of test_reduce_exact_gpu beside it; then `gpuprims bench host`
# (new rows: MIN's host result, an empty kernel's launch + sync) and ncu kernel
# durations of the exact SUM, the plain kernel (MIN) and CUB's at small and mid sizes.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c17a.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; nproc; } >$O
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(GP_TEST_QUICK=1 timeout 280 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/race.log 2>&1; echo "racecheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/race.log | tail -1); $(grep -h 'passed' $R/race.log | tail -1))" >$R/san.sum) &
SP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 360 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 330 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
echo "[$((SECONDS - T0))s] host" >>$O; pack
for k in 1 2; do timeout 60 $B/gpuprims bench host --big 0 --reps 400 >$R/host$k.txt 2>&1; done
echo "[$((SECONDS - T0))s] ncu" >>$O; pack
NCU="ncu --clock-control none --metrics gpu__time_duration.sum --csv"
for c in f32,sum,2^10 f32,min,2^10 f32,sum,2^16 f32,sum,2^20 f32,min,2^20 f32,sum,2^24 f64,sum,2^10 f64,sum,2^20 f64,sum,2^24; do
  IFS=, read t op n <<<"$c"
  [ $((SECONDS - T0)) -lt 500 ] || break
  timeout 60 $NCU -k regex:"gp_sum_exact|gp_reduce_auto|DeviceReduce" $B/gpuprims bench reduce --dtype $t --op $op --n $n --max-time 0.02 --min-samples 3 --max-samples 4 --warmup 1 --quiet >$R/ncu_${t}_${op}_$n.csv 2>&1
done
echo "[$((SECONDS - T0))s] stalls" >>$O; pack
# warp stall reasons (no_instruction: instruction fetch) of one launch each, caches flushed
for c in f32,sum,2^12,gp_sum_exact f32,sum,2^12,DeviceReduce f32,min,2^12,gp_reduce_auto f64,sum,2^10,gp_sum_exact f64,sum,2^10,DeviceReduce f32,sum,2^20,gp_sum_exact f32,sum,2^20,DeviceReduce; do
  IFS=, read t op n k <<<"$c"
  [ $((SECONDS - T0)) -lt 540 ] || break
  timeout 60 ncu --clock-control none --section WarpStateStats --section LaunchStats --section InstructionStats --metrics gpu__time_duration.sum,smsp__inst_executed.sum,smsp__warps_issue_stalled_no_instruction.sum,smsp__warps_issue_stalled_imc_miss.sum,smsp__warps_issue_stalled_barrier.sum,smsp__warps_issue_stalled_long_scoreboard.sum,smsp__warps_issue_stalled_membar.sum,smsp__warps_issue_stalled_wait.sum,smsp__warps_issue_stalled_short_scoreboard.sum,smsp__warps_issue_stalled_branch_resolving.sum,smsp__warps_issue_stalled_math_pipe_throttle.sum -k regex:$k -s 1 -c 1 $B/gpuprims bench reduce --dtype $t --op $op --n $n --max-time 0.02 --min-samples 3 --max-samples 4 --warmup 1 --quiet >$R/stall_${t}_${op}_${n}_$k.txt 2>&1
done
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O; grep -E "^(reduce|ref|gp_sync|integrate)" $R/host1.txt $R/host2.txt
for f in $R/stall_*.txt; do echo "== $(basename $f)"; grep -E "Duration|Warp Cycles Per Issued|stalled|inst_executed|gpu__time|ERROR|rror" $f | head -24; done
for f in $R/ncu_*.csv; do echo "== $(basename $f)"; python3 - "$f" <<'PY'
import csv, sys, statistics, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print("no rows"); sys.exit()
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value")
d = collections.defaultdict(list)
for r in rows[1:]:
    d[r[ki]].append(float(r[vi].replace(",", "")))
for k, v in d.items(): print(f"  {k[:160]:160s} n={len(v):3d} median {statistics.median(v):9.0f} ns min {min(v):9.0f}")
PY
done
