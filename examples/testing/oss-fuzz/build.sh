#!/bin/bash -eu
# OSS-Fuzz: projects/layouts/build.sh in google/oss-fuzz. The build itself
# lives in the project's repository, where ClusterFuzzLite runs it too.
exec bash -eu "$SRC/layouts/.clusterfuzzlite/build.sh"
