#!/usr/bin/env bash
# Gate a layout implementation on tilecheck in CI: build and install
# tilecheck, build the implementation against the installed package, run the
# gate on it, read the JSON verdict and keep the failing cases as artifacts.
# docs/CI.md shows this file and how to call it from GitHub Actions or GitLab
# CI; a test (ctest ci_example) runs it as it is written here.
#
# Environment (all optional):
#   TILECHECK_SRC  tilecheck's source tree (default: third_party/tilecheck,
#                  a git submodule of your repository)
#   WORK           where to build and what to keep (default: build/layouts)
#   IMPL_SRC       the CMake project of your implementation (default: the
#                  example implementation, $TILECHECK_SRC/examples/impl)
#   IMPL_LIB       the library it builds, relative to its build directory
#                  (default: libtilecheck_example_impl.so)
#   GATE_ARGS      more flags for `tilecheck gate --impl` (default: --cases 1000)
# Exit: the gate's (0 every check passed, 1 a check failed, 2 unusable library).
set -euo pipefail
TILECHECK_SRC=${TILECHECK_SRC:-third_party/tilecheck}
WORK=${WORK:-build/layouts}
IMPL_SRC=${IMPL_SRC:-$TILECHECK_SRC/examples/impl}
IMPL_LIB=${IMPL_LIB:-libtilecheck_example_impl.so}
GATE_ARGS=${GATE_ARGS:---cases 1000}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
prefix=$WORK/tilecheck-prefix
artifacts=$WORK/artifacts

# 1. What tilecheck needs to build (Debian packages), and jq for step 5.
source "$TILECHECK_SRC/scripts/deps.sh"
tilecheck_install_deps main
tilecheck_install_packages jq

# 2. Build tilecheck (without its own tests) and install it into a prefix.
cmake -S "$TILECHECK_SRC" -B "$WORK/tilecheck" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DTILECHECK_BUILD_TESTS=OFF >/dev/null
cmake --build "$WORK/tilecheck" --target tilecheck tilecheck_c tilecheck_fuzz_seeds
cmake --install "$WORK/tilecheck" --prefix "$prefix" >/dev/null
"$prefix/bin/tilecheck" --version

# 3. Build the implementation against the installed package
#    (find_package(tilecheck CONFIG), linking tilecheck::model to parse layouts).
cmake -S "$IMPL_SRC" -B "$WORK/impl" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$WORK/impl"

# 4. Gate it: every check on the catalogue and on generated layouts.
rm -rf "$artifacts"
mkdir -p "$artifacts"
status=0
# shellcheck disable=SC2086  # GATE_ARGS is a list of flags
"$prefix/bin/tilecheck" gate --impl "$WORK/impl/$IMPL_LIB" $GATE_ARGS --json \
  >"$artifacts/verdict.json" || status=$?

# 5. Read the verdict; on a failure keep each minimal failing case and the
#    command that reproduces it (upload $WORK/artifacts from your CI).
if [[ $status -eq 2 ]]; then
  echo "layouts: the gate could not use $IMPL_LIB (see the messages above)" >&2
  exit 2
fi
jq -r '.functions[] | "\(.function): \(.result), \(.layouts_checked) layouts, \(.layouts_skipped) skipped"' \
  "$artifacts/verdict.json"
if [[ $(jq -r .ok "$artifacts/verdict.json") != true ]]; then
  jq -r '.functions[] | select(.failure) |
         "\(.function): \(.failure.problem) on \(.failure.minimal_layout)\n  reproduce: \(.failure.reproduce)"' \
    "$artifacts/verdict.json" | tee "$artifacts/failures.txt"
  echo "layouts: FAILED; the verdict and the failing cases are in $artifacts" >&2
fi
exit "$status"
