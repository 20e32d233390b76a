#!/usr/bin/env bash
# 2-core dev box (AMD EPYC, Zen 3, AVX2), 2026-12-02 ~03:30-04:10 UTC, shared with other
# sessions' builds (cicc, xz; load average 1.1-4.2 during the runs). lib_old.so: CPU-only
# build of c0b0dd8; lib_new.so: the same with the window counted in varying (branch h18).
# Each line of the outputs: one fresh process, medians of REPS, wall ms (process CPU ms).
REPS=7 python3 sort_ab.py 3 lib_old.so lib_new.so   # ab_2threads.txt, first 6 lines
REPS=7 python3 sort_ab.py 4 lib_old.so lib_new.so   # ab_2threads.txt, next 8 lines
REPS=7 python3 sort_ab.py 3 lib_old.so lib_new.so   # ab_2threads.txt, last 6 lines
OMP_NUM_THREADS=1 REPS=5 python3 sort_ab.py 2 lib_old.so lib_new.so   # ab_1thread.txt
# perf (samples, cpu-clock, 8 sorts of 2^24 each): perf record python3 one.py LIB f32|u32 8
