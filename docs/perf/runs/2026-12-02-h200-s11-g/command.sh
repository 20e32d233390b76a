#!/usr/bin/env bash
# Last GPU call of the eleventh session: which kernels sort an argsort of 2^15 and 2^16
# u32 keys with 64-bit indices (the CLI's and Python's index type), binaries of $1.
set -u
tar xf c11f.tar.xz
B=build
echo "binaries of ${1:-?}" >$OUT/summary.txt
python3 -c "
import numpy as np
r = np.random.default_rng(3)
for n in (32768, 65536):
    np.save(f'/tmp/a{n}.npy', r.integers(0, 2**32, n, dtype=np.uint32))"
for n in 32768 65536; do
  timeout 60 ncu --clock-control none -k regex:rx_ --section LaunchStats $B/gpuprims sort /tmp/a$n.npy /tmp/o$n.npy --argsort >/tmp/ncu$n.txt 2>&1
  echo "== argsort u32 n=$n, u64 indices: $(grep -oE '^  rx_[a-z_]+' /tmp/ncu$n.txt | sort | uniq -c | tr '\n' ' ')" >>$OUT/summary.txt
  grep -E "Cluster|Grid Size|Block Size|Shared Memory Configuration Size|Dynamic Shared" /tmp/ncu$n.txt | head -8 >>$OUT/summary.txt
  cp /tmp/ncu$n.txt $OUT/
done
# Two more commands on the same (warm) machine, after the one above:
# (1) kernel durations, ncu (SpeedOfLight), of the same two argsorts:
#   for n in 32768 65536; do ncu --clock-control none -k regex:rx_ --section SpeedOfLight \
#     build/gpuprims sort /tmp/a$n.npy /tmp/o$n.npy --argsort 2>&1 | grep -E "rx_|Duration"; done
# (2) python_adhoc.txt: gpuprims.argsort against torch.argsort(stable=True) of int32 CUDA
#   tensors, CUDA events around each call, 300 calls back to back (no L2 flush), median
#   and minimum, two rounds each (GPUPRIMS_LIBRARY=$PWD/build/libgpuprims.so, in python/).
