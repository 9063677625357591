#!/usr/bin/env bash
# Installs a configured and built tilecheck into a temporary prefix, then
# builds examples/consumer against it twice, with find_package and with
# pkg-config, and runs the programs; runs the installed tilecheck command; and
# checks that the four places that state the version agree (the command, the
# CMake package, the pkg-config file, the C API's tilecheck_version()). Used
# by ctest (test package_consumer).
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
for f in bin/tilecheck include/tilecheck/tilecheck.h include/tilecheck/conformance_plugin.h \
         include/tilecheck/testing/gtest.h include/tilecheck/testing/agreement.h \
         include/tilecheck/impl/plan.h include/tilecheck/spec/syntax.h include/tilecheck/spec/model.h \
         "$libdir/cmake/tilecheck/tilecheckConfig.cmake" \
         "$libdir/cmake/tilecheck/tilecheckConfigVersion.cmake" "$libdir/pkgconfig/tilecheck.pc"; do
  [[ -f "$prefix/$f" ]] || { echo "not installed: $f" >&2; exit 1; }
done

echo "== find_package(tilecheck CONFIG)"
cmake -S "$consumer" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$work/configure.log"
cmake_version="$(sed -n 's/^-- tilecheck package version: //p' "$work/configure.log")"
found="$(sed -n 's/^tilecheck_DIR:PATH=//p' "$work/build/CMakeCache.txt")"
if [[ "$found" != "$prefix/$libdir/cmake/tilecheck" ]]; then
  echo "find_package found tilecheck in '$found', not in the test prefix" >&2
  exit 1
fi
cmake --build "$work/build" >/dev/null
"$work/build/consumer_c" | tee "$work/consumer_c.out"
"$work/build/consumer_cxx"
if [[ -x "$work/build/consumer_test" ]]; then
  "$work/build/consumer_test" --gtest_brief=1
else
  echo "consumer_test not built (no GoogleTest)" >&2
  exit 1
fi
# "tilecheck 0.1.0 (C API 1): ..."
c_api_version="$(sed -n 's/^tilecheck \([^ ]*\) (C API [0-9]*):.*/\1/p' "$work/consumer_c.out")"

echo "== pkg-config tilecheck"
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
# shellcheck disable=SC2046,SC2086  # word splitting of the flags is intended
"$cc" $flags $(pkg-config --cflags tilecheck) "$consumer/consumer.c" -o "$work/consumer_c_pc" \
  $(pkg-config --libs tilecheck) -Wl,-rpath,"$(pkg-config --variable=libdir tilecheck)"
"$work/consumer_c_pc"
pc_version="$(pkg-config --modversion tilecheck)"

echo "== the installed tilecheck command"
command_version="$("$prefix/bin/tilecheck" --version)"
echo "$command_version"
index="$("$prefix/bin/tilecheck" index 'f32[3,5]{1,0:T(2,2)}' 2,3)"
if [[ "$index" != 17 ]]; then
  echo "installed tilecheck index: '$index', expected 17" >&2
  exit 1
fi

echo "== versions"
echo "command: $command_version; CMake package: $cmake_version; pkg-config: $pc_version; C API: $c_api_version"
if [[ -z "$cmake_version" || "$command_version" != "tilecheck $cmake_version" ||
      "$pc_version" != "$cmake_version" || "$c_api_version" != "$cmake_version" ]]; then
  echo "the versions disagree" >&2
  exit 1
fi
