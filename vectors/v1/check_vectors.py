#!/usr/bin/env python3
"""Check an implementation of XLA tiled layouts against tilecheck's vector
files alone, with the Python standard library only.

    python3 check_vectors.py tiled_layouts_test.json -- COMMAND [ARG...]

COMMAND is the implementation, started once (and again after a request
it did not answer usably: a timeout, a reply out of step, an exit, so that
every later test is judged on its own answer; after 5 such requests in a
row the checker stops); it speaks tilecheck's JSON
Lines protocol (tilecheck's docs/PROTOCOL.md): one request per line on its
standard input, one reply per line on its standard output. Every layout
request carries the layout's parsed fields from the vector file, so the
implementation needs no parser of its own; the parse tests are sent only to
an implementation that claims `parse`.

For each test the checker asks the implementation and compares (a
linear_index test is two checks when the implementation also answers
delinearize):
  size          byte_size                 the "bytes" of the test
  linear_index  linear_index              the "index" (asked in batches), and
                delinearize of the index  the "element"
  delinearize   delinearize of position   the "element" (null: padding)
  pack          pack of dense_hex         packed_hex, every bit (padding zero);
                                          --padding any: outside padding_mask_hex
  unpack        unpack of packed_hex      dense_hex
  parse         parse of text             valid / invalid; acceptable: either

Tests of a layout whose element type or tiling forms the implementation does
not claim, or that it answers `claims` with false when it offers `claims`
(docs/PROTOCOL.md), or of an operation it does not list, are counted as not
claimed; a failed answer to `claims` fails every test of that layout;
--skip-flag FLAG leaves out the tests that carry FLAG (see the file's
"notes"). A claimed test the implementation answers "skipped" fails, as in
the gate, unless --allow-skips. A failing test is printed with its id. Exit status: 0 when no
test failed, 1 when one did, 2 when the vector file or the implementation's
handshake is unusable.
"""
import argparse
import base64
import json
import os
import selectors
import signal
import subprocess
import sys
import time

FORMAT = "tilecheck tiled layout vectors"
FORMAT_VERSION = 1
BATCH = 4096
MAX_BROKEN = 5  # requests in a row without a usable answer before the checker stops


class Broken(Exception):
    """The implementation did not answer a request usably."""


class Errored(Broken):
    """The implementation answered `errored`: a failure, but it is in step."""


class Implementation:
    """The implementation's process. After a request it did not answer
    usably (a timeout, a reply out of step, an exit) it is started again, so
    that every later test is judged on its own answer."""

    def __init__(self, command, timeout):
        self.command = command
        self.timeout = timeout
        self.process = None
        self.restarts = 0

    def start(self):
        """Starts the process and returns its answer to `start`."""
        self.seq = -1  # start is request 0
        self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=sys.stderr, start_new_session=True)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.buffer = b""
        return self.ask("start", protocol=1)

    def restart(self):
        self.kill()
        self.restarts += 1
        capabilities = self.start()
        if not isinstance(capabilities, dict) or capabilities.get("protocol") != 1:
            raise Broken(f"restarted, its start answered {capabilities!r}")

    def kill(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        self.process.wait()
        self.selector.close()

    def _line(self):
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                raise Broken(f"no answer within {self.timeout:g} s")
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                status = self.process.wait()
                raise Broken(f"the implementation exited (status {status}) without answering")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def ask(self, op, **fields):
        """The result of one request; ("skipped", message) or raises Broken."""
        self.seq += 1
        request = {"seq": self.seq, "op": op, **fields}
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            # An implementation that has exited closed its input too: say
            # which, whichever of the two the write saw first.
            try:
                status = self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                raise Broken("the implementation closed its input")
            raise Broken(f"the implementation exited (status {status}) before reading request {self.seq}")
        line = self._line()
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):  # nested past Python's recursion limit
            raise Broken(f"a reply that is not JSON, or nested too deep to read: {line[:200]!r}")
        if not isinstance(reply, dict) or reply.get("seq") != self.seq:
            raise Broken(f"a reply without seq {self.seq}: {line[:200]!r}")
        if "result" in reply:
            return reply["result"]
        if "skipped" in reply:
            return ("skipped", str(reply["skipped"]))
        if "errored" in reply:
            raise Errored(f"errored: {reply['errored']}")
        raise Broken(f"a reply with none of result, skipped, errored: {line[:200]!r}")

    def close(self):
        if self.process is None:
            return
        try:
            self.process.stdin.close()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()


def features_of(fields):
    tiles = fields["tiles"]
    features = set()
    if len(tiles) > 1:
        features.add("sub_tiles")
    if any(entry == "*" for tile in tiles for entry in tile):
        features.add("combined_dims")
    if fields["element_size_bits"] is not None:
        features.add("element_size")
    if fields["tail_padding_alignment"] > 1:
        features.add("tail_padding")
    return features


def exact(answer, expected):
    """answer equals expected, integers as JSON integers (not floats, not booleans)."""
    if isinstance(expected, list):
        return (isinstance(answer, list) and len(answer) == len(expected) and
                all(exact(a, e) for a, e in zip(answer, expected)))
    if expected is None:
        return answer is None
    return type(answer) is int and answer == expected


def b64(hex_text):
    return base64.b64encode(bytes.fromhex(hex_text)).decode()


def unb64(text):
    return base64.b64decode(text, validate=True)


def differ_outside(mask, expected, actual):
    """The first byte where expected and actual differ outside mask, or None."""
    if len(expected) != len(actual):
        return f"{len(actual)} bytes, expected {len(expected)}"
    for i, (e, a, m) in enumerate(zip(expected, actual, mask)):
        if (e ^ a) & ~m & 0xFF:
            return f"byte {i} is {a:#04x}, expected {e:#04x}"
    return None


class Checker:
    def __init__(self, impl, capabilities, args):
        self.impl = impl
        self.operations = set(capabilities.get("operations", []))
        self.types = capabilities.get("element_types")
        self.features = capabilities.get("features")
        self.skip_flags = set(args.skip_flag)
        self.any_padding = args.padding == "any"
        self.allow_skips = args.allow_skips
        self.broken_in_row = 0
        self.counts = {"passed": 0, "failed": 0, "not claimed": 0, "skipped by flag": 0,
                       "skipped by the implementation": 0}

    def fail(self, test, why):
        self.counts["failed"] += 1
        print(f"FAIL {test['id']}: {why}")

    def wanted(self, test, op):
        if self.skip_flags.intersection(test["flags"]):
            self.counts["skipped by flag"] += 1
            return False
        if op not in self.operations:
            self.counts["not claimed"] += 1
            return False
        return True

    def ask(self, test, op, **fields):
        """The result, or None when the test is done (skipped or failed).
        Raises Broken when the implementation cannot go on: it broke
        MAX_BROKEN requests in a row, or does not start again."""
        try:
            result = self.impl.ask(op, **fields)
        except Errored as e:
            self.fail(test, str(e))
            return None
        except Broken as e:
            self.fail(test, str(e))
            self.broken_in_row += 1
            if self.broken_in_row >= MAX_BROKEN:
                raise Broken(f"{MAX_BROKEN} requests in a row got no usable answer (the last: {e})")
            self.impl.restart()
            return None
        self.broken_in_row = 0
        if isinstance(result, tuple):
            if self.allow_skips:
                self.counts["skipped by the implementation"] += 1
            else:
                self.fail(test, f"skipped although claimed ({result[1]}); --allow-skips accepts skips")
            return None
        return result

    def claims(self, group):
        """Whether an implementation that offers `claims` claims the group's
        layout (a skip counts as not claimed); None when the request failed,
        which fails every test of the group."""
        fields, tests = group["fields"], group["tests"]
        why = None
        try:
            result = self.impl.ask("claims", layout=fields)
        except Errored as e:  # answered, with "errored"
            why = str(e)
        except Broken as e:  # no usable answer: start it afresh for the next group
            why = str(e)
            self.impl.restart()
        else:
            if isinstance(result, tuple):
                return False
            if isinstance(result, dict) and isinstance(result.get("claimed"), bool):
                return result["claimed"]
            why = f"a result without a boolean claimed: {result!r}"
        for test in tests:
            self.fail(test, f"asked whether it claims {fields['text']}: {why}")
        return None

    def layout_group(self, group):
        fields = group["fields"]
        claimed = ((self.types is None or fields["element_type"] in self.types) and
                   (self.features is None or features_of(fields) <= set(self.features)))
        tests = group["tests"]
        if claimed and "claims" in self.operations:
            claimed = self.claims(group)
            if claimed is None:
                return
        if not claimed:
            self.counts["not claimed"] += len(tests)
            return
        index_tests, positions = [], []
        for test in tests:
            op = test["op"]
            if op == "linear_index":
                if self.wanted(test, op):
                    index_tests.append(test)
                if self.wanted(test, "delinearize"):
                    positions.append((test, test["index"], test["element"]))
            elif op == "delinearize":
                if self.wanted(test, op):
                    positions.append((test, test["position"], test["element"]))
            elif op == "size" and self.wanted(test, "byte_size"):
                result = self.ask(test, "byte_size", layout=fields)
                if result is not None:
                    self.compare(test, result.get("bytes") if isinstance(result, dict) else None,
                                 test["bytes"], "bytes")
            elif op == "pack" and self.wanted(test, "pack"):
                result = self.ask(test, "pack", layout=fields, dense=b64(test["dense_hex"]))
                if result is not None:
                    self.compare_buffer(test, result, "packed", test["packed_hex"],
                                        test.get("padding_mask_hex") if self.any_padding else None)
            elif op == "unpack" and self.wanted(test, "unpack"):
                result = self.ask(test, "unpack", layout=fields, packed=b64(test["packed_hex"]))
                if result is not None:
                    self.compare_buffer(test, result, "dense", test["dense_hex"], None)
        self.batches(fields, "linear_index", "elements", "indices",
                     [(t, t["element"], t["index"]) for t in index_tests])
        self.batches(fields, "delinearize", "positions", "elements", positions)

    def batches(self, fields, op, key, answer_key, asked):
        """Asks (test, question, expected answer) triples in batches."""
        for start in range(0, len(asked), BATCH):
            batch = asked[start:start + BATCH]
            result = self.ask(batch[0][0], op, layout=fields, **{key: [q for _, q, _ in batch]})
            if result is None:
                continue
            answers = result.get(answer_key) if isinstance(result, dict) else None
            if not isinstance(answers, list) or len(answers) != len(batch):
                for test, _, _ in batch:
                    self.fail(test, f"{op}: no list of {answer_key}, one per question")
                continue
            for (test, question, expected), answer in zip(batch, answers):
                if exact(answer, expected):
                    self.counts["passed"] += 1
                else:
                    self.fail(test, f"{op} of {question}: {answer!r}, expected {expected}")

    def compare(self, test, actual, expected, what):
        if exact(actual, expected):
            self.counts["passed"] += 1
        else:
            self.fail(test, f"{what} {actual!r}, expected {expected}")

    def compare_buffer(self, test, result, key, expected_hex, mask_hex):
        try:
            actual = unb64(result[key])
        except (TypeError, KeyError, ValueError):
            self.fail(test, f"no base64 \"{key}\" in the result")
            return
        expected = bytes.fromhex(expected_hex)
        mask = bytes.fromhex(mask_hex) if mask_hex else bytes(len(expected))
        why = differ_outside(mask, expected, actual)
        if why:
            self.fail(test, f"{key}: {why}")
        else:
            self.counts["passed"] += 1

    def parse_group(self, group):
        for test in group["tests"]:
            if not self.wanted(test, "parse"):
                continue
            result = self.ask(test, "parse", text=test["text"])
            if result is None:
                continue
            valid = result.get("valid") if isinstance(result, dict) else None
            if not isinstance(valid, bool):
                self.fail(test, "no boolean \"valid\" in the result")
            elif test["result"] == "acceptable" or valid == (test["result"] == "valid"):
                self.counts["passed"] += 1
            else:
                self.fail(test, ("rejects" if not valid else "accepts") +
                          f" {test['text']!r}" +
                          (f" ({test['error']})" if "error" in test else ""))


def unusable(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        unusable(f"{path}: {e}")
    except RecursionError:
        unusable(f"{path}: JSON nested deeper than Python reads")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        unusable(f"{path} is not a tilecheck vector file")
    if doc.get("formatVersion") != FORMAT_VERSION:
        unusable(f"{path} has format version {doc.get('formatVersion')}; "
                 f"this checker reads version {FORMAT_VERSION}")
    return doc


def main():
    parser = argparse.ArgumentParser(
        description="Check an implementation against tilecheck's vector files.",
        usage="%(prog)s [options] VECTORS.json... -- COMMAND [ARG...]")
    parser.add_argument("files", nargs="+", metavar="VECTORS.json")
    parser.add_argument("--skip-flag", action="append", default=[], metavar="FLAG",
                        help="leave out the tests with this flag (repeatable)")
    parser.add_argument("--padding", choices=("zero", "any"), default="zero",
                        help="zero: pack must write padding bits zero (default); "
                             "any: padding contents are not compared")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds to wait for each answer (default 20)")
    parser.add_argument("--allow-skips", action="store_true",
                        help="a claimed test the implementation answers 'skipped' does not fail")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("give the implementation's command after --")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1:]
    docs = [load(path) for path in args.files]

    impl = Implementation(command, args.timeout)
    status = 0
    try:
        try:
            capabilities = impl.start()
        except Broken as e:
            print(f"error: the implementation's start: {e}", file=sys.stderr)
            return 2
        if not isinstance(capabilities, dict) or capabilities.get("protocol") != 1:
            print(f"error: the implementation's start answered {capabilities!r}", file=sys.stderr)
            return 2
        caps = capabilities.get("capabilities", {})
        checker = Checker(impl, caps, args)
        total = 0
        try:
            for doc in docs:
                total += doc["numberOfTests"]
                for group in doc["testGroups"]:
                    if group["type"] == "LayoutTest":
                        checker.layout_group(group)
                    elif group["type"] == "ParseTest":
                        checker.parse_group(group)
        except Broken as e:
            print(f"the implementation stopped: {e}; the remaining tests were not run")
            status = 1
        counts = checker.counts
        times = "1 time" if impl.restarts == 1 else f"{impl.restarts} times"
        restarted = f" (the implementation was restarted {times})" if impl.restarts else ""
        print(f"{total} tests; checks: " + ", ".join(f"{n} {what}" for what, n in counts.items()) + restarted)
        if counts["failed"]:
            status = 1
    finally:
        impl.close()
    return status


if __name__ == "__main__":
    # SIGPIPE stays ignored (Python's default): a write to an implementation
    # that has exited is then BrokenPipeError, reported as such, not the
    # end of the checker. A closed output of our own ends it quietly.
    try:
        sys.exit(main())
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
