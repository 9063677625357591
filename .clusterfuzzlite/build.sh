#!/bin/bash -eu
# One build script serves OSS-Fuzz and ClusterFuzzLite.
exec bash -eu "$SRC/tilecheck/fuzz/oss-fuzz/build.sh"
