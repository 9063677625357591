#!/bin/sh
# run_reproducer.sh VERSION PROGRAM: runs the reproducer of one finding of
# docs/IMPLEMENTATIONS.md (peers/*/reproducers) against the version of the
# third party it was built with, and says whether the finding holds there.
# Exits 0 while it holds (the docs are right), 77 -- a skipped ctest --
# once it is fixed (the docs' table wants "fixed in", with the fixing
# commit) or where this machine cannot reach it, and 1 when the program
# cannot tell (it crashed, or could not run the third party's code).
version=$1
shift
"$@"
status=$?
case $status in
  1) echo "reproducer: the finding is still present in $version" ;;
  0) echo "reproducer: the finding is FIXED in $version: docs/IMPLEMENTATIONS.md should say 'fixed in <commit> (<date>)'"
     exit 77 ;;
  77) echo "reproducer: this machine cannot reach the finding (it needs another CPU); nothing is known of $version here"
      exit 77 ;;
  *) echo "reproducer: could not tell whether the finding holds in $version (exit status $status)"
     exit 1 ;;
esac
