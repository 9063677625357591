#!/usr/bin/env python3
"""An implementation for `tilecheck gate --impl-cmd` that misbehaves in one
way, chosen by its first argument, and otherwise answers as the example
implementation does (examples/python/tiled_layout_impl.py):

    crash_on_pack     logs a line to stderr, then dies of SIGSEGV on pack
    hang_on_index     starts a child process that sleeps, writes the child's
                      pid to the file named by the second argument, and
                      never answers linear_index
    exit_on_index     exits with status 3 on linear_index
    spin_on_index     computes forever on linear_index (for the CPU limit)
    garbage_size      answers byte_size with a line that is not JSON
    non_utf8_size     answers byte_size with bytes that are not UTF-8
    oversized_size    answers byte_size with a line of 65 MiB
    gib_line_size     answers byte_size with a line of 1 GiB, written 1 MiB at a time
    deep_json_size    answers byte_size with a size nested 1,000,000 arrays deep
    huge_number_size  answers byte_size with a size of 30 digits, past int64
    uint64_size       answers byte_size with 2^64 - 1, an unsigned past int64
    float_size        answers byte_size with a size of 1e400, past any double
    nul_size          answers byte_size with a NUL byte inside a string
    report_limits     answers byte_size "errored", its resource limits the message
    wrong_seq_index   answers linear_index with the wrong seq
    errored_pack      answers pack with "errored"
    bad_start         answers start claiming protocol version 99
    silent_start      never answers start
    claims_f32_plain  claims only f32 layouts without sub-tiles, '*', E(n)
                      or L(n), and answers every request correctly
    index_only        offers linear_index only, and answers it correctly
    supports_one_f32  claims f32, and answers "skipped" to every layout but
                      f32[3,5]{1,0:T(2,2)}
    claims_rank_2     offers `claims` and claims the layouts of rank 2 only;
                      answers "errored" to any other request about a layout
                      of another rank, and every request correctly
    crash_on_claims   offers `claims`, and dies of SIGSEGV when asked it
                      about a layout with sub-tiles
    errored_claims    offers `claims`, and answers it "errored" for a layout
                      with sub-tiles
"""
import json
import os
import resource
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "python"))
import tiled_layout_impl as example  # noqa: E402

MODE = sys.argv[1]


def send(raw):
    sys.stdout.buffer.write(raw + b"\n")
    sys.stdout.buffer.flush()


# The raw answers to byte_size, each what follows '{"seq": N, ' on its line.
RAW_SIZE_REPLIES = {
    "oversized_size": lambda: b'"result": {"bytes": 1}, "pad": "' + b"x" * (65 << 20) + b'"}',
    "deep_json_size": lambda: b'"result": {"bytes": ' + b"[" * 1000000 + b"]" * 1000000 + b"}}",
    "huge_number_size": lambda: b'"result": {"bytes": 123456789012345678901234567890}}',
    "uint64_size": lambda: b'"result": {"bytes": 18446744073709551615}}',
    "float_size": lambda: b'"result": {"bytes": 1e400}}',
    "nul_size": lambda: b'"result": {"bytes": 1}, "note": "a\x00b"}',
    "non_utf8_size": lambda: b'"result": {"bytes": 1}, "note": "\xff\xfe"}',
}

for line in sys.stdin:
    request = json.loads(line)
    op, seq = request["op"], request["seq"]
    if op == "start" and MODE == "silent_start":
        time.sleep(3600)
    if op == "start" and MODE == "bad_start":
        send(json.dumps({"seq": seq, "result": {"protocol": 99, "name": "x", "version": "0",
                                                "capabilities": {"operations": []}}}).encode())
        continue
    if op == "pack" and MODE == "crash_on_pack":
        sys.stderr.write("faulty_impl_cmd: about to crash in pack\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if op == "linear_index" and MODE == "hang_on_index":
        child = subprocess.Popen(["sleep", "3600"])
        with open(sys.argv[2], "w") as f:
            f.write(str(child.pid))
        time.sleep(3600)
    if op == "linear_index" and MODE == "spin_on_index":
        while True:
            pass
    if op == "linear_index" and MODE == "exit_on_index":
        sys.exit(3)
    if op == "byte_size" and MODE == "garbage_size":
        send(b"this is not JSON")
        continue
    if op == "byte_size" and MODE == "report_limits":
        limits = ["%s=%d" % (name, resource.getrlimit(getattr(resource, "RLIMIT_" + name))[0])
                  for name in ("CPU", "AS", "NOFILE", "NPROC", "CORE")]
        send(json.dumps({"seq": seq, "errored": {"message": " ".join(limits)}}).encode())
        continue
    if op == "byte_size" and MODE in RAW_SIZE_REPLIES:
        send(b'{"seq": %d, ' % seq + RAW_SIZE_REPLIES[MODE]())
        continue
    if op == "byte_size" and MODE == "gib_line_size":
        sys.stdout.buffer.write(b'{"seq": %d, "result": {"bytes": 1}, "pad": "' % seq)
        chunk = b"x" * (1 << 20)
        try:
            for _ in range(1024):
                sys.stdout.buffer.write(chunk)
            send(b'"}')
        except BrokenPipeError:  # the gate stopped reading, as it should
            sys.exit(0)
        continue
    if op == "pack" and MODE == "errored_pack":
        send(json.dumps({"seq": seq, "errored": {"message": "out of coffee"}}).encode())
        continue
    if op == "claims" and MODE in ("claims_rank_2", "crash_on_claims", "errored_claims"):
        rank = len(request["layout"]["dims"])
        sub_tiles = len(request["layout"]["tiles"]) > 1
        if MODE == "crash_on_claims" and sub_tiles:
            os.kill(os.getpid(), signal.SIGSEGV)
        if MODE == "errored_claims" and sub_tiles:
            send(json.dumps({"seq": seq, "errored": {"message": "lost count of tiles"}}).encode())
            continue
        claimed = rank == 2 or MODE != "claims_rank_2"
        send(json.dumps({"seq": seq, "result": {"claimed": claimed, "message": "rank %d" % rank}}).encode())
        continue
    if MODE == "claims_rank_2" and "layout" in request and len(request["layout"]["dims"]) != 2:
        send(json.dumps({"seq": seq, "errored": {"message": "sent a layout it does not claim"}}).encode())
        continue
    if MODE == "supports_one_f32" and op != "start" and \
            request["layout"]["text"] != "f32[3,5]{1,0:T(2,2)}":
        send(json.dumps({"seq": seq, "skipped": {"message": "not this one"}}).encode())
        continue
    reply = example.answer(request)
    if op == "start" and MODE == "index_only":
        reply["result"]["capabilities"]["operations"] = ["linear_index"]
    if op == "start" and MODE == "supports_one_f32":
        reply["result"]["capabilities"]["element_types"] = ["f32"]
    if op == "start" and MODE == "claims_f32_plain":
        reply["result"]["capabilities"].update({"element_types": ["f32"], "features": []})
    if op == "start" and MODE in ("claims_rank_2", "crash_on_claims", "errored_claims"):
        reply["result"]["capabilities"]["operations"].append("claims")
    reply["seq"] = seq + (1 if op == "linear_index" and MODE == "wrong_seq_index" else 0)
    send(json.dumps(reply).encode())
