#!/usr/bin/env bash
# Third GPU call of the sixteenth session (2026-12-03): binaries (Release, sm_90) in
# c16c.tar.xz: the working tree's (dense steps after a vote), gpuprims_bl (dense steps
# without the branch on the head's exactness, GP_XS_DENSE_BRANCHLESS=1) and
# gpuprims_head (reduce_exact.cu of ce70a4c). Benches on wide data, then ncu of the
# kernel on 2^26 wide F64 and F32.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
tar xf c16c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
run() { # name binary args...
  local f=$R/$1; shift
  [ $((SECONDS - T0)) -lt 200 ] && timeout 60 "$@" --max-time 0.2 --quiet --json $f.json >$f.txt 2>&1
}
for v in gpuprims gpuprims_bl gpuprims_head; do
  run f32_wide_$v $B/$v bench reduce --dtype f32 --n 2^16,2^20,2^24,2^26,2^28 --data wide
  run f64_wide_$v $B/$v bench reduce --dtype f64 --n 2^26,2^28 --data wide
  run f32_logn_$v $B/$v bench reduce --dtype f32 --n 2^24,2^28 --data lognormal
done
echo "[$((SECONDS - T0))s] ncu" >>$O
for v in gpuprims gpuprims_bl; do for t in f64 f32; do
  [ $((SECONDS - T0)) -lt 300 ] || continue
  timeout 60 ncu --clock-control none -k regex:gp_sum_exact_kernel -c 1 --section SpeedOfLight --section WarpStateStats \
    --section InstructionStats --section ComputeWorkloadAnalysis --section SchedulerStats \
    --metrics smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_branch_targets_threads_divergent.sum \
    $B/$v bench reduce --dtype $t --n 2^26 --data wide --max-time 0.01 --quiet >$R/ncu_${v}_$t.txt 2>&1
  echo "[$((SECONDS - T0))s] ncu $v $t exit $?" >>$O
done; done
tar czf $OUT/r.tgz -C /tmp r
cat $O
for f in $R/*.txt; do case $f in *summary*|*ncu*) continue;; esac
  echo "== $(basename $f)"; awk '/^gpuprims/{r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; printf "%s %s%s %s | ", $6, $11, $12, r}' $f; echo; done
for f in $R/ncu*; do echo "== $f"; grep -E "Duration|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|shared_atom|dadd|divergent|Executed Instructions  |FP64|Stall|Branch" $f | head -24; done
