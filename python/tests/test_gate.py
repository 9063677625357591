"""tilecheck.gate: the gate over an implementation from Python, as a team
gates its own in pytest. The example implementation of examples/python
passes; a copy of it with a bug a team could write (only the first tiling
level applied to the linear index) fails, and the report text names the
failure; copies that crash or hang, and a program that does not start, are
reported, never raised."""
import json
import pathlib
import subprocess
import sys

import pytest

import tilecheck

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python" / "tiled_layout_impl.py"
# Enough generated layouts to reach sub-tiles, few enough to stay quick.
CASES = 20


def test_the_example_implementation_passes():
    report = tilecheck.gate(impl_cmd=[sys.executable, str(EXAMPLE)], cases=CASES)
    assert report.ok, report.text
    assert report.json["report_version"] == 1 and report.json["ok"] is True
    assert report["failures"] == [] and report.error is None
    assert str(report) == report.text
    assert "conformance: passed" in report.text


def test_the_report_is_the_commands(tmp_path):
    """The same JSON and text as `tilecheck gate --json`, on the same run."""
    tilecheck_command = pathlib.Path(tilecheck.__file__).resolve().parents[2] / "cli" / "tilecheck"
    if not tilecheck_command.exists():
        pytest.skip(f"no tilecheck command built beside the package ({tilecheck_command})")
    command = f"{sys.executable} {EXAMPLE}"
    layouts = ["f32[3,5]{1,0:T(2,2)}", "bf16[16,256]{1,0:T(8,128)(2,1)}"]
    report = tilecheck.gate(impl_cmd=command, layouts=layouts)
    args = [str(tilecheck_command), "gate", "--impl-cmd", command] + [a for l in layouts for a in ("--layout", l)]
    text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    as_json = subprocess.run(args + ["--json"], capture_output=True, text=True, check=True).stdout
    assert report.text == text
    assert report.json == json.loads(as_json)


def edited_copy(tmp_path, name, old, new):
    """The example with `old` (found once) replaced by `new`."""
    source = EXAMPLE.read_text()
    assert source.count(old) == 1, f"the example changed: update this test's edit of {old!r}"
    copy = tmp_path / name
    copy.write_text(source.replace(old, new))
    return [sys.executable, str(copy)]


def test_a_broken_copy_fails_and_the_report_says_where(tmp_path):
    # As a team that tiles only once would have written final_shape.
    correct = '    for tile in layout["tiles"]:\n        bounds, index = apply_tile(tile, bounds, index)\n'
    broken = edited_copy(tmp_path, "first_tile_only_impl.py", correct,
                         correct.replace('layout["tiles"]', 'layout["tiles"][:1]'))
    report = tilecheck.gate(impl_cmd=broken, cases=CASES, shrink_seconds=2)
    assert not report.ok
    assert not report
    assert "linear_index" in report.json["failures"]
    linear_index = next(f for f in report.json["functions"] if f["function"] == "linear_index")
    assert linear_index["result"] == "FAILED"
    # The minimal case has two tiling levels: the second is the one ignored.
    assert ")(" in linear_index["failure"]["minimal_layout"], linear_index["failure"]
    assert "conformance: FAILED (" in report.text and "linear_index" in report.text
    assert linear_index["failure"]["minimal_layout"] in report.text


def test_a_crash_is_a_failure_in_the_report(tmp_path):
    crashing = edited_copy(tmp_path, "crashing_impl.py", "def pack(layout, dense):\n",
                           "def pack(layout, dense):\n    __import__('os').abort()\n")
    report = tilecheck.gate(impl_cmd=crashing, layouts=["f32[3,5]{1,0:T(2,2)}"])
    assert not report.ok
    pack = next(f for f in report.json["functions"] if f["function"] == "pack")
    assert pack["result"] == "FAILED" and pack["failure"]["problem"].startswith("crashed"), pack
    assert "crashed" in report.text


def test_a_hang_is_a_failure_in_the_report(tmp_path):
    hanging = edited_copy(tmp_path, "hanging_impl.py", "def linear_index(layout, element):\n",
                          "def linear_index(layout, element):\n    __import__('time').sleep(3600)\n")
    report = tilecheck.gate(impl_cmd=hanging, layouts=["f32[3,5]{1,0:T(2,2)}"], timeout=1)
    assert not report.ok
    linear_index = next(f for f in report.json["functions"] if f["function"] == "linear_index")
    assert linear_index["failure"]["problem"].startswith("hung"), linear_index
    assert linear_index["stopped_after_a_hang"]


def test_an_implementation_that_does_not_start_is_reported(tmp_path):
    crashing = tmp_path / "crashing_impl.py"
    crashing.write_text("import os\nos.abort()\n")
    report = tilecheck.gate(impl_cmd=[sys.executable, str(crashing)])
    assert not report.ok
    assert report.json is None and report.error
    assert report.text == f"error: {report.error}\n"


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        tilecheck.gate()
    with pytest.raises(tilecheck.GateInputError, match="profile"):
        tilecheck.gate(impl_cmd="true", profile="cpu")
    with pytest.raises(tilecheck.LayoutError):
        tilecheck.gate(impl_cmd="true", layouts=["f32[3,5]{1,0:T(2,2)"])
