#!/usr/bin/env bash
# A project that builds gpuprims inside itself: the consumer project (tests/consumer)
# takes this checkout by add_subdirectory and by FetchContent (SOURCE_DIR: no network),
# builds only what it links and runs it. gpuprims is configured CPU-only there
# (GP_WITH_CUDA=OFF) so this test costs a C build, not a second CUDA build; the CUDA
# side of the same CMake code is what the main build itself runs.
set -eu
repo=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for how in subdirectory fetchcontent; do
  cmake -S "$repo/tests/consumer" -B "$tmp/$how" -DGP_HOW=$how -DGP_SOURCE_DIR="$repo" \
    -DGP_WITH_CUDA=OFF >"$tmp/$how.log" || { cat "$tmp/$how.log"; exit 1; }
  # taken in by another project, gpuprims builds no tests or benchmarks of its own
  if cmake --build "$tmp/$how" --target help | grep -q "test_core\|gpuprims_bench"; then
    echo "$how: gpuprims added its tests or benchmarks to the consumer's build"; exit 1
  fi
  cmake --build "$tmp/$how" --target consumer -j 2 >"$tmp/$how.log" || { cat "$tmp/$how.log"; exit 1; }
  "$tmp/$how/consumer"
  echo "$how: ok"
done
