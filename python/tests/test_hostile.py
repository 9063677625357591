"""The hostile-input table (tests/hostile/inputs.json) through the Python
package: each text gives a LayoutError or a Layout, in bounded time, never a
crash. The C++ side runs the same table through the spec, the C API, the
command and HLO files (tests/hostile_input_test.cc)."""
import json
import pathlib
import time

import pytest

from tilecheck import Layout, LayoutError

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "tests/hostile/inputs.json").read_text())["inputs"]


def text_of(entry):
    """The entry's bytes, as a str of the same code points (latin-1): a byte
    past 0x7f becomes a character the parser must refuse all the same."""
    out = bytearray()
    for part in entry["parts"]:
        piece = bytes.fromhex(part["hex"]) if "hex" in part else part["text"].encode()
        out += piece * part.get("times", 1)
    return out.decode("latin-1")


@pytest.mark.parametrize("entry", TABLE, ids=lambda e: e["name"])
def test_hostile_input_is_an_error_or_an_answer(entry):
    text = text_of(entry)
    start = time.monotonic()
    try:
        layout = Layout.parse(text)
        error = None
    except LayoutError as e:
        error = str(e)
    if entry["expect"] == "error":
        assert error is not None, "%s was answered" % entry["name"]
        # A byte past 0x7f reaches the parser as UTF-8: another byte value.
        if not any("hex" in part for part in entry["parts"]):
            assert entry.get("message", "") in error
    elif entry["expect"] == "answer":
        assert error is None, error
    if error is None:
        assert layout.byte_size >= 0
    else:
        assert len(error) < 4096 and error.isprintable()
    assert time.monotonic() - start < 60
