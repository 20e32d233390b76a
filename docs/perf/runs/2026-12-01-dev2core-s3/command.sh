python3 bench/numpy_cpu.py --lib build/libgpuprims.so --reps 5 --json numpy_cpu.json --md numpy_cpu.md   # build of a64d8fb (before: --reps 3, build of 3cc5c16 with numpy_cpu.py's new cases)
