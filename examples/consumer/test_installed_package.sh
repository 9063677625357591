#!/usr/bin/env bash
# Installs a configured and built tilecheck into a temporary prefix, then
# builds examples/consumer against it twice, with find_package and with
# pkg-config, and runs the programs. Used by ctest (test package_consumer).
#
# usage: test_installed_package.sh BUILD_DIR LIBDIR C_COMPILER CXX_COMPILER [FLAGS]
#   LIBDIR  the install's CMAKE_INSTALL_LIBDIR (lib, lib64, ...)
#   FLAGS   compile and link flags the consumer needs too (the sanitizers of
#           a sanitized tilecheck build)
set -euo pipefail
build=$1 libdir=$2 cc=$3 cxx=$4 flags=${5:-}
consumer="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/tilecheck/tilecheck.h include/tilecheck/conformance_plugin.h include/tilecheck/impl/plan.h \
         "$libdir/cmake/tilecheck/tilecheckConfig.cmake" \
         "$libdir/cmake/tilecheck/tilecheckConfigVersion.cmake" "$libdir/pkgconfig/tilecheck.pc"; do
  [[ -f "$prefix/$f" ]] || { echo "not installed: $f" >&2; exit 1; }
done

echo "== find_package(tilecheck CONFIG)"
cmake -S "$consumer" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
found="$(sed -n 's/^tilecheck_DIR:PATH=//p' "$work/build/CMakeCache.txt")"
if [[ "$found" != "$prefix/$libdir/cmake/tilecheck" ]]; then
  echo "find_package found tilecheck in '$found', not in the test prefix" >&2
  exit 1
fi
cmake --build "$work/build" >/dev/null
"$work/build/consumer_c"
"$work/build/consumer_cxx"

echo "== pkg-config tilecheck"
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
# shellcheck disable=SC2046,SC2086  # word splitting of the flags is intended
"$cc" $flags $(pkg-config --cflags tilecheck) "$consumer/consumer.c" -o "$work/consumer_c_pc" \
  $(pkg-config --libs tilecheck) -Wl,-rpath,"$(pkg-config --variable=libdir tilecheck)"
"$work/consumer_c_pc"
