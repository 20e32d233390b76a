#!/usr/bin/env bash
# cmake --install puts the header, libraries, license, CMake package and pkg-config file
# in a prefix; the consumer project (tests/consumer) then finds that install through
# find_package (static and shared library) and through pkg-config, links and runs. The
# shared library's soname is MAJOR.MINOR of the header's version (0.x: 0.MINOR).
set -eu
gpuprims=$1 repo=$2
build=$(dirname "$gpuprims")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
# the library directory is lib or lib64, as GNUInstallDirs chooses
libdir=$(cd "$tmp/prefix" && ls -d lib*/cmake/gpuprims | head -1 | cut -d/ -f1)
for f in include/gpuprims.h "$libdir/libgpuprims.a" "$libdir/pkgconfig/gpuprims.pc" \
         "$libdir/cmake/gpuprims/gpuprimsConfig.cmake" bin/gpuprims \
         share/doc/gpuprims/LICENSE share/doc/gpuprims/NOTICE; do
  [ -e "$tmp/prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
ver() { sed -n "s/^#define GP_VERSION_$1 \([0-9]*\)$/\1/p" "$repo/include/gpuprims.h"; }
major=$(ver MAJOR) minor=$(ver MINOR) patch=$(ver PATCH)
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patch" ] || { echo "no version in gpuprims.h"; exit 1; }
if [ "$major" = 0 ]; then soversion=0.$minor; else soversion=$major; fi
so="$tmp/prefix/$libdir/libgpuprims.so.$major.$minor.$patch"
[ -f "$so" ] || { echo "missing after install: ${so#$tmp/prefix/}"; ls "$tmp/prefix/$libdir"; exit 1; }
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libgpuprims.so.$soversion" ] || { echo "soname '$soname', expected libgpuprims.so.$soversion"; exit 1; }
echo "soname: $soname"

# the consumer is built with the compilers gpuprims was (a sanitizer build's runtime
# must match; its link flags come with the installed package)
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
compilers=(${cc:+-DCMAKE_C_COMPILER="$cc"} ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"})
# pkg-config carries no sanitizer runtime: a sanitizer build's consumer links it itself
san_link=
grep -q '^GP_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && san_link="-fsanitize=address,undefined"
grep -q '^GP_FUZZ:BOOL=ON' "$build/CMakeCache.txt" && san_link="$san_link -fsanitize=fuzzer-no-link"
cmake -S "$repo/tests/consumer" -B "$tmp/find" -DGP_HOW=find_package \
  -DGP_WANT_VERSION="$major.$minor" -DCMAKE_PREFIX_PATH="$tmp/prefix" "${compilers[@]}" >/dev/null
cmake --build "$tmp/find" >/dev/null
"$tmp/find/consumer"
"$tmp/find/consumer_shared"
echo "find_package: ok (static and shared)"

if ! command -v pkg-config >/dev/null; then
  echo "pkg-config is not installed: the pkg-config way is untested here (skipped)"
  exit 77
fi
PKG_CONFIG_PATH="$tmp/prefix/$libdir/pkgconfig" pkg-config --exists gpuprims
[ "$(PKG_CONFIG_PATH="$tmp/prefix/$libdir/pkgconfig" pkg-config --modversion gpuprims)" = "$major.$minor.$patch" ] \
  || { echo "pkg-config --modversion is not $major.$minor.$patch"; exit 1; }
PKG_CONFIG_PATH="$tmp/prefix/$libdir/pkgconfig" \
  cmake -S "$repo/tests/consumer" -B "$tmp/pc" -DGP_HOW=pkg-config "${compilers[@]}" \
    ${san_link:+-DCMAKE_EXE_LINKER_FLAGS="$san_link"} >/dev/null
cmake --build "$tmp/pc" >/dev/null
"$tmp/pc/consumer"
echo "pkg-config: ok"
