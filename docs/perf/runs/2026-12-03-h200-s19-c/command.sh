#!/usr/bin/env bash
# s19-c (2026-12-03, nineteenth session): F64 inputs above 6144 elements on the grid
# kernel (GP_XS_ONE_BLOCK_N_F64; host dispatch only: the PTX is 082acae's), test sizes
# 6143-6145 added. The reduce tests (CTest -R), pytest, memcheck of test_reduce_exact_gpu
# (quick), then F64 benches against one8k (-DGP_XS_ONE_BLOCK_N_F64=8192u: 082acae's
# dispatch), two rounds. Binaries of $1 in c19c.tar.xz.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c19c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
(GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/mem.log 2>&1; echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(grep -h 'SUMMARY' $R/mem.log | tail -1); $(grep -h 'passed' $R/mem.log | tail -1))" >$R/san.sum) &
SP=$!
timeout 200 ctest --test-dir $B -j 6 -R "reduce|exact|python_pytest" --output-on-failure --timeout 190 >$R/ctest.log 2>&1
echo "ctest -R reduce|exact|python_pytest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $SP; cat $R/san.sum >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for r in 1 2; do for v in gpuprims gpuprims_one8k; do
  [ $((SECONDS - T0)) -lt 300 ] || break
  timeout 30 $B/$v bench reduce --dtype f64 --n 4096,6000,6144,6145,7000,7500,2^13,2^14 --max-time 0.1 --quiet >$R/f64_uniform_${v}_r$r.txt 2>&1
done; done
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
for f in $R/f*_r*.txt; do printf "%-30s" "$(basename $f .txt)"; grep "^gpuprims" $f | awk '{t=""; for(i=1;i<=NF;i++) if ($i=="us"||$i=="ms") t=$(i-1); r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; sz=""; for(i=2;i<NF;i++) if ($i ~ /^f(32|64)$/) sz=$(i+1); printf " %s %s %s|", sz, t, r}'; echo; done
