set -u
tar xf gpubin.tar.xz
B=build
{
for th in 8 12 16; do for ch in 8 16 32; do
  echo "== GPUPRIMS_STAGE_THREADS=$th GPUPRIMS_STAGE_CHUNK_MB=$ch"
  GPUPRIMS_STAGE_THREADS=$th GPUPRIMS_STAGE_CHUNK_MB=$ch timeout 60 $B/gpuprims bench host --reps 20 | grep -E "pageable|pinned"
done; done
} > $OUT/stage_sweep.txt 2>&1
timeout 150 python3 bench/cli_files.py --gpuprims $B/gpuprims --reps 5 --json $OUT/cli_files.json > $OUT/cli_files.txt 2>&1
timeout 200 python3 bench/numpy_cpu.py --lib $B/libgpuprims.so --reps 5 --json $OUT/numpy_cpu.json --md $OUT/numpy_cpu.md > $OUT/cpu.txt 2>&1
nproc; cat /proc/loadavg
