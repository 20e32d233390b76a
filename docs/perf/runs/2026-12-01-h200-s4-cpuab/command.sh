#!/usr/bin/env bash
# Two GPU-machine calls (16-core Xeon host of the H200), 2026-12-01 ~18:56 and ~18:58 UTC:
# gp_sort of 2^24 keys on the CPU backend from CPU-only builds (GP_WITH_CUDA=OFF) of
# commits 2ff8904 (the 21.8 ms u32 run), 38b4375, 82eac8c and 1f33c40 (HEAD), and the
# CUDA build of HEAD (lib_cuda.so), carried in gpubin/. Output: ab1.txt (first call),
# ab2.txt + numpy_cpu_{cpuonly,cuda}.md (second call).
# call 1:
python3 sort_ab.py $G/lib_2ff8904.so $G/lib_38b4375.so $G/lib_82eac8c.so $G/lib_HEAD.so
OMP_NUM_THREADS=8 python3 sort_ab.py $G/lib_HEAD.so $G/lib_2ff8904.so
# call 2:
python3 sort_ab.py $G/lib_cuda.so $G/lib_HEAD.so
python3 bench/numpy_cpu.py --lib $G/lib_HEAD.so --reps 5 --md numpy_cpu_cpuonly.md
python3 bench/numpy_cpu.py --lib $G/lib_cuda.so --reps 5 --md numpy_cpu_cuda.md
