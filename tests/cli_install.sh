#!/usr/bin/env bash
# cmake --install puts the header, libraries, CMake package and pkg-config file in a
# prefix; a separate project finds them (find_package and pkg-config) and links.
set -eu
gpuprims=$1 repo=$2
build=$(dirname "$gpuprims")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in include/gpuprims.h lib/libgpuprims.a lib/pkgconfig/gpuprims.pc \
         lib/cmake/gpuprims/gpuprimsConfig.cmake bin/gpuprims; do
  [ -e "$tmp/prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
ls "$tmp/prefix"/lib/libgpuprims.so* >/dev/null || { echo "no shared library installed"; exit 1; }
# the consumer is built with the compilers gpuprims was (a sanitizer build's runtime
# must match; its link flags come with the installed package)
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake -S "$repo/tests/install" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  ${cc:+-DCMAKE_C_COMPILER="$cc"} ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer"
# pkg-config, where it is installed
if command -v pkg-config >/dev/null; then
  PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --exists gpuprims
  inc=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags-only-I gpuprims | sed 's/^-I//; s/ *$//')
  [ -f "$inc/gpuprims.h" ] || { echo "pkg-config --cflags points at '$inc', which has no gpuprims.h"; exit 1; }
  echo "pkg-config: ok"
fi
echo "install: ok"
