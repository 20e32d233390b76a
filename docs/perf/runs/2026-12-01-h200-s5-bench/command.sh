#!/usr/bin/env bash
# Second GPU call of the fifth session (2026-12-01): same carried binaries as s5-verify.
# On a fresh, otherwise idle host: the CPU backend beside NumPy; the Python suites
# beside torch/CuPy (binding overhead, sum, small sorts); Nsight Compute on the rows
# top-k select kernel (scripts/profile_topk_rows.sh); racecheck of test_topk_gpu (quick).
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build; L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s cpu
timeout 80 python3 bench/numpy_cpu.py --lib $lib --reps 5 --json $L/cpu.json --md $L/cpu.md >$L/cpu.txt 2>&1
echo "cpu bench exit $? ($(cat /proc/loadavg))" >>$OUT/summary.txt
s python
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites overhead,sum,sort,argsort,topk_rows --sizes 2048,8192,32768,65536,1048576 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
s ncu
OUT=$L bash scripts/profile_topk_rows.sh >/dev/null 2>&1
tail -3 $L/ncu_topk_rows.txt >>$OUT/summary.txt
s racecheck
GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_topk_gpu >$L/racecheck_topk.log 2>&1
echo "racecheck test_topk_gpu exit $?" >>$OUT/summary.txt
s done
save
