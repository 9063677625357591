"""tilecheck.vectors and Layout's drawing: the same documents and figures the
command writes (the checked-in files are the command's, checked by its own
tests), and clear errors for what they cannot do."""
from pathlib import Path

import pytest

import tilecheck

ROOT = Path(__file__).resolve().parents[2]


def test_catalog_vectors_are_the_checked_in_file():
    text = tilecheck.vectors(catalog=True, text=True)
    assert text == (ROOT / "vectors/v1/tiled_layouts_test.json").read_text()


def test_vectors_of_layouts():
    doc = tilecheck.vectors(["f32[3,5]{1,0:T(2,2)}", tilecheck.Layout.parse("s4[9]{0:T(4)E(4)}")],
                            count=4, seed=7)
    assert doc["options"] == {"count": 4, "seed": 7}
    groups = doc["testGroups"]
    assert [g["layout"] for g in groups] == ["f32[3,5]{1,0:T(2,2)}", "s4[9]{0:T(4)E(4)}"]
    assert doc["numberOfTests"] == sum(len(g["tests"]) for g in groups)
    ops = [t["op"] for t in groups[0]["tests"]]
    assert ops.count("linear_index") == 4 and "pack" in ops
    size = groups[0]["tests"][0]
    assert (size["op"], size["elements"], size["bytes"]) == ("size", 15, 96)
    # One layout alone, as a Layout or its text, gives the same group.
    assert tilecheck.vectors("s4[9]{0:T(4)E(4)}", count=4, seed=7)["testGroups"] == groups[1:]


def test_the_seed_chooses_the_values():
    pack = lambda seed: [t for t in tilecheck.vectors("bf16[4,6]{1,0:T(2,2)}", seed=seed)["testGroups"][0]["tests"]
                         if t["op"] == "pack"][0]
    assert pack(1) == pack(1)
    assert pack(1)["dense_hex"] != pack(2)["dense_hex"]


@pytest.mark.parametrize("kwargs, message", [
    ({}, "give one or more layouts"),
    ({"layouts": ["f32[2]{0}"], "catalog": True}, "not both"),
    ({"layouts": ["f32[2]{0}"], "count": -1}, "count -1"),
    ({"layouts": ["f32[2]{0}"], "count": 100001}, "count 100001"),
    ({"layouts": ["f32[2]{0}"], "seed": -1}, "seed -1"),
])
def test_vectors_refuses_what_it_cannot_do(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tilecheck.vectors(**kwargs)


def test_vectors_of_an_invalid_layout_say_which():
    with pytest.raises(tilecheck.LayoutError, match="f32\\[2\\]\\{0:T\\(0\\)\\}"):
        tilecheck.vectors(["f32[2]{0}", "f32[2]{0:T(0)}"])


def test_draw_is_the_memory_map_as_text():
    text = tilecheck.Layout.parse("f32[3,5]{1,0:T(2,2)}").draw()
    assert text.startswith("f32[3,5]{1,0:T(2,2)}: 15 elements in 24 positions (9 padding), tiled shape (2,3,2,2)\n")
    assert "linear index of each element" in text and "memory order" in text
    cut = tilecheck.Layout.parse("f32[130,9]{0,1:T(8,128)}").draw(max_rows=4)
    assert "(showing 4 of 130 rows, 4 of 9 columns; raise max_rows to see more)" in cut
    with pytest.raises(tilecheck.LayoutError, match="max_rows must be at least 1"):
        tilecheck.Layout.parse("f32[2]{0}").draw(max_rows=0)


@pytest.mark.parametrize("figure, name", [("figure1.svg", "doc_figure1"), ("figure2.svg", "doc_figure2")])
def test_svg_is_the_documents_figure(figure, name):
    layout = dict(tilecheck.catalog())[name]
    svg = (ROOT / "docs/figures" / figure).read_text()
    assert layout.svg() == svg
    assert layout._repr_svg_() == svg


def test_a_layout_too_large_to_draw_as_svg():
    layout = tilecheck.Layout.parse("f32[65,3]{1,0}")
    with pytest.raises(tilecheck.LayoutError, match="too large to draw as SVG"):
        layout.svg()
    assert layout._repr_svg_() is None  # a notebook shows the repr
