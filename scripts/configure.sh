# Sourced by scripts/run and scripts/test.
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
