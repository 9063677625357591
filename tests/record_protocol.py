#!/usr/bin/env python3
"""Sits between `tilecheck gate --impl-cmd` and an implementation and
records every line of their exchange:

    record_protocol.py LOG COMMAND ARGS...

runs COMMAND ARGS, passes each request line from standard input to it and
its reply line back, and appends both to LOG, one per line."""
import subprocess
import sys

log = open(sys.argv[1], "ab")
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for request in sys.stdin.buffer:
    log.write(request)
    child.stdin.write(request)
    child.stdin.flush()
    reply = child.stdout.readline()
    if not reply:
        break
    log.write(reply)
    sys.stdout.buffer.write(reply)
    sys.stdout.buffer.flush()
log.close()
