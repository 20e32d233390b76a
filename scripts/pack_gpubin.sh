#!/usr/bin/env bash
# Packs what CTest and the benchmarks need from a build made here (default: build) into
# gpubin.tar.xz (xz -9e: its 64 MiB window finds the library that every test binary links
# statically, 17 MB against 63 MB at -6 and more with gzip, so it fits the
# device tool's 64 MiB carry): binaries, the shared library and the CTest files, at
# their paths, so a GPU machine with the repository at the same path runs them without
# building:
#   tar xf gpubin.tar.xz && GP_BUILD_DIR=build scripts/gpu_verify.sh test force sanitize
set -eu
B=${1:-build}
files=("$B"/gpuprims "$B"/libgpuprims.so* "$B"/test_* "$B"/CTestTestfile.cmake)
rm -f gpubin.tgz
tar cf - "${files[@]}" | xz -T0 -9e >gpubin.tar.xz
ls -la gpubin.tar.xz
