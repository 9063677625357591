#!/usr/bin/env bash
# The Python package's tests. The extension must load into a plain python3,
# which a sanitizer-built one cannot (its runtime would have to be preloaded),
# so this builds the package without sanitizers in the Release tree BUILD_DIR
# (ctest gives it the CI recipe test's, whose libraries are built already;
# a new directory is configured), then runs pytest over python/tests and the example's
# property test (examples/python/detile_bf16.py) with Debian's python3, the
# one the python3-* packages are installed for.
#   python_tests.sh ROOT BUILD_DIR
set -euo pipefail
root=$1 build=$2
python=/usr/bin/python3
[[ -x $python ]] || python=$(command -v python3)
mkdir -p "$build"
if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILECHECK_BUILD_TESTS=OFF \
     -DPython_EXECUTABLE="$python" >"$build/configure.log" 2>&1; then
  cat "$build/configure.log"
  exit 1
fi
if ! cmake --build "$build" --target tilecheck_python -j2 >"$build/build.log" 2>&1; then
  grep -h 'Python package' "$build/configure.log" || true
  tail -40 "$build/build.log"
  exit 1
fi
cd "$root"
# hypothesis keeps its files in the build tree, not in the checkout.
export HYPOTHESIS_STORAGE_DIRECTORY="$build/hypothesis"
PYTHONPATH="$build/python" "$python" -m pytest -q -p no:cacheprovider \
  python/tests examples/python/detile_bf16.py
# A plain python3 imports it, from the tree: nothing preloaded.
PYTHONPATH="$build/python" "$python" -c 'import tilecheck; print("import tilecheck:", tilecheck.__version__)'
# An interpreter that cannot import it (here: numpy hidden, as in another
# interpreter without Debian's python3-numpy) is told which one it was built for.
if PYTHONPATH="$build/python" "$python" -c 'import sys; sys.modules["numpy"] = None; import tilecheck' 2>"$build/import.err"; then
  echo "error: import tilecheck without numpy succeeded" >&2
  exit 1
fi
if ! grep -q "tilecheck's extension was built for $python (Python 3" "$build/import.err"; then
  echo "error: the failed import does not name the interpreter the package is built for:" >&2
  cat "$build/import.err" >&2
  exit 1
fi
echo "import tilecheck without numpy: $(tail -1 "$build/import.err" | cut -c1-100)..."
