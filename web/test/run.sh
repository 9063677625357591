#!/usr/bin/env bash
# web/test/run.sh ROOT BUILD_DIR TILECHECK: the layout explorer's test
# (ctest web_explorer, label "builds"): builds the page into BUILD_DIR/site
# (scripts/build-explorer), installs the test's pinned playwright-core
# (package-lock.json) into BUILD_DIR/node with `npm ci`, and runs
# explorer_test.js against TILECHECK in Debian's headless Chromium; the
# screenshot it writes is BUILD_DIR/explorer.png.
set -euo pipefail
root=${1:?usage: run.sh ROOT BUILD_DIR TILECHECK}
build=${2:?usage: run.sh ROOT BUILD_DIR TILECHECK}
tilecheck=${3:?usage: run.sh ROOT BUILD_DIR TILECHECK}

"$root/scripts/build-explorer" "$build"

node_dir=$build/node
mkdir -p "$node_dir"
cp "$root/web/test/package.json" "$root/web/test/package-lock.json" "$node_dir/"
# playwright-core downloads no browser; the test drives /usr/bin/chromium.
(cd "$node_dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2)
NODE_PATH=$node_dir/node_modules exec node "$root/web/test/explorer_test.js" "$build/site" "$tilecheck" "$build/explorer.png"
