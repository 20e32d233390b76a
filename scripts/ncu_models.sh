#!/usr/bin/env bash
# Holds the cost models (gpuprims model ...) against Nsight Compute on a GPU: profiles
# each reduction kernel with ncu --clock-control none and writes a markdown table of
# model figures beside measured ones (scripts/ncu_models.py). Run from the repo root:
#   scripts/ncu_models.sh [BUILD_DIR=build] [OUT_DIR=ncu_models_out] [N=1048576]
# Needs: ncu on PATH, python3, a CUDA build of gpuprims. Kernel names come from
# src/cuda/reduce/*.cu; adjust the KERNELS table below if they change.
set -euo pipefail
BUILD=${1:-build}
OUT=${2:-ncu_models_out}
N=${3:-1048576}
G="$BUILD/gpuprims"
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$OUT"
command -v ncu >/dev/null || { echo "ncu_models.sh: ncu not found on PATH" >&2; exit 1; }

METRICS=smsp__sass_thread_inst_executed.sum,smsp__sass_thread_inst_executed_pred_on.sum,\
smsp__inst_executed.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
launch__grid_size,launch__block_size

python3 "$HERE/ncu_models.py" gen-npy "$OUT/in.npy" "$N"

# label | gpuprims reduce --algo | kernel-name regex | model --algo | threads per block
KERNELS=(
  "interleaved|interleaved|regex:gp_reduce_interleaved_kernel|interleaved|256"
  "sequential|sequential|regex:gp_reduce_sequential_kernel|sequential|256"
  "two-phase-1|two-phase|regex:gp_reduce_two_phase1_kernel|two-phase|256"
  "two-phase-2|two-phase|regex:gp_reduce_two_phase2_kernel|two-phase|256"
  "warp-atomic|warp-atomic|regex:gp_reduce_warp_atomic_kernel|warp-atomic|1024"
)
: > "$OUT/commands.txt"
run() { echo "$*" >> "$OUT/commands.txt"; "$@"; }
for spec in "${KERNELS[@]}"; do
  IFS='|' read -r label algo regex malgo threads <<< "$spec"
  # --launch-count 1: the first launch (interleaved/sequential relaunch on their partials;
  # the first launch is the one over all n elements)
  run ncu --clock-control none --metrics "$METRICS" --csv --kernel-name "$regex" \
      --launch-count 1 "$G" reduce "$OUT/in.npy" --algo "$algo" --backend cuda \
      > "$OUT/ncu_$label.csv"
  run "$G" model divergence --algo "$malgo" --block "$threads" --json > "$OUT/div_$label.json"
  run "$G" model banks --algo "$malgo" --block "$threads" --json > "$OUT/banks_$label.json"
done

# reduce1 (strided index) and a plain stride: kernels the library does not ship
if command -v nvcc >/dev/null; then
  run nvcc -arch=sm_90 -O3 -o "$OUT/model_probe" "$HERE/model_probe.cu"
  for S in 1 2 4 32; do
    run ncu --clock-control none --metrics "$METRICS" --csv --kernel-name regex:probe_ \
        "$OUT/model_probe" "$S" > "$OUT/ncu_probe_$S.csv"
    run "$G" model banks --stride "$S" --block 256 --json > "$OUT/stride_$S.json"
  done
  run "$G" model divergence --algo interleaved-strided --block 256 --json > "$OUT/div_interleaved-strided.json"
  run "$G" model banks --algo interleaved-strided --block 256 --json > "$OUT/banks_interleaved-strided.json"
fi

python3 "$HERE/ncu_models.py" table "$OUT" > "$OUT/models_table.md"
cat "$OUT/models_table.md"
echo "ncu_models.sh: wrote $OUT/models_table.md (commands in $OUT/commands.txt)" >&2
