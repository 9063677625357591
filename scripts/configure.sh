# Sourced by scripts/run, scripts/test, scripts/test-builds and
# scripts/gate-implementations.
# tilecheck_configure SOURCE_DIR BUILD_DIR CMAKE_ARGS...: configures with
# Ninja, keeping CMake's own lines in BUILD_DIR/configure.log; prints the
# configure's one-line notices (an optional library missing and what it
# disables) and, when the configure fails, the whole log.
tilecheck_configure() {
  local source=$1 build=$2
  shift 2
  mkdir -p "$build"
  if ! cmake -S "$source" -B "$build" -G Ninja "$@" >"$build/configure.log" 2>&1; then
    cat "$build/configure.log" >&2
    echo "error: the configure failed (log: $build/configure.log)" >&2
    return 1
  fi
  sed -n 's/^-- \(tilecheck: .*\)/\1/p' "$build/configure.log" >&2
}

# tilecheck_configure_test_tree ROOT: configures ROOT/build/test, the tree
# of scripts/test, scripts/test-builds and scripts/gate-implementations:
# AddressSanitizer and UndefinedBehaviorSanitizer, warnings as errors, and
# XLA's TransposePlan peer when TILECHECK_XLA_SOURCE_DIR names a checkout
# (then it installs what that needs: scripts/deps.sh, sourced first).
tilecheck_configure_test_tree() {
  local root=$1
  if [ -n "${TILECHECK_XLA_SOURCE_DIR:-}" ]; then tilecheck_install_deps xla; fi
  tilecheck_configure "$root" "$root/build/test" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILECHECK_SANITIZE=ON \
    -DTILECHECK_WERROR=ON ${TILECHECK_XLA_SOURCE_DIR:+-DTILECHECK_XLA_SOURCE_DIR="$TILECHECK_XLA_SOURCE_DIR"}
}
